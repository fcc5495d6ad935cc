/** Mealie's rule-based parser on lines written for these tests (Mealie's own cases run in parsers.fixtures.test.ts). */
import { describe, expect, it } from "vitest";
import { createMatcher } from "../../../core/parsers/matcher.js";
import { brute, parseAmount, parseLine } from "./brute.js";

const match = createMatcher({
  units: [
    { id: "u1", name: "Cups" },
    { id: "u2", name: "Teaspoon" },
    { id: "u3", name: "Sprig" },
  ],
  foods: [
    { id: "f1", name: "thyme" },
    { id: "f2", name: "sea salt" },
  ],
});
const isUnit = (t: string) => match.unit(t) !== null;

describe("brute", () => {
  it("reads amounts: integers, decimals with either separator, fractions and vulgar fractions", () => {
    expect(parseAmount("3")).toBe(3);
    expect(parseAmount("1,5")).toBe(1.5);
    expect(parseAmount("1/4")).toBe(0.25);
    expect(parseAmount("½")).toBe(0.5);
    expect(parseAmount("2½")).toBe(2.5);
    expect(() => parseAmount("two")).toThrow();
  });

  it("takes amount, unit, food and the note after a comma or in trailing brackets", () => {
    expect(brute("2 cups rolled oats, toasted", isUnit)).toEqual({ amount: 2, unit: "cups", food: "rolled oats", note: "toasted" });
    expect(brute("2 1/2 cups milk (warm)", isUnit)).toEqual({ amount: 2.5, unit: "cups", food: "milk", note: "warm" });
    expect(brute("1½ cups milk", isUnit)).toEqual({ amount: 1.5, unit: "cups", food: "milk", note: "" });
    expect(brute("3 eggs", isUnit)).toEqual({ amount: 3, unit: "", food: "eggs", note: "" });
    expect(brute("3 eggs, beaten", isUnit)).toEqual({ amount: 3, unit: "", food: "eggs", note: "beaten" });
  });

  it("without an amount, takes a known unit among the first three words", () => {
    expect(brute("a sprig thyme", isUnit)).toEqual({ amount: 0, unit: "sprig", food: "thyme", note: "" });
    expect(brute("sea salt, to taste", isUnit)).toEqual({ amount: 0, unit: "", food: "sea salt", note: "to taste" });
    expect(brute("thyme", isUnit)).toEqual({ amount: 0, unit: "", food: "thyme", note: "" });
    expect(brute("   ", isUnit)).toEqual({ amount: 0, unit: "", food: "", note: "" });
  });

  it("matches unit and food against the vocabulary, with null confidences as in Mealie", () => {
    const r = parseLine("1 teaspoon sea salt", match);
    expect(r.ingredient).toMatchObject({ quantity: 1, unit: { id: "u2", name: "Teaspoon" }, food: { id: "f2", name: "sea salt" }, note: "" });
    expect(Object.values(r.confidence).every((v) => v === null)).toBe(true);
  });
});
