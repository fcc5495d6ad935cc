import { describe, expect, it } from "vitest";
import type { DocIngredient } from "../doc.js";
import { canonicalIngredientLine, formatIngredientLine, parseIngredientLine } from "./ingredient-line.js";
import { compileVocabulary } from "./vocabulary.js";
import { VOCAB } from "./test-support.js";

function ing(o: Partial<DocIngredient>): DocIngredient {
  return {
    title: null,
    quantity: null,
    quantityMax: null,
    unit: null,
    food: null,
    note: "",
    originalText: null,
    referencedRecipe: null,
    referencedRecipeName: null,
    ...o,
  };
}

const parse = (line: string): DocIngredient => parseIngredientLine(line, VOCAB);

describe("parseIngredientLine reads the documented grammar", () => {
  it("reads '2 cups flour'", () => {
    expect(parse("2 cups flour")).toEqual(ing({ quantity: 2, unit: "cup", food: "flour" }));
  });
  it("reads '1 1/2 tbsp olive oil, divided' with the note after the comma", () => {
    expect(parse("1 1/2 tbsp olive oil, divided")).toEqual(
      ing({ quantity: 1.5, unit: "tablespoon", food: "olive oil", note: "divided" }),
    );
  });
  it("reads '½ onion' and keeps the unicode spelling as original text", () => {
    expect(parse("½ onion")).toEqual(ing({ quantity: 0.5, food: "onion", originalText: "½ onion" }));
  });
  it("reads the range '2-3 cloves garlic' as lower bound plus maximum", () => {
    expect(parse("2-3 cloves garlic")).toEqual(
      ing({ quantity: 2, quantityMax: 3, unit: "clove", food: "garlic" }),
    );
  });
  it("reads 'a pinch of salt' as one pinch and keeps the wording", () => {
    expect(parse("a pinch of salt")).toEqual(
      ing({ quantity: 1, unit: "pinch", food: "salt", originalText: "a pinch of salt" }),
    );
  });
  it("keeps 'Salt and pepper to taste' as a note, exactly", () => {
    expect(parse("Salt and pepper to taste")).toEqual(ing({ note: "Salt and pepper to taste" }));
  });
  it("matches names in any case, plural, abbreviation and alias, longest first", () => {
    expect(parse("3 Tablespoons EVOO")).toMatchObject({
      quantity: 3,
      unit: "tablespoon",
      food: "olive oil",
      note: "",
    });
    expect(parse("2 c. flour")).toMatchObject({ quantity: 2, unit: "cup", food: "flour" });
    expect(parse("100g flour")).toMatchObject({ quantity: 100, unit: "gram", food: "flour" });
    expect(parse("4 chicken thighs, skin on")).toMatchObject({
      quantity: 4,
      food: "chicken thigh",
      note: "skin on",
    });
    expect(parse("2 cups of flour")).toMatchObject({ quantity: 2, unit: "cup", food: "flour", note: "" });
  });
  it("keeps what follows an unknown food as the note", () => {
    expect(parse("2 cups all-purpose flour")).toMatchObject({
      quantity: 2,
      unit: "cup",
      food: null,
      note: "all-purpose flour",
    });
    expect(parse("2 large eggs")).toMatchObject({ quantity: 2, unit: null, food: null, note: "large eggs" });
  });
  it("reads a food alone, or with a note after a comma, as structured", () => {
    expect(parse("Salt")).toMatchObject({ food: "salt", quantity: null });
    expect(parse("salt, to taste")).toMatchObject({ food: "salt", note: "to taste" });
  });
  it("reads a sub-recipe link", () => {
    expect(parse("1 batch [Naan dough](naan-dough.md)")).toEqual(
      ing({ quantity: 1, unit: "batch", referencedRecipe: "naan-dough", referencedRecipeName: "Naan dough" }),
    );
  });
  it("reads the original text from a trailing comment", () => {
    expect(parse("2 eggs, beaten <!-- original: 2 large eggs, beaten -->")).toEqual(
      ing({ quantity: 2, food: "egg", note: "beaten", originalText: "2 large eggs, beaten" }),
    );
  });
  it("does not take a numbered-list marker or '3/4-inch' for a quantity", () => {
    expect(parse("1. Preheat the oven")).toEqual(ing({ note: "1. Preheat the oven" }));
    expect(parse("3/4-inch piece of ginger")).toEqual(ing({ note: "3/4-inch piece of ginger" }));
  });
});

