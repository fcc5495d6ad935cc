import { describe, expect, it } from "vitest";
import { applyParsed, readParser, rowsToParse } from "./parse-ingredients.js";
import type { Draft } from "./recipe-edit.js";

const draft: Draft = {
  name: "Soup",
  recipeIngredient: [
    {
      referenceId: "a",
      title: "Base",
      quantity: null,
      unit: null,
      food: null,
      note: "2 cloves garlic, minced",
    },
    { referenceId: "b", title: null, quantity: 1, unit: { name: "cup" }, food: { name: "rice" }, note: "" },
    { referenceId: "c", title: null, quantity: 0.5, unit: { name: "tsp" }, food: null, note: "salt" },
    { referenceId: "d", title: null, quantity: null, unit: null, food: null, note: "" },
  ],
};

describe("parse ingredients in the editor", () => {
  it("sends the rows still held as text, written as a person would", () => {
    expect(rowsToParse(draft)).toEqual([
      { index: 0, line: "2 cloves garlic, minced" },
      { index: 2, line: "0.5 tsp salt" },
    ]);
  });

  it("puts the parse back into the same rows: ids and section titles stay, the line is kept", () => {
    const rows = rowsToParse(draft);
    const next = applyParsed(draft, rows, [
      { quantity: 2, unit: { name: "clove", id: null }, food: { name: "garlic", id: "f1" }, note: "minced" },
      { quantity: 0.5, unit: { name: "teaspoon", id: "u1" }, food: { name: "salt", id: null }, note: "" },
    ]);
    const list = next.recipeIngredient as Record<string, unknown>[];
    expect(list[0]).toMatchObject({
      referenceId: "a",
      title: "Base",
      quantity: 2,
      unit: { name: "clove" },
      food: { name: "garlic", id: "f1" },
      note: "minced",
      originalText: "2 cloves garlic, minced",
    });
    expect(list[1]).toEqual((draft.recipeIngredient as unknown[])[1]);
    expect(list[2]).toMatchObject({ referenceId: "c", quantity: 0.5, food: { name: "salt" } });
  });

  it("reads the stored parser preference, nlp by default (spec §3)", () => {
    expect(readParser("brute")).toBe("brute");
    expect(readParser("openai")).toBe("openai");
    expect(readParser(null)).toBe("nlp");
    expect(readParser("regex")).toBe("nlp");
  });
});
