/** Matching parsed text against a group's foods and units, with Mealie's keys and fuzzy thresholds. */
import { describe, expect, it } from "vitest";
import { createMatcher, normaliseKey, ratio } from "./matcher.js";

const vocabulary = {
  units: [
    { id: "u-cup", name: "Cups" },
    {
      id: "u-tbsp",
      name: "tablespoon",
      pluralName: "tablespoons",
      abbreviation: "tbsp",
      aliases: [{ name: "tbs" }],
    },
    { id: "u-stalk", name: "Stalk" },
    {
      id: "u-plural",
      name: "PluralUnitName",
      pluralName: "abc123",
      abbreviation: "doremiabc",
      pluralAbbreviation: "doremi123",
    },
  ],
  foods: [
    { id: "f-potato", name: "potatoes" },
    { id: "f-green", name: "green onion" },
    { id: "f-onion", name: "onion", pluralName: "onions" },
    { id: "f-flakes", name: "red pepper flakes" },
    { id: "f-bell", name: "bell peppers" },
    { id: "f-normal", name: "ñör̃m̈ãl̈ĩz̈ẽm̈ẽ" },
    { id: "f-alias", name: "IHaveAnAlias", aliases: [{ name: "thisismyalias" }] },
  ],
};
const m = createMatcher(vocabulary);

describe("ratio (rapidfuzz's normalised Indel similarity)", () => {
  it("is 100 for equal text, 0 for nothing in common, and 200·LCS/(|a|+|b|) between", () => {
    expect(ratio("onion", "onion")).toBe(100);
    expect(ratio("abc", "xyz")).toBe(0);
    expect(ratio("gren onion", "green onion")).toBeCloseTo((200 * 10) / 21);
    expect(ratio("", "")).toBe(100);
    expect(ratio("a", "")).toBe(0);
  });
});

