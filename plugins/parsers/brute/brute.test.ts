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
    expect(brute("2 cups rolled oats, toasted", isUnit)).toEqual({
      amount: 2,
      unit: "cups",
      food: "rolled oats",
      note: "toasted",
    });
    expect(brute("2 1/2 cups milk (warm)", isUnit)).toEqual({
      amount: 2.5,
      unit: "cups",
      food: "milk",
      note: "warm",
    });
    expect(brute("1½ cups milk", isUnit)).toEqual({ amount: 1.5, unit: "cups", food: "milk", note: "" });
    expect(brute("3 eggs", isUnit)).toEqual({ amount: 3, unit: "", food: "eggs", note: "" });
    expect(brute("3 eggs, beaten", isUnit)).toEqual({ amount: 3, unit: "", food: "eggs", note: "beaten" });
  });

  it("without an amount, takes a known unit among the first three words", () => {
    expect(brute("a sprig thyme", isUnit)).toEqual({ amount: 0, unit: "sprig", food: "thyme", note: "" });
    expect(brute("sea salt, to taste", isUnit)).toEqual({
      amount: 0,
      unit: "",
      food: "sea salt",
      note: "to taste",
    });
    expect(brute("thyme", isUnit)).toEqual({ amount: 0, unit: "", food: "thyme", note: "" });
    expect(brute("   ", isUnit)).toEqual({ amount: 0, unit: "", food: "", note: "" });
  });

  it("matches unit and food against the vocabulary, with null confidences as in Mealie", () => {
    const r = parseLine("1 teaspoon sea salt", match);
    expect(r.ingredient).toMatchObject({
      quantity: 1,
      unit: { id: "u2", name: "Teaspoon" },
      food: { id: "f2", name: "sea salt" },
      note: "",
    });
    expect(Object.values(r.confidence).every((v) => v === null)).toBe(true);
  });
});

describe("brute's unit after the amount", () => {
  const pantry = createMatcher({
    units: [
      { id: "u-cup", name: "cup", pluralName: "cups" },
      { id: "u-l", name: "liter", pluralName: "litres", abbreviation: "l" },
    ],
    foods: [
      { id: "f-egg", name: "egg", pluralName: "eggs" },
      { id: "f-carrot", name: "carrot", pluralName: "carrots" },
      { id: "f-lime", name: "lime", pluralName: "limes" },
      { id: "f-thigh", name: "chicken thigh", pluralName: "chicken thighs" },
      { id: "f-oats", name: "rolled oats" },
    ],
  });
  const fields = (line: string) => {
    const i = parseLine(line, pantry).ingredient;
    return { quantity: i.quantity, unit: i.unit?.name ?? "", food: i.food?.name ?? "", note: i.note };
  };

  it("is no unit when it is no known unit: a size goes to the note, as the nlp parser has it", () => {
    expect(fields("2 large eggs")).toEqual({ quantity: 2, unit: "", food: "egg", note: "large" });
    expect(fields("3 medium carrots, scrubbed")).toEqual({
      quantity: 3,
      unit: "",
      food: "carrot",
      note: "medium, scrubbed",
    });
    // "limes" is 73 to "litres": a likeness is not enough to take a word for the unit.
    expect(fields("5 limes, juiced")).toEqual({ quantity: 5, unit: "", food: "lime", note: "juiced" });
    expect(fields("5 boneless chicken thighs")).toEqual({
      quantity: 5,
      unit: "",
      food: "chicken thigh",
      note: "boneless",
    });
  });

  it("is the unit when the group or the built-in list knows it, in any seeded language", () => {
    expect(fields("2 cups rolled oats")).toMatchObject({ quantity: 2, unit: "cup", food: "rolled oats" });
    expect(fields("1 1/2 cups rolled oats")).toMatchObject({ quantity: 1.5, unit: "cup" });
    expect(fields("3 eetlepels suiker")).toMatchObject({ quantity: 3, unit: "eetlepels", food: "suiker" });
    expect(fields("2 EL Zucker")).toMatchObject({ quantity: 2, unit: "EL", food: "Zucker" });
    expect(fields("1 snuf(je) peper")).toMatchObject({ quantity: 1, unit: "snuf(je)", food: "peper" });
  });

  it("reads a number word as the amount", () => {
    expect(fields("two eggs")).toEqual({ quantity: 2, unit: "", food: "egg", note: "" });
    expect(fields("half a lime")).toEqual({ quantity: 0.5, unit: "", food: "lime", note: "" });
    expect(fields("three cups of rolled oats")).toEqual({
      quantity: 3,
      unit: "cup",
      food: "rolled oats",
      note: "",
    });
  });
});

