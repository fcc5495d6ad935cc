import { describe, expect, it } from "vitest";
import { createMatcher } from "../../core/parsers/matcher.js";
import { parseLine as bruteLine } from "./brute/brute.js";
import { parseLine as nlpLine } from "./nlp/parse.js";

const match = createMatcher({
  units: [
    { id: "sheet", name: "sheet", pluralName: "sheets" },
    { id: "can", name: "can", pluralName: "cans", aliases: [{ name: "tin" }] },
    { id: "cl", name: "centiliter", abbreviation: "cl" },
    { id: "tbsp", name: "tablespoon", abbreviation: "tbsp", aliases: [{ name: "tbs" }] },
    { id: "g", name: "gram", pluralName: "grams", abbreviation: "g" },
  ],
  foods: [
    { id: "yeast", name: "yeast" },
    { id: "cream", name: "cream" },
    { id: "ginger", name: "ginger" },
    { id: "sugar", name: "sugar" },
  ],
});
const unitOf = (parse: typeof nlpLine, line: string) => parse(line, match).ingredient.unit;

describe("a unit word the vocabulary lacks", () => {
  it("stays the unit written, in the singular, not the vocabulary's unit most like it", () => {
    for (const parse of [nlpLine, bruteLine]) {
      expect(unitOf(parse, "1 sachet yeast")).toEqual({ name: "sachet" });
      expect(unitOf(parse, "2 cartons cream")).toEqual({ name: "carton" });
      expect(unitOf(parse, "5 centimetres ginger")).toEqual({ name: "centimetre" });
    }
  });

  it("keeps the vocabulary's unit for a short abbreviation of it", () => {
    for (const parse of [nlpLine, bruteLine]) {
      expect(unitOf(parse, "1 tb sugar")).toEqual({ id: "tbsp", name: "tablespoon" });
      expect(unitOf(parse, "100 grm sugar")).toEqual({ id: "g", name: "gram" });
      expect(unitOf(parse, "2 tins cream")).toEqual({ id: "can", name: "can" });
    }
  });
});
