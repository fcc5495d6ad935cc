import { describe, expect, it } from "vitest";
import { parseRecipeFile, serializeRecipeFile } from "./recipe-file.js";

const vocab = { units: [], foods: [] };

const HAND_WRITTEN = `---
# Family recipe: do not share outside the family.

name: Plum Jam # from Grandma's notebook
# the tags I use for preserves
tags: [Preserves, Summer] # keep short
recipe_category:
  # picked by the kids
  - Breakfast # on toast
  - Dessert
totalTime: 1 hour # without the jars
nutrition:
  calories: "200" # per spoon, roughly
source: Grandma # a key Larder does not know
# end of the front matter
---
Sweet.

## Ingredients

- 1 kg plums
`;

/** Every comment of the hand-written file, as written after the `#`. */
const COMMENTS = [
  "Family recipe: do not share outside the family.",
  "from Grandma's notebook",
  "the tags I use for preserves",
  "keep short",
  "picked by the kids",
  "on toast",
  "without the jars",
  "per spoon, roughly",
  "a key Larder does not know",
  "end of the front matter",
];

const frontMatterOf = (text: string): string => text.slice(0, text.indexOf("\n---", 3));

describe("comments in a recipe's front matter", () => {
  it("are written again, each beside its key or list item, when the recipe is saved", () => {
    const doc = parseRecipeFile(HAND_WRITTEN, vocab);
    const out = serializeRecipeFile({ ...doc, description: "Sweeter." }, vocab, HAND_WRITTEN);
    const fm = frontMatterOf(out);
    for (const c of COMMENTS) expect(fm).toContain(c);
    expect(fm).toMatch(/^name: Plum Jam # from Grandma's notebook$/m);
    expect(fm).toMatch(/# the tags I use for preserves\ntags: \[ ?Preserves, Summer ?\] # keep short$/m);
    // The file's own spelling (recipe_category) is written as Larder's key, and its comments follow it.
    expect(fm).toMatch(/categories:\n\s+# picked by the kids\n\s+- Breakfast # on toast\n\s+- Dessert/);
    expect(fm).toMatch(/^# Family recipe: do not share outside the family\.\n\n/m);
    const back = parseRecipeFile(out, vocab);
    expect(back).toEqual({ ...doc, description: "Sweeter." });
  });

  it("whose key or item was removed are kept at the end of the front matter", () => {
    const doc = parseRecipeFile(HAND_WRITTEN, vocab);
    const out = serializeRecipeFile(
      { ...doc, categories: ["Dessert"], totalTime: null, tags: [] },
      vocab,
      HAND_WRITTEN,
    );
    const fm = frontMatterOf(out);
    for (const c of COMMENTS) expect(fm).toContain(c);
    expect(fm).not.toContain("Breakfast");
    expect(fm).not.toContain("totalTime");
    expect(fm.slice(fm.indexOf("source:"))).toContain("# on toast");
  });

  it("survive any number of saves without being repeated", () => {
    let text = HAND_WRITTEN;
    for (let i = 0; i < 3; i++) {
      const doc = parseRecipeFile(text, vocab);
      text = serializeRecipeFile({ ...doc, description: `Version ${i}` }, vocab, text);
    }
    for (const c of COMMENTS) expect(text.split(c).length - 1).toBe(1);
    const again = serializeRecipeFile(parseRecipeFile(text, vocab), vocab, text);
    expect(again).toBe(text);
  });

  it("leave a file without comments in canonical form, and a '#' inside a value is not a comment", () => {
    const plain = "---\nname: C# Cookies\nsource: 'page #3'\n---\nCrisp.\n";
    const doc = parseRecipeFile(plain, vocab);
    expect(serializeRecipeFile(doc, vocab, plain)).toBe(serializeRecipeFile(doc, vocab));
  });

  it("are not taken from a previous text that does not parse", () => {
    const doc = parseRecipeFile(HAND_WRITTEN, vocab);
    const broken = "---\nname: [unclosed # comment\n---\n";
    expect(serializeRecipeFile(doc, vocab, broken)).toBe(serializeRecipeFile(doc, vocab));
  });
});