describe("createMatcher", () => {
  it("finds units by name, plural, abbreviation, plural abbreviation and alias, case- and accent-blind", () => {
    expect(m.unit("cups")?.id).toBe("u-cup");
    expect(m.unit("TBSP")?.id).toBe("u-tbsp");
    expect(m.unit("tablespoons")?.id).toBe("u-tbsp");
    expect(m.unit("tbs")?.id).toBe("u-tbsp");
    expect(m.unit("abc123")?.id).toBe("u-plural");
    expect(m.unit("doremi123")?.id).toBe("u-plural");
    expect(m.food(" Onions ")?.id).toBe("f-onion");
    expect(m.food("thisismyalias")?.id).toBe("f-alias");
    expect(normaliseKey("ñör̃m̈ãl̈ĩz̈ẽm̈ẽ")).toBe("normalizeme");
    expect(m.food("normalizeme")?.id).toBe("f-normal");
  });

  it("matches fuzzily at ratio 85 for foods and 70 for units, and not below", () => {
    expect(m.food("gren onion")?.id).toBe("f-green");
    expect(m.food("potato")?.id).toBe("f-potato");
    expect(m.food("onion rings")).toBeNull();
    expect(m.unit("cup")?.id).toBe("u-cup");
    // As in Mealie, a short abbreviation is close to another: with no "tsp" in the vocabulary it is "tbsp".
    expect(m.unit("tsp")?.id).toBe("u-tbsp");
    expect(m.unit("pinch")).toBeNull();
    expect(m.unit("theelepel")).toBeNull();
    expect(m.food("")).toBeNull();
  });

  it("matches fuzzily only among names with the text's first letter: a letter added in front is another word", () => {
    const words = createMatcher({
      units: [
        { id: "u-pinch", name: "pinch" },
        { id: "u-tbsp", name: "tablespoon", abbreviation: "tbsp" },
      ],
      foods: [
        { id: "f-kale", name: "kale" },
        { id: "f-rice", name: "rice" },
        { id: "f-wheat", name: "wheat" },
      ],
    });
    expect(words.unit("inch")).toBeNull();
    expect(words.food("ale")).toBeNull();
    expect(words.food("ice")).toBeNull();
    expect(words.food("heat")).toBeNull();
    expect(words.ingredient("tbsp", "ale")).toEqual({
      unit: { id: "u-tbsp", name: "tablespoon" },
      food: { name: "ale" },
    });
    // Misspellings and abbreviations keep their first letter and still match.
    expect(words.unit("tablspoon")?.id).toBe("u-tbsp");
    expect(words.unit("pinches")?.id).toBe("u-pinch");
    expect(words.food("kales")?.id).toBe("f-kale");
  });

  it("matches a food of several words only to a name of the same words, misspelt or plural", () => {
    const pantry = createMatcher({
      units: [{ id: "u-tbsp", name: "tablespoon", abbreviation: "tbsp" }],
      foods: [
        { id: "f-celery", name: "celery", aliases: [{ name: "celery stalk" }] },
        { id: "f-garlic", name: "garlic", aliases: [{ name: "garlic pod" }] },
        { id: "f-onion", name: "onion", aliases: [{ name: "onion pod" }] },
        { id: "f-chicken", name: "chicken", aliases: [{ name: "chicken hock" }] },
        { id: "f-coconut", name: "coconut", aliases: [{ name: "coconut mix" }] },
        { id: "f-milk", name: "milk" },
        { id: "f-tomato", name: "cherry tomato", pluralName: "cherry tomatoes" },
        { id: "f-flour", name: "all-purpose flour" },
      ],
    });
    // Each is 85 or more to an alias that shares its first word: another food, not a misspelling.
    const near = [
      ["celery salt", "celery stalk"],
      ["garlic powder", "garlic pod"],
      ["onion powder", "onion pod"],
      ["chicken stock", "chicken hock"],
      ["coconut milk", "coconut mix"],
    ];
    for (const [text, alias] of near) {
      expect(ratio(text, alias), text).toBeGreaterThanOrEqual(85);
      expect(pantry.food(text), text).toBeNull();
    }
    expect(pantry.ingredient("tbsp", "coconut milk").food).toEqual({ name: "coconut milk" });
    // The exact phrase still wins, and a whole name misspelt or in the plural still matches.
    expect(pantry.food("chiken hocks")?.id).toBe("f-chicken");
    expect(pantry.food("chery tomatos")?.id).toBe("f-tomato");
    expect(pantry.food("all purpose flour")?.id).toBe("f-flour");
    expect(pantry.food("celery")?.id).toBe("f-celery");
  });

  it("repairs a food split into unit and food, and keeps unknown names as parsed text", () => {
    expect(m.ingredient("red", "pepper flakes")).toEqual({
      unit: null,
      food: { id: "f-flakes", name: "red pepper flakes" },
    });
    expect(m.ingredient("bell", "peppers")).toEqual({
      unit: null,
      food: { id: "f-bell", name: "bell peppers" },
    });
    expect(m.ingredient("cups", "potato")).toEqual({
      unit: { id: "u-cup", name: "Cups" },
      food: { id: "f-potato", name: "potatoes" },
    });
    expect(m.ingredient("large", "yellow onion")).toEqual({
      unit: { name: "large" },
      food: { name: "yellow onion" },
    });
    expect(m.ingredient(null, null)).toEqual({ unit: null, food: null });
  });

  it("does not spend time on text far longer than any name", () => {
    const long = "x".repeat(10_000);
    const t0 = performance.now();
    expect(m.food(long)).toBeNull();
    expect(m.unit(long)).toBeNull();
    expect(performance.now() - t0).toBeLessThan(200);
  });
});

describe("fuzzy scoring", () => {
  it("gives the same matches with the bit-parallel LCS as with the plain DP, for short and long names", () => {
    const names = [
      "green onion",
      "red pepper flakes",
      "a-very-long-food-name-beyond-thirty-one-characters",
      "onion",
      "aaaa",
    ];
    const matcher = createMatcher({ units: [], foods: names.map((name, i) => ({ id: String(i), name })) });
    const probes = [
      "gren onion",
      "red peper flakes",
      "a-very-long-food-name-beyond-thirty-one-character",
      "onoin",
      "aaa",
      "zzz",
    ];
    for (const probe of probes) {
      const best = names
        .map((n, i) => ({ i, r: n[0] === probe[0] ? ratio(probe, n) : 0 }))
        .filter((x) => x.r >= 85)
        .sort((a, b) => b.r - a.r || a.i - b.i)[0];
      expect(matcher.food(probe)?.id ?? null, probe).toBe(best ? String(best.i) : null);
    }
  });
});
