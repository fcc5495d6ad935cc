/**
 * The cleaner against Mealie's own cases (derived/test-expectations.json, skipped without the fixtures)
 * and against cases of Larder's own.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../test-support.js";
import {
  cleanInstructions,
  cleanNutrition,
  cleanRecipe,
  cleanString,
  cleanTags,
  cleanTime,
  cleanYield,
  prettySeconds,
  titleCase,
} from "./clean.js";

const file = `${FIXTURES}derived/test-expectations.json`;
const present = existsSync(file);
const cases = present
  ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, Array<[unknown, unknown]>>)
  : {};

describe.skipIf(!present)("Mealie's cleaner cases", () => {
  it("clean_time", () => {
    for (const [input, want] of cases.cleanTimeCases) expect(cleanTime(input), String(input)).toBe(want);
  });
  it("clean_string", () => {
    for (const [input, want] of cases.cleanStringCases)
      expect(cleanString(input), JSON.stringify(input)).toBe(want);
  });
  it("clean_yield", () => {
    for (const [input, want] of cases.cleanYieldCases)
      expect(cleanYield(input), JSON.stringify(input)).toBe(want);
  });
  it("clean_tags", () => {
    for (const [input, want] of cases.cleanTagsCases)
      expect(cleanTags(input), JSON.stringify(input)).toEqual(want);
  });
  it("clean_nutrition", () => {
    for (const [input, want] of cases.cleanNutritionCases)
      expect(cleanNutrition(input), JSON.stringify(input)).toEqual(want);
  });
});

describe("cleaner", () => {
  it("durations in words, minutes from CSV numbers, zero as none", () => {
    expect(prettySeconds(3600 + 60)).toBe("1 hour 1 minute");
    expect(prettySeconds(0)).toBe("none");
    expect(cleanTime("75", { minutes: true })).toBe("1 hour 15 minutes");
    expect(cleanTime(0, { minutes: true })).toBeNull();
    expect(cleanTime("P1D")).toBe("P1D");
  });
  it("title case like Mealie's, but an apostrophe does not start a word", () => {
    expect(titleCase("shepherd's pie")).toBe("Shepherd's Pie");
    expect(titleCase("allergen-friendly")).toBe("Allergen-Friendly");
    expect(titleCase("BBQ")).toBe("Bbq");
  });
  it("instructions from sections, numbered dicts, JSON strings and double-escaped HTML", () => {
    expect(cleanInstructions({ "1": "b", "0": "a" })).toEqual([
      { title: "", text: "a" },
      { title: "", text: "b" },
    ]);
    expect(cleanInstructions('[{"text":"x"}]')).toEqual([{ title: "", text: "x" }]);
    expect(
      cleanInstructions([
        { "@type": "HowToSection", name: "Sauce", itemListElement: [{ text: "Stir" }, { text: "Taste" }] },
      ]),
    ).toEqual([
      { title: "Sauce", text: "Stir" },
      { title: "", text: "Taste" },
    ]);
    expect(cleanInstructions([{ text: "&amp;lt;b&amp;gt;Hot&amp;lt;/b&amp;gt;" }])).toEqual([
      { title: "", text: "Hot" },
    ]);
  });
  it("a recipe with nothing but a name", () => {
    const r = cleanRecipe({ name: "<b>Toast</b>" });
    expect(r).toMatchObject({
      name: "Toast",
      recipeIngredient: [],
      recipeInstructions: [],
      tags: [],
      nutrition: {},
      orgURL: null,
    });
    expect(cleanRecipe({}).name).toBe("Untitled");
  });
});
