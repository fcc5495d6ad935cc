/**
 * The nlp parser's fields checked against the vocabulary (decision 0228): describing words, sizes,
 * alternatives, articles and number words the model leaves in the wrong field. Each line is read with
 * the en-US seed vocabulary, aliases included, as a new group has it.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createMatcher } from "../../../core/parsers/matcher.js";
import { parseLine as bruteLine } from "../brute/brute.js";
import { parseLine } from "./parse.js";

const seed = (file: string) =>
  (
    JSON.parse(
      readFileSync(new URL(`../../../templates/seed/en-US/${file}`, import.meta.url), "utf8"),
    ) as Array<{ aliases?: string[] }>
  ).map((x, i) => ({
    ...x,
    id: `${file}-${i}`,
    aliases: (x.aliases ?? []).map((name) => ({ name })),
  })) as never[];
const match = createMatcher({ units: seed("units.json"), foods: seed("foods.json") });
const fields = (line: string) => {
  const { ingredient: i } = parseLine(line, match);
  return {
    quantity: i.quantity,
    unit: i.unit?.name ?? null,
    food: i.food?.name ?? null,
    known: i.food?.id !== undefined,
    note: i.note,
  };
};
const bruteFields = (line: string) => {
  const { ingredient: i } = bruteLine(line, match);
  return { food: i.food?.name ?? null, note: i.note };
};

describe("nlp parser: fields checked against the vocabulary", () => {
  it("takes the food a describing word hides, and keeps the word in the note", () => {
    expect(fields("3 skinless chicken breasts")).toMatchObject({
      quantity: 3,
      food: "chicken breast",
      known: true,
      note: "skinless",
    });
    expect(fields("1 cup chilled heavy cream")).toMatchObject({
      unit: "cup",
      food: "heavy cream",
      note: "chilled",
    });
    // A potato's texture, as British recipes name it.
    expect(fields("1kg floury potatoes")).toMatchObject({ food: "potato", known: true, note: "floury" });
    // Two named words need no describing word in front: a brand.
    expect(fields("1 tsp Morton kosher salt")).toMatchObject({ food: "salt", known: true, note: "Morton" });
  });

  it("leaves a food it does not know whole, rather than taking a food named by its last word", () => {
    // "hemp" is no describing word: hemp milk is not milk.
    expect(fields("1 cup hemp milk")).toMatchObject({ food: "hemp milk", known: false, note: "" });
    // Words that join two foods are never dropped.
    expect(fields("salt and black pepper")).toMatchObject({ food: "salt and black pepper", known: false });
  });

  it("an exact name of the whole food wins over any part of it", () => {
    expect(fields("2 cups sweet potato, cubed")).toMatchObject({ food: "sweet potato", note: "cubed" });
  });

  it("takes a size or an amount word in front of the unit out of the unit", () => {
    expect(fields("1 generous tablespoon honey")).toMatchObject({
      quantity: 1,
      unit: "tablespoon",
      food: "honey",
      note: "generous",
    });
    expect(fields("2 large handfuls rocket")).toMatchObject({
      unit: "handful",
      food: "arugula",
      note: "large",
    });
    expect(fields("a quarter cup of milk")).toMatchObject({ quantity: 0.25, unit: "cup" });
  });

  it("reads an article before a unit or the food as one, but not 'a few' or an unknown measure", () => {
    expect(fields("a jar of capers")).toMatchObject({ quantity: 1, unit: "jar" });
    expect(fields("an egg")).toMatchObject({ quantity: 1, food: "egg" });
    expect(fields("A pinch of salt")).toMatchObject({ quantity: 1, unit: "pinch", food: "salt", note: "" });
    expect(fields("a few sprigs thyme")).toMatchObject({ quantity: 0, unit: "sprig", food: "thyme" });
    expect(fields("a glug of olive oil").quantity).toBe(0);
  });

  it("reads a number word the model took for the food", () => {
    expect(fields("six large eggs")).toMatchObject({ quantity: 6, food: "egg", note: "large" });
  });

  it("takes the first of two alternatives and keeps the other in the note", () => {
    expect(fields("2 tablespoons lemon juice or white wine vinegar")).toMatchObject({
      food: "lemon juice",
      known: true,
      note: "or white wine vinegar",
    });
    expect(fields("1/4 cup honey (or agave syrup)")).toMatchObject({ food: "honey", note: "or agave syrup" });
    // "sunflower or vegetable oil": sunflower oil, which the vocabulary knows by an alias.
    expect(fields("3 tbsp sunflower or vegetable oil")).toMatchObject({
      known: true,
      note: "or vegetable oil",
    });
    // Two foods: the first alone, though "honey syrup" is no food.
    expect(fields("2 tsp honey or maple syrup, warmed")).toMatchObject({
      food: "honey",
      known: true,
      note: "or maple syrup, warmed",
    });
    expect(bruteFields("2 tsp honey or maple syrup")).toMatchObject({
      food: "honey",
      note: "or maple syrup",
    });
    // "or" the model left at the food's end belongs to the other, in the note.
    expect(fields("1 tsp dried sage or a small bunch of fresh sage")).toMatchObject({
      food: "sage",
      known: true,
      note: "dried, or a small bunch of fresh sage",
    });
    // A lone first word may be a kind of what follows: no match rather than an orange.
    expect(fields("1 orange or red bell pepper")).toMatchObject({
      food: "orange or red bell pepper",
      known: false,
    });
  });

  it("keeps a pack's size written after the pack", () => {
    expect(fields("2 bags (10 oz each) frozen peas")).toMatchObject({
      quantity: 2,
      unit: "bag",
      note: "10 oz, each",
    });
    expect(fields("1 carton (32 oz) chicken broth")).toMatchObject({ unit: "carton", note: "32 oz" });
    expect(fields("a 14-ounce can of chickpeas")).toMatchObject({
      quantity: 1,
      unit: "can",
      note: "14 ounce",
    });
  });

  it("keeps an amount in brackets after the food as an aside, and a count there as the amount", () => {
    expect(fields("pepper, to taste (about 1/2 tsp)")).toMatchObject({ quantity: 0, unit: null });
    expect(fields("pepper, to taste (about 1/2 tsp)").note).toContain("1/2 tsp");
    expect(fields("Cloves (about 6)")).toMatchObject({ quantity: 6 });
  });

  it("reads '.25 cup' and '2-1/4 cups' as the amounts they are, and '2-3' still as a range", () => {
    expect(fields(".25 cup milk")).toMatchObject({ quantity: 0.25, unit: "cup" });
    expect(fields("2-1/4 cups flour").quantity).toBe(2.25);
    const range = parseLine("2-3 cups flour", match).ingredient;
    expect([range.quantity, range.quantityMax]).toEqual([2, 3]);
  });

  it("joins a preparation word to the food where the two name a food", () => {
    expect(fields("1 tsp crushed red pepper")).toMatchObject({ food: "red pepper flakes", note: "" });
  });
});

describe("nlp parser: an amount given besides the line's own, after a comma", () => {
  it("keeps the amount the line opens with, and the other in the note", () => {
    expect(fields("a good pinch of salt, about 1/4 tsp")).toEqual({
      quantity: 1,
      unit: "pinch",
      food: "salt",
      known: true,
      note: "good, about 1/4 tsp",
    });
    expect(fields("a knob of butter, about 2 tbsp")).toMatchObject({
      quantity: 1,
      food: "butter",
      note: "about 2 tbsp",
    });
    expect(fields("a handful of parsley, approximately 1/2 cup")).toMatchObject({
      quantity: 1,
      food: "parsley",
      note: "approximately 1/2 cup",
    });
    expect(fields("1 onion, about 200 g, finely chopped")).toEqual({
      quantity: 1,
      unit: null,
      food: "onion",
      known: true,
      note: "about 200 g, finely chopped",
    });
    expect(fields("4 shallots, or 1 small onion")).toMatchObject({
      quantity: 4,
      unit: null,
      food: "shallot",
      note: "or 1 small onion",
    });
    expect(fields("2 cups flour, about 250 g")).toMatchObject({
      quantity: 2,
      unit: "cup",
      food: "all-purpose flour",
      note: "about 250 g",
    });
    expect(fields("2 cloves garlic, approx. 10 g")).toMatchObject({
      quantity: 2,
      unit: "clove",
      note: "approx. 10 g",
    });
    expect(fields("1 tbsp butter, or 2 tbsp olive oil")).toMatchObject({
      quantity: 1,
      unit: "tablespoon",
      food: "butter",
      note: "or 2 tbsp olive oil",
    });
  });

  it("counts an article before a size and the food as one", () => {
    expect(fields("a large onion, about 200g")).toEqual({
      quantity: 1,
      unit: null,
      food: "onion",
      known: true,
      note: "large, about 200 g",
    });
    expect(fields("a small red onion")).toMatchObject({ quantity: 1, food: "red onion", note: "small" });
  });

  it("ends the other amount's words before a part that names the food", () => {
    expect(fields("250g/9oz fresh, or 200g/7oz dried, ribbon pasta")).toMatchObject({
      quantity: 250,
      unit: "gram",
      food: "fresh ribbon pasta",
      note: "or 200 g / 7 oz dried",
    });
  });

  it("takes the amount after the comma when the line gives none, or names no food, before it", () => {
    expect(fields("salt, about 1 tsp")).toMatchObject({ quantity: 1, unit: "teaspoon", food: "salt" });
    expect(fields("6 sheets, about 75g/3oz lasagne")).toMatchObject({ quantity: 6, unit: "sheet" });
  });

  it("leaves no 'about' in the note once the amount it announced is the line's", () => {
    expect(fields("a little salt, about 1/2 tsp")).toMatchObject({
      quantity: 0.5,
      unit: "teaspoon",
      food: "salt",
      note: "a little",
    });
    // "roughly" and "approximately" also follow what they qualify.
    expect(fields("2 tbsp ginger, peeled and chopped roughly").note).toBe("peeled and chopped roughly");
  });

  it("counts one of a unit the line opens with after a size: 'large bunch of basil'", () => {
    expect(fields("large bunch of basil, about 50 leaves")).toMatchObject({
      quantity: 1,
      unit: "bunch",
      food: "basil",
      note: "large, about 50 leaves",
    });
    expect(fields("Generous pinch of salt")).toMatchObject({ quantity: 1, unit: "pinch", food: "salt" });
  });

  it("reads a comma inside brackets as no alternative: a pack's size", () => {
    expect(fields("1 can (15 ounces, or 425 g) black beans")).toMatchObject({
      quantity: 1,
      unit: "can",
      food: "black bean",
    });
  });
});

describe("nlp parser: packs counted, then their size and its equivalent", () => {
  it("takes the pack after the equivalent for the unit: '1 x 400g/14oz can'", () => {
    expect(fields("1 x 400g/14oz can chopped tomatoes")).toMatchObject({
      quantity: 1,
      unit: "can",
      food: "diced tomatoes",
      note: "400 g",
    });
    expect(fields("2 x 400g/14oz tins chickpeas, drained")).toMatchObject({
      quantity: 2,
      unit: "can",
      food: "chickpea",
      note: "400 g, drained",
    });
    // A pack the model did not take for a unit.
    expect(fields("2 x 390g cartons chopped tomatoes")).toMatchObject({
      quantity: 2,
      unit: "carton",
      food: "diced tomatoes",
      note: "390 g",
    });
  });
});

describe("brute parser: a list's bullet in front of the line", () => {
  it("keeps the amount after a dash, a bullet or a checkbox", () => {
    for (const line of ["- 2 cups flour", "• 2 cups flour", "▢ 2 cups flour", "[ ] 2 cups flour"]) {
      const { ingredient: i } = bruteLine(line, match);
      expect([i.quantity, i.unit?.name, i.food?.name], line).toEqual([2, "cup", "all-purpose flour"]);
    }
  });
});