describe("formatIngredientLine writes the canonical form", () => {
  it("writes structured ingredients as quantity, unit, food, note", () => {
    expect(formatIngredientLine(ing({ quantity: 2, unit: "cup", food: "flour" }), VOCAB)).toBe(
      "2 cups flour",
    );
    expect(formatIngredientLine(ing({ quantity: 0.5, unit: "cup", food: "flour" }), VOCAB)).toBe(
      "1/2 cup flour",
    );
    expect(formatIngredientLine(ing({ quantity: 2.5, unit: "gram", food: "salt" }), VOCAB)).toBe(
      "2.5 g salt",
    );
    expect(
      formatIngredientLine(ing({ quantity: 2, quantityMax: 3, unit: "clove", food: "garlic" }), VOCAB),
    ).toBe("2-3 cloves garlic");
    expect(formatIngredientLine(ing({ quantity: 2, food: "onion", note: "sliced" }), VOCAB)).toBe(
      "2 onions, sliced",
    );
  });
  it("escapes a note-only ingredient that would read as structured", () => {
    const neighbour = ing({ note: "2 eggs from the neighbour" });
    expect(formatIngredientLine(neighbour, VOCAB)).toBe("\\2 eggs from the neighbour");
    expect(parse("\\2 eggs from the neighbour")).toEqual(neighbour);
  });
  it("leaves a backslash a person typed alone when it escapes nothing", () => {
    expect(parse("\\o/ party mix")).toEqual(ing({ note: "\\o/ party mix" }));
    expect(formatIngredientLine(ing({ note: "\\o/ party mix" }), VOCAB)).toBe("\\o/ party mix");
    expect(parse("\\\\2 eggs")).toEqual(ing({ note: "\\2 eggs" }));
  });
  it("puts a comma before a note that would read as a unit or food", () => {
    const line = formatIngredientLine(ing({ quantity: 2, note: "cups of love" }), VOCAB);
    expect(line).toBe("2, cups of love");
    expect(parse(line)).toEqual(ing({ quantity: 2, note: "cups of love" }));
    const noFood = ing({ quantity: 1, unit: "cup", note: "flour mix" });
    expect(parse(formatIngredientLine(noFood, VOCAB))).toEqual(noFood);
  });
  it("writes an original text that reads back as the line, any other in a comment", () => {
    const typed = ing({ quantity: 2, unit: "cup", food: "flour", originalText: "2 Cups Flour" });
    expect(formatIngredientLine(typed, VOCAB)).toBe("2 Cups Flour");
    const scraped = ing({ quantity: 2, food: "egg", note: "beaten", originalText: "2 large eggs, beaten" });
    expect(formatIngredientLine(scraped, VOCAB)).toBe(
      "2 eggs, beaten <!-- original: 2 large eggs, beaten -->",
    );
    const hostile = ing({ note: "x", originalText: "a --> b <!-- original: c --> \\" });
    expect(parse(formatIngredientLine(hostile, VOCAB))).toEqual(hostile);
  });
  it("escapes an HTML comment opener inside a note", () => {
    const n = ing({ quantity: 1, food: "salt", note: "see <!-- original: x -->" });
    expect(parse(formatIngredientLine(n, VOCAB))).toEqual(n);
  });
  it("round-trips ranges, sub-recipes and link names with brackets", () => {
    for (const i of [
      ing({ quantity: 0.5, quantityMax: 1, unit: "cup", food: "flour" }),
      ing({
        quantity: 1,
        unit: "batch",
        referencedRecipe: "naan-dough",
        referencedRecipeName: "Naan [soft] \\ dough",
        note: "warm",
      }),
      ing({ referencedRecipe: "stock", referencedRecipeName: "Stock" }),
      ing({ quantity: 2, food: "garlic", referencedRecipe: "confit", referencedRecipeName: "Confit" }),
      ing({ unit: "cup" }),
      ing({ unit: "cup", note: "heaping" }),
      ing({ food: "onion" }),
      ing({ quantity: 3 }),
      ing({ note: "" }),
    ]) {
      expect(parse(formatIngredientLine(i, VOCAB))).toEqual(i);
    }
  });
  it("gives the canonical line without the original text", () => {
    expect(canonicalIngredientLine(ing({ quantity: 1, food: "egg", originalText: "one egg" }), VOCAB)).toBe(
      "1 egg",
    );
  });
});

describe("compileVocabulary", () => {
  it("compiles a vocabulary once per object", () => {
    expect(compileVocabulary(VOCAB)).toBe(compileVocabulary(VOCAB));
  });
  it("reads 10,000 lines quickly", () => {
    const lines = [
      "2 cups flour",
      "1 1/2 tbsp olive oil, divided",
      "Salt and pepper to taste",
      "½ onion",
      "2-3 cloves garlic",
    ];
    const t0 = performance.now();
    for (let i = 0; i < 10_000; i++) parse(lines[i % lines.length]);
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});
