/**
 * Words around an ingredient that the committed model reads as part of the food, settled after tagging:
 * "as required" and its kin are a comment wherever they stand, and "Nos" or "numbers" after an amount
 * counts pieces (decision 0225). Lines as Indian recipe sites write them.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createMatcher } from "../../../core/parsers/matcher.js";
import { parseLine } from "./parse.js";

const seed = (file: string) =>
  (
    JSON.parse(
      readFileSync(new URL(`../../../templates/seed/en-US/${file}`, import.meta.url), "utf8"),
    ) as object[]
  ).map((x, i) => ({ id: `${file}-${i}`, ...x })) as never[];
const match = createMatcher({ units: seed("units.json"), foods: seed("foods.json") });
const fields = (line: string) => {
  const { ingredient: i } = parseLine(line, match);
  return { quantity: i.quantity, unit: i.unit?.name ?? null, food: i.food?.name ?? null, note: i.note };
};

describe("nlp parser: cue words the model would take for the food", () => {
  it("reads 'as required', 'as needed' and 'as per taste' as a comment before or after the food", () => {
    expect(fields("As required salt")).toEqual({
      quantity: 0,
      unit: null,
      food: "salt",
      note: "As required",
    });
    expect(fields("Salt as required")).toEqual({
      quantity: 0,
      unit: null,
      food: "salt",
      note: "as required",
    });
    expect(fields("As needed oil")).toMatchObject({ food: "oil", note: "As needed" });
    expect(fields("Salt - as per taste")).toMatchObject({ food: "salt", note: "as per taste" });
    expect(fields("salt (as required)")).toMatchObject({ food: "salt", note: "as required" });
  });

  it("reads 'Nos', 'no.' and 'numbers' after an amount as a count of pieces, neither unit nor food", () => {
    expect(fields("2 Nos Onion")).toEqual({ quantity: 2, unit: null, food: "onion", note: "" });
    expect(fields("2 Nos. Onion")).toEqual({ quantity: 2, unit: null, food: "onion", note: "" });
    expect(fields("6 Numbers basil")).toMatchObject({ quantity: 6, unit: null, food: "basil" });
    expect(fields("2 number green chillies")).toMatchObject({ quantity: 2, unit: null });
    // "No" that is not counting stays where the model put it.
    expect(fields("No salt").food).toContain("salt");
  });

  it("reads cookbook shorthand 'T' and 't' after an amount as tablespoon and teaspoon", () => {
    expect(fields("1 T butter")).toEqual({ quantity: 1, unit: "tablespoon", food: "butter", note: "" });
    expect(fields("2 t. vanilla")).toMatchObject({ quantity: 2, unit: "teaspoon", food: "vanilla" });
    expect(fields("Vitamin T").unit).toBeNull();
  });

  it("drops an 'about' whose amount the note leaves out", () => {
    expect(fields("1 medium onion, diced (about 1 cup)")).toMatchObject({
      food: "onion",
      note: "medium, diced",
    });
  });

  it("leaves a unit the vocabulary lacks as written instead of a unit one letter away", () => {
    expect(fields("1/2 inch Ginger")).toMatchObject({ quantity: 0.5, unit: "inch", food: "ginger" });
  });
});
