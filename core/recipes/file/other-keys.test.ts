import { describe, expect, it } from "vitest";
import { parseRecipeFile, serializeRecipeFile } from "./recipe-file.js";

const vocab = { units: [], foods: [] };

describe("front-matter keys Larder does not know", () => {
  it("are kept, after Larder's own keys, when the recipe is written back", () => {
    const text = "---\nname: Plum Jam\nsource: Grandma's notebook\ncooklang:\n  servings: 2\n---\nSweet.\n";
    const doc = parseRecipeFile(text, vocab);
    expect(doc.otherKeys).toEqual({ source: "Grandma's notebook", cooklang: { servings: 2 } });
    const out = serializeRecipeFile({ ...doc, description: "Sweeter." }, vocab);
    expect(out).toContain("source: Grandma's notebook");
    expect(out).toContain("cooklang:\n  servings: 2");
    expect(parseRecipeFile(out, vocab).otherKeys).toEqual(doc.otherKeys);
  });
});
