import { describe, expect, it } from "vitest";
import { createMatcher } from "../../core/parsers/matcher.js";
import { parseLine as bruteLine } from "./brute/brute.js";
import { cleanLine } from "./clean.js";
import { parseLine as nlpLine } from "./nlp/parse.js";

const match = createMatcher({
  units: [{ id: "u1", name: "cup", pluralName: "cups" }],
  foods: [
    { id: "f1", name: "sugar" },
    { id: "f2", name: "flour" },
  ],
});

describe("lines pasted from web pages and notes", () => {
  it("decode html entities, an entity escaped twice included", () => {
    expect(cleanLine("Salt &amp; pepper")).toBe("Salt & pepper");
    expect(cleanLine("1 &frac12; cups milk&nbsp;")).toBe("1 ½ cups milk ");
    expect(cleanLine("1 &amp;frac12; cups")).toBe("1 ½ cups");
    expect(cleanLine("crème fra&#238;che, 2 &#x2153; cups")).toBe("crème fraîche, 2 ⅓ cups");
    // What is no entity stays as written.
    expect(cleanLine("AT&T sauce; &bogus; & more")).toBe("AT&T sauce; &bogus; & more");
  });

  it("drop markdown emphasis but keep a bullet, a multiplication and a footnote star", () => {
    expect(cleanLine("**2 cups** flour")).toBe("2 cups flour");
    expect(cleanLine("*1 cup* __sugar__")).toBe("1 cup sugar");
    expect(cleanLine("* 3 eggs")).toBe("* 3 eggs");
    expect(cleanLine("2 * 400 g tins")).toBe("2 * 400 g tins");
    expect(cleanLine("1 cup flour*")).toBe("1 cup flour*");
  });

  it("give both parsers the amount, unit and food behind the markup", () => {
    for (const parse of [nlpLine, bruteLine]) {
      const { ingredient: i } = parse("**2 cups** __sugar__", match);
      expect({ quantity: i.quantity, unit: i.unit?.name, food: i.food?.name }).toEqual({
        quantity: 2,
        unit: "cup",
        food: "sugar",
      });
      expect(parse("&frac12; cup flour&nbsp;", match).ingredient).toMatchObject({
        quantity: 0.5,
        food: { id: "f2" },
      });
    }
  });
});