describe("brute on amounts, packs and asides Mealie's algorithm misreads", () => {
  const pantry = createMatcher({
    units: [
      { id: "u-cup", name: "cup", pluralName: "cups" },
      { id: "u-g", name: "gram", abbreviation: "g" },
      { id: "u-can", name: "can", pluralName: "cans", aliases: [{ name: "tin" }, { name: "tins" }] },
      { id: "u-head", name: "head", pluralName: "heads" },
      { id: "u-tsp", name: "teaspoon", pluralName: "teaspoons", abbreviation: "tsp" },
      { id: "u-floz", name: "fluid ounce", abbreviation: "fl oz" },
    ],
    foods: [
      { id: "f-lentils", name: "lentils" },
      { id: "f-romanesco", name: "romanesco" },
      { id: "f-rum", name: "rum" },
      { id: "f-mint", name: "mint" },
      { id: "f-butter", name: "butter" },
    ],
  });
  const fields = (line: string) => {
    const i = parseLine(line, pantry).ingredient;
    return {
      quantity: i.quantity,
      max: i.quantityMax ?? null,
      unit: i.unit?.name ?? "",
      food: i.food?.name ?? "",
      note: i.note,
    };
  };

  it("gives a range both ends", () => {
    expect(fields("3-4 cups lentils")).toEqual({
      quantity: 3,
      max: 4,
      unit: "cup",
      food: "lentils",
      note: "",
    });
    expect(fields("3 to 4 cups lentils")).toMatchObject({ quantity: 3, max: 4, unit: "cup" });
  });

  it("reads a glued metric amount, and a pack's size before its unit into the note", () => {
    expect(fields("300g lentils")).toMatchObject({ quantity: 300, unit: "gram", food: "lentils" });
    expect(fields("2 x 300g tins lentils, rinsed")).toEqual({
      quantity: 2,
      max: null,
      unit: "can",
      food: "lentils",
      note: "300 g, rinsed",
    });
    expect(fields("1 (10.5 oz) can lentils")).toMatchObject({ quantity: 1, unit: "can", note: "10.5 oz" });
    expect(fields("2 12-ounce cans lentils")).toMatchObject({ quantity: 2, unit: "can", note: "12-ounce" });
  });

  it("takes a size before a known unit as the unit's, and a two-word fluid ounce", () => {
    expect(fields("1 large head of romanesco")).toEqual({
      quantity: 1,
      max: null,
      unit: "head",
      food: "romanesco",
      note: "large",
    });
    expect(fields("2 level tsp mint")).toMatchObject({ unit: "teaspoon", food: "mint", note: "level" });
    expect(fields("3 fl oz rum")).toMatchObject({ quantity: 3, unit: "fluid ounce", food: "rum" });
  });

  it("puts an aside in brackets inside the food into the note", () => {
    expect(fields("1 cup (8 oz) butter, melted")).toMatchObject({
      unit: "cup",
      food: "butter",
      note: "8 oz, melted",
    });
  });

  it("finds no unit past a comma", () => {
    expect(fields("mint, leaves picked")).toEqual({
      quantity: 0,
      max: null,
      unit: "",
      food: "mint",
      note: "leaves picked",
    });
  });
});

