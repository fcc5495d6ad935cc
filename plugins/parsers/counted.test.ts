/** Counting words at a line's start, read alike by both parsers (decision 0231); lines written for these tests. */
import { describe, expect, it } from "vitest";
import { createMatcher } from "../../core/parsers/matcher.js";
import { parseLine as bruteLine } from "./brute/brute.js";
import { countedAmount } from "./counted.js";
import { parseLine as nlpLine } from "./nlp/parse.js";

const match = createMatcher({
  units: [
    { id: "u-pinch", name: "pinch", pluralName: "pinches" },
    { id: "u-tbsp", name: "tablespoon", pluralName: "tablespoons", abbreviation: "tbsp" },
    { id: "u-sprig", name: "sprig", pluralName: "sprigs" },
    { id: "u-handful", name: "handful" },
  ],
  foods: [
    { id: "f-egg", name: "egg", pluralName: "eggs" },
    { id: "f-salt", name: "salt" },
    { id: "f-oil", name: "olive oil" },
    { id: "f-thyme", name: "thyme" },
    { id: "f-bay", name: "bay leaf", pluralName: "bay leaves" },
    { id: "f-spinach", name: "spinach" },
  ],
});

const words = (s: string) => s.toLowerCase().split(" ");

describe("countedAmount", () => {
  it("reads dozens, halves of them and a couple, with the 'of' after them", () => {
    expect(countedAmount(words("half a dozen eggs"))).toEqual({ value: 6, length: 3 });
    expect(countedAmount(words("a half dozen eggs"))).toEqual({ value: 6, length: 3 });
    expect(countedAmount(words("a dozen eggs"))).toEqual({ value: 12, length: 2 });
    expect(countedAmount(words("dozen eggs"))).toEqual({ value: 12, length: 1 });
    expect(countedAmount(words("two dozen quail eggs"))).toEqual({ value: 24, length: 2 });
    expect(countedAmount(words("1 1/2 dozen eggs"))).toEqual({ value: 18, length: 3 });
    expect(countedAmount(words("a couple of bay leaves"))).toEqual({ value: 2, length: 3 });
    expect(countedAmount(words("a few sprigs thyme"))).toEqual({ value: null, length: 2 });
  });

  it("leaves other openings alone, and a phrase with nothing after it", () => {
    expect(countedAmount(words("2 cups flour"))).toBeNull();
    expect(countedAmount(words("a pinch of salt"))).toBeNull();
    expect(countedAmount(words("little gem lettuce"))).toBeNull();
    expect(countedAmount(words("a dozen"))).toBeNull();
  });
});

const fields = (r: ReturnType<typeof nlpLine>) => ({
  quantity: r.ingredient.quantity,
  unit: r.ingredient.unit?.name ?? "",
  food: r.ingredient.food?.name ?? "",
  note: r.ingredient.note,
});

describe.each([
  ["nlp", (l: string) => fields(nlpLine(l, match))],
  ["brute", (l: string) => fields(bruteLine(l, match))],
])("the %s parser", (_name, parse) => {
  it("counts half a dozen eggs as six, not half an egg", () => {
    expect(parse("half a dozen eggs")).toEqual({ quantity: 6, unit: "", food: "egg", note: "" });
    expect(parse("a dozen eggs")).toMatchObject({ quantity: 12, food: "egg" });
    expect(parse("dozen eggs")).toMatchObject({ quantity: 12, food: "egg" });
    expect(parse("two dozen eggs")).toMatchObject({ quantity: 24, food: "egg" });
  });

  it("counts a couple as two, with or without 'of'", () => {
    expect(parse("a couple of bay leaves")).toEqual({ quantity: 2, unit: "", food: "bay leaf", note: "" });
    expect(parse("a couple tablespoons olive oil")).toEqual({
      quantity: 2,
      unit: "tablespoon",
      food: "olive oil",
      note: "",
    });
  });

  it("gives 'a few' no amount and keeps the words in the note", () => {
    expect(parse("a few sprigs thyme")).toEqual({ quantity: 0, unit: "sprig", food: "thyme", note: "a few" });
  });
});

describe("a unit opening the line", () => {
  it.each([
    ["nlp", nlpLine],
    ["brute", bruteLine],
  ] as const)("after 'a' counts one in the %s parser", (_name, parse) => {
    expect(fields(parse("a pinch of salt", match))).toEqual({
      quantity: 1,
      unit: "pinch",
      food: "salt",
      note: "",
    });
  });

  it("counts one without 'a' before 'of'; the brute parser keeps Mealie's no amount without 'of'", () => {
    for (const parse of [nlpLine, bruteLine])
      expect(fields(parse("handful of spinach", match))).toMatchObject({
        quantity: 1,
        unit: "handful",
        food: "spinach",
      });
    // Mealie's brute case "stalk onion" (decision 0231).
    expect(fields(bruteLine("handful spinach", match))).toMatchObject({
      quantity: 0,
      unit: "handful",
      food: "spinach",
    });
  });
});
