import { describe, expect, it } from "vitest";
import { planLines, scaledIngredient, stepScale, truncate, weekStart, wrap } from "./lines.js";
import { plainWanted } from "./command.js";
import type { PlanEntryOut } from "./source.js";

describe("terminal app lines", () => {
  it("steps servings by one, and a recipe without servings by halves, never to nothing", () => {
    expect(stepScale(1, 1, 4)).toBe(5 / 4);
    expect(stepScale(1 / 4, -1, 4)).toBe(1 / 4);
    expect(stepScale(1, 1, null)).toBe(1.5);
    expect(stepScale(0.5, -1, null)).toBe(0.5);
  });

  it("scales an ingredient with core's display (fractions, plurals) and keeps unparsed lines as written", () => {
    const flour = {
      quantity: 1,
      unit: { name: "cup", pluralName: "cups" },
      food: { name: "flour" },
      note: "sifted",
    };
    expect(scaledIngredient(flour, 1, false)).toBe("1 cup flour sifted");
    expect(scaledIngredient(flour, 1.5, false)).toBe("1 ¹/₂ cups flour sifted");
    expect(
      scaledIngredient({ quantity: null, unit: null, food: null, note: "salt to taste" }, 3, false),
    ).toBe("salt to taste");
  });

  it("starts the week on the household's first day", () => {
    // 2026-11-25 is a Wednesday.
    expect(weekStart("2026-11-25", 1)).toBe("2026-11-23");
    expect(weekStart("2026-11-25", 0)).toBe("2026-11-22");
    expect(weekStart("2026-11-22", 1)).toBe("2026-11-16");
  });

  it("lists seven days and makes only meals with a recipe openable", () => {
    const entries = [
      { id: 1, date: "2026-11-24", entryType: "dinner", title: "", recipe: { slug: "soup", name: "Soup" } },
      { id: 2, date: "2026-11-24", entryType: "breakfast", title: "Toast", recipe: null },
    ] as unknown as PlanEntryOut[];
    const lines = planLines("2026-11-23", entries);
    expect(lines.filter((l) => l.bold)).toHaveLength(7);
    const tuesday = lines.slice(lines.findIndex((l) => l.text.startsWith("Tue")) + 1).slice(0, 2);
    expect(tuesday.map((l) => l.text.trim().replace(/\s+/g, " "))).toEqual([
      "breakfast Toast",
      "dinner Soup",
    ]);
    expect(tuesday.map((l) => l.key)).toEqual([undefined, "recipe:soup"]);
  });

  it("wraps long text at word boundaries and cuts lines to the width", () => {
    expect(wrap("one two three four", 10)).toEqual(["one two", "three four"]);
    expect(truncate("a".repeat(100), 80)).toHaveLength(80);
    expect(truncate("a".repeat(100), 80).endsWith("…")).toBe(true);
  });

  it("takes plain mode from --plain or LARDER_PLAIN", () => {
    expect(plainWanted(true, {})).toBe(true);
    expect(plainWanted(undefined, { LARDER_PLAIN: "1" })).toBe(true);
    expect(plainWanted(undefined, { LARDER_PLAIN: "0" })).toBe(false);
    expect(plainWanted(undefined, {})).toBe(false);
  });
});