describe("brute on words around the amount", () => {
  const pantry = createMatcher({
    units: [
      { id: "u-cup", name: "cup", pluralName: "cups" },
      { id: "u-tbsp", name: "tablespoon", pluralName: "tablespoons", abbreviation: "tbsp" },
      { id: "u-knob", name: "knob" },
    ],
    foods: [
      { id: "f-orange", name: "orange", pluralName: "oranges" },
      { id: "f-onion", name: "onion", pluralName: "onions" },
      { id: "f-pecans", name: "pecans" },
      { id: "f-butter", name: "butter" },
      { id: "f-cream", name: "double cream", aliases: [{ name: "whipping cream" }] },
    ],
  });
  const fields = (line: string) => {
    const i = parseLine(line, pantry).ingredient;
    return { quantity: i.quantity, unit: i.unit?.name ?? "", food: i.food?.name ?? "", note: i.note };
  };

  it("reads the fruit a juice or zest comes from, and the amount before it", () => {
    expect(fields("grated zest of 3 oranges")).toEqual({
      quantity: 3,
      unit: "",
      food: "orange",
      note: "grated zest",
    });
    expect(fields("juice of half an orange")).toMatchObject({ quantity: 0.5, food: "orange", note: "juice" });
  });

  it("reads 'a' as one and 'a quarter' as a quarter", () => {
    expect(fields("a generous knob of butter")).toEqual({
      quantity: 1,
      unit: "knob",
      food: "butter",
      note: "generous",
    });
    expect(fields("an onion, sliced")).toEqual({ quantity: 1, unit: "", food: "onion", note: "sliced" });
    expect(fields("a quarter cup of pecans")).toMatchObject({ quantity: 0.25, unit: "cup", food: "pecans" });
  });

  it("sets an added amount and preparations before the food aside", () => {
    expect(fields("1 cup + 3 tbsp double cream")).toEqual({
      quantity: 1,
      unit: "cup",
      food: "double cream",
      note: "+ 3 tbsp",
    });
    expect(fields("1 cup roughly chopped pecans")).toMatchObject({ food: "pecans", note: "roughly chopped" });
    expect(fields("1 cup double whipping cream")).toMatchObject({ food: "double cream", note: "" });
  });
});

describe("brute on a unit misspelt by one slip", () => {
  const pantry = createMatcher({
    units: [
      { id: "u-tbsp", name: "tablespoon", pluralName: "tablespoons", abbreviation: "tbsp" },
      { id: "u-tsp", name: "teaspoon", pluralName: "teaspoons", abbreviation: "tsp" },
      { id: "u-oz", name: "ounce", pluralName: "ounces", abbreviation: "oz" },
      { id: "u-dl", name: "Esslöffel", pluralName: "Esslöffeln" },
    ],
    foods: [
      { id: "f-sugar", name: "sugar" },
      { id: "f-salt", name: "salt" },
      { id: "f-butter", name: "butter" },
      { id: "f-tomato", name: "tomato", pluralName: "tomatoes" },
      { id: "f-onion", name: "onion", pluralName: "onions" },
      { id: "f-tamarind", name: "tamarind" },
      { id: "f-cupcake", name: "cupcake", pluralName: "cupcakes" },
      { id: "f-scallion", name: "scallion", aliases: [{ name: "spring onions" }] },
      { id: "f-filet", name: "filet mignon" },
      { id: "f-pinto", name: "pinto beans" },
    ],
  });
  const fields = (line: string) => {
    const i = parseLine(line, pantry).ingredient;
    return { quantity: i.quantity, unit: i.unit?.name ?? "", food: i.food?.name ?? "", note: i.note };
  };

  it("reads the unit meant by a letter left out, one too many, or two swapped", () => {
    expect(fields("2 tablspoons sugar")).toEqual({
      quantity: 2,
      unit: "tablespoon",
      food: "sugar",
      note: "",
    });
    expect(fields("1 teaspon salt")).toEqual({ quantity: 1, unit: "teaspoon", food: "salt", note: "" });
    expect(fields("3 ouncs butter")).toEqual({ quantity: 3, unit: "ounce", food: "butter", note: "" });
    expect(fields("1 teaspooon salt")).toMatchObject({ unit: "teaspoon", food: "salt" });
    expect(fields("2 tablepsoons sugar")).toMatchObject({ unit: "tablespoon", food: "sugar" });
    // The group's own unit, in its own language.
    expect(fields("2 Eslöffel sugar")).toMatchObject({ unit: "Esslöffel", food: "sugar" });
  });

  it("reads a misspelt unit the group does not have as the built-in unit", () => {
    expect(fields("2 kilgrams sugar")).toEqual({ quantity: 2, unit: "kilogram", food: "sugar", note: "" });
  });

  it("never takes a food, or a food's first word, for a unit", () => {
    expect(fields("2 tomatoes")).toEqual({ quantity: 2, unit: "", food: "tomato", note: "" });
    expect(fields("1 tamarind")).toEqual({ quantity: 1, unit: "", food: "tamarind", note: "" });
    expect(fields("3 onions")).toEqual({ quantity: 3, unit: "", food: "onion", note: "" });
    expect(fields("2 ounces butter")).toEqual({ quantity: 2, unit: "ounce", food: "butter", note: "" });
    expect(fields("1 cupcake")).toEqual({ quantity: 1, unit: "", food: "cupcake", note: "" });
    expect(fields("4 spring onions")).toEqual({ quantity: 4, unit: "", food: "scallion", note: "" });
    expect(fields("2 filet mignon")).toEqual({ quantity: 2, unit: "", food: "filet mignon", note: "" });
    expect(fields("1 cup pinto beans")).toMatchObject({ food: "pinto beans" });
    expect(fields("2 pinto beans")).toMatchObject({ unit: "", food: "pinto beans" });
  });

  it("never reads another word of a unit's stem as a slip: a letter more, less or other at its end", () => {
    for (const line of ["2 sliced tomatoes", "3 packaged tomatoes", "2 bottled tomatoes", "1 halved onion"])
      expect(fields(line).unit).toBe("");
  });
});

describe("brute on lines as British, American and web recipes write them (decision 0251)", () => {
  const pantry = createMatcher({
    units: [
      { id: "u-cup", name: "cup", pluralName: "cups" },
      { id: "u-g", name: "gram", abbreviation: "g" },
      { id: "u-ml", name: "milliliter", abbreviation: "ml" },
      { id: "u-oz", name: "ounce", abbreviation: "oz" },
      { id: "u-can", name: "can", pluralName: "cans", aliases: [{ name: "tin" }] },
      { id: "u-tsp", name: "teaspoon", pluralName: "teaspoons", abbreviation: "tsp" },
      { id: "u-tbsp", name: "tablespoon", pluralName: "tablespoons", abbreviation: "tbsp" },
      { id: "u-clove", name: "clove", pluralName: "cloves" },
      { id: "u-stick", name: "stick", pluralName: "sticks" },
      { id: "u-bunch", name: "bunch", pluralName: "bunches" },
      { id: "u-pinch", name: "pinch", pluralName: "pinches" },
    ],
    foods: [
      { id: "f-coconut", name: "coconut milk" },
      { id: "f-tomatoes", name: "diced tomatoes" },
      { id: "f-chicken", name: "chicken breast", pluralName: "chicken breasts" },
      { id: "f-butter", name: "butter" },
      { id: "f-water", name: "water" },
      { id: "f-salt", name: "salt" },
      { id: "f-basil", name: "basil" },
      { id: "f-garlic", name: "garlic", aliases: [{ name: "garlic cloves" }] },
      { id: "f-cinnamon", name: "ground cinnamon", aliases: [{ name: "cinnamon" }] },
      { id: "f-stick", name: "cinnamon stick", pluralName: "cinnamon sticks" },
      { id: "f-onion", name: "onion", pluralName: "onions" },
      { id: "f-lime", name: "lime", pluralName: "limes" },
      { id: "f-chocolate", name: "dark chocolate" },
    ],
  });
  const fields = (line: string) => {
    const i = parseLine(line, pantry).ingredient;
    return {
      quantity: i.quantity,
      max: i.quantityMax ?? null,
      unit: i.unit?.name ?? "",
      food: i.food?.name ?? "",
      note: i.note,
    };
  };

  it("counts one pack of the size written before it, and packs before their size", () => {
    expect(fields("400g tin coconut milk")).toEqual({
      quantity: 1,
      max: null,
      unit: "can",
      food: "coconut milk",
      note: "400 g",
    });
    expect(fields("2 14.5 oz cans diced tomatoes")).toMatchObject({
      quantity: 2,
      unit: "can",
      note: "14.5 oz",
    });
  });

  it("reads an amount glued to its unit at a range's top, and an equivalent after a spaced slash", () => {
    expect(fields("100-150ml water")).toMatchObject({
      quantity: 100,
      max: 150,
      unit: "milliliter",
      food: "water",
    });
    expect(fields("200 g / 7 oz dark chocolate, chopped")).toMatchObject({
      quantity: 200,
      unit: "gram",
      food: "dark chocolate",
      note: "chopped",
    });
  });

  it("reads cookbook shorthand 'T' and 't' as tablespoon and teaspoon", () => {
    expect(fields("1 T butter")).toMatchObject({ quantity: 1, unit: "tablespoon", food: "butter" });
    expect(fields("2 t. salt")).toMatchObject({ quantity: 2, unit: "teaspoon", food: "salt" });
  });

  it("keeps describing words listed with a comma in front of the food", () => {
    expect(fields("1 lb. boneless, skinless chicken breasts")).toMatchObject({
      food: "chicken breast",
      note: "boneless, skinless",
    });
    // After the food, the comma ends it.
    expect(fields("18 onions whole, peeled")).toMatchObject({ food: "onions whole", note: "peeled" });
  });

  it("ends the food at a comma before a trailing bracket too", () => {
    expect(fields("1 large onion, diced (about 2 cups)")).toMatchObject({
      food: "onion",
      note: "large, diced, about 2 cups",
    });
  });

  it("counts one of a unit the line opens with before 'of', its size in the note", () => {
    expect(fields("large bunch of basil, about 50 leaves")).toMatchObject({
      quantity: 1,
      unit: "bunch",
      food: "basil",
      note: "large, about 50 leaves",
    });
    expect(fields("Pinch of salt")).toMatchObject({ quantity: 1, unit: "pinch", food: "salt" });
  });

  it("takes the amount after a comma when the line opens with none", () => {
    expect(fields("a little salt, about 1/2 tsp")).toEqual({
      quantity: 0.5,
      max: null,
      unit: "teaspoon",
      food: "salt",
      note: "a little",
    });
    // An amount with more words is no amount of the line's.
    expect(fields("salt, about 1/2 tsp per litre").quantity).toBe(0);
  });

  it("reads the amount after 'about' at the line's start", () => {
    expect(fields("About 2 cups water")).toMatchObject({
      quantity: 2,
      unit: "cup",
      food: "water",
      note: "About",
    });
  });

  it("puts 'to taste' written without a comma into the note", () => {
    expect(fields("Salt to taste")).toMatchObject({ food: "salt", note: "to taste" });
  });

  it("reads a unit written after the food it counts, but not a food named by both words", () => {
    expect(fields("2 garlic cloves, crushed")).toMatchObject({
      quantity: 2,
      unit: "clove",
      food: "garlic",
      note: "crushed",
    });
    expect(fields("1 cinnamon stick")).toMatchObject({ quantity: 1, unit: "", food: "cinnamon stick" });
  });

  it("reads a recipe card's size abbreviations as sizes: 'lg', 'med', 'sm'", () => {
    expect(fields("1 lg onion, diced")).toMatchObject({ quantity: 1, food: "onion", note: "lg, diced" });
  });

  it("sets a heading before the line apart for the note: 'Optional:', 'To serve:'", () => {
    expect(fields("Optional: 1 tsp salt")).toMatchObject({
      quantity: 1,
      unit: "teaspoon",
      food: "salt",
      note: "Optional",
    });
  });

  it("reads a unit after the food without an amount, and the fruit after 'Juice' without 'of'", () => {
    expect(fields("a few garlic cloves")).toMatchObject({
      quantity: 0,
      unit: "clove",
      food: "garlic",
      note: "a few",
    });
    expect(fields("Juice 1 lime")).toMatchObject({ quantity: 1, food: "lime", note: "Juice" });
  });

  it("reads the fruit a juice comes from after a fraction character, and drops trailing punctuation", () => {
    expect(fields("juice of ½ lime")).toMatchObject({ quantity: 0.5, food: "lime", note: "juice" });
    expect(fields("1 onion, chopped;")).toMatchObject({ quantity: 1, food: "onion", note: "chopped" });
  });
});
