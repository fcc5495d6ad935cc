import { describe, expect, it } from "vitest";
import { NUTRITION_KEYS, RECIPE_SETTINGS_DEFAULTS } from "../schemas/recipe.js";
import { derivedId } from "../util/ids.js";
import { emptyRecipeDoc, type RecipeDoc } from "./doc.js";
import { OWNER, RECIPE_ID, UNITS, wireContext } from "./file/test-support.js";
import { docToRecipe, recipeToDoc } from "./wire.js";

const CTX = wireContext();

describe("docToRecipe", () => {
  const doc: RecipeDoc = {
    ...emptyRecipeDoc("Tikka"),
    owner: OWNER,
    dateAdded: "2026-11-21T10:00:00Z",
    nutrition: { calories: "520" },
    settings: { public: true },
    ingredients: [
      {
        title: null,
        quantity: 2,
        quantityMax: 3,
        unit: "clove",
        food: "garlic",
        note: "",
        originalText: null,
        referencedRecipe: null,
      },
      {
        title: null,
        quantity: 1,
        quantityMax: null,
        unit: null,
        food: "salt",
        note: "",
        originalText: null,
        referencedRecipe: null,
      },
    ],
    instructions: [{ title: null, summary: null, text: "Mix.", ingredientRefs: [1, 7] }],
  };
  const wire = docToRecipe(doc, CTX);

  it("derives stable ids from recipe id, kind and position", () => {
    expect(wire.recipeIngredient.map((i) => i.referenceId)).toEqual([
      derivedId(RECIPE_ID, "ingredient", "0"),
      derivedId(RECIPE_ID, "ingredient", "1"),
    ]);
    expect(wire.recipeInstructions[0].id).toBe(derivedId(RECIPE_ID, "step", "0"));
    expect(docToRecipe(doc, CTX)).toEqual(wire);
  });
  it("points step references at derived ingredient ids and drops ones past the end", () => {
    expect(wire.recipeInstructions[0].ingredientReferences).toEqual([
      { referenceId: derivedId(RECIPE_ID, "ingredient", "1") },
    ]);
  });
  it("names each organizer once, in the order first named, however many a recipe has", () => {
    for (const count of [3, 40]) {
      const tags = Array.from({ length: count }, (_, i) => `Tag ${i}`);
      // Every other name again, and the first once more at the end.
      const named = [...tags.flatMap((t, i) => (i % 2 ? [t, t] : [t])), tags[0]];
      const sent = docToRecipe({ ...doc, tags: named, categories: ["Dinner", "Dinner", "Lunch"] }, CTX);
      expect(sent.tags.map((t) => t.name)).toEqual(tags);
      expect(sent.recipeCategory.map((c) => c.name)).toEqual(["Dinner", "Lunch"]);
    }
  });
  it("sends all nutrition keys, full settings and the date part of dateAdded", () => {
    expect(Object.keys(wire.nutrition)).toEqual([...NUTRITION_KEYS]);
    expect(wire.nutrition.calories).toBe("520");
    expect(wire.nutrition.fatContent).toBeNull();
    expect(wire.settings).toEqual({ ...RECIPE_SETTINGS_DEFAULTS, public: true });
    expect(wire.dateAdded).toBe("2026-11-21");
    expect(wire.createdAt).toBe(CTX.createdAt);
  });
  it("derives isFood and disableAmount from the recipe setting", () => {
    expect(wire.recipeIngredient[0]).toMatchObject({
      isFood: true,
      disableAmount: false,
      display: "2-3 cloves garlic",
    });
    const off = docToRecipe({ ...doc, settings: { disableAmount: true } }, CTX);
    expect(off.recipeIngredient[1]).toMatchObject({ isFood: false, disableAmount: true, display: "" });
  });
  it("carries a range in originalText so that a PUT of the same ingredient keeps it", () => {
    expect(wire.recipeIngredient[0]).toMatchObject({ quantity: 2, originalText: "2-3 cloves garlic" });
    expect(recipeToDoc(wire, CTX).ingredients[0]).toMatchObject({
      quantity: 2,
      quantityMax: 3,
      originalText: null,
    });
  });
  it("keeps a name the vocabulary lacks readable in the note", () => {
    const stale = docToRecipe(
      { ...doc, ingredients: [{ ...doc.ingredients[1], food: "saffron", note: "a pinch" }] },
      CTX,
    );
    expect(stale.recipeIngredient[0]).toMatchObject({ food: null, note: "saffron, a pinch" });
  });
});

describe("recipeToDoc", () => {
  it("accepts foods and units by id or name, organizers by name or as strings", () => {
    const doc = recipeToDoc(
      {
        name: "Soup",
        recipeIngredient: [
          { quantity: "2", unit: { id: UNITS[0].id }, food: { name: "FLOUR" } },
          "a pinch of love",
          { quantity: 0, food: "salt", note: "" },
        ],
        tags: ["Quick", { name: "Cheap" }, "Quick"],
        tools: [{ id: "nope", name: "Pot" }],
      },
      CTX,
    );
    expect(doc.ingredients.map((i) => [i.quantity, i.unit, i.food, i.note])).toEqual([
      [2, "cup", "flour", ""],
      [null, null, null, "a pinch of love"],
      [null, null, "salt", ""],
    ]);
    expect(doc.tags).toEqual(["Quick", "Cheap"]);
    expect(doc.tools).toEqual(["Pot"]);
  });
  it("resolves step references against the incoming ingredients, so a reorder keeps them", () => {
    const doc = recipeToDoc(
      {
        recipeIngredient: [
          { note: "b", referenceId: "id-b" },
          { note: "a", referenceId: "id-a" },
        ],
        recipeInstructions: [
          { text: "Use a", ingredientReferences: [{ referenceId: "id-a" }, { referenceId: "gone" }] },
        ],
      },
      CTX,
    );
    expect(doc.instructions[0].ingredientRefs).toEqual([1]);
  });
  it("normalises text the way the file reads it", () => {
    const doc = recipeToDoc(
      {
        description: "  Line one   \r\n\r\n  indented\t\n\n",
        recipeYield: "",
        recipeIngredient: [{ note: "  chopped\nfine ", title: "", originalText: "chopped fine" }],
        recipeInstructions: [{ text: "Stir.  ", title: " Sauce ", summary: "" }],
        notes: [{ title: "Tip\nTwo", text: "x  \ny" }],
      },
      CTX,
    );
    expect(doc.description).toBe("Line one\n\n  indented");
    expect(doc.recipeYield).toBeNull();
    expect(doc.ingredients[0]).toMatchObject({ note: "chopped fine", title: null, originalText: null });
    expect(doc.instructions[0]).toMatchObject({ text: "Stir.", title: "Sauce", summary: null });
    expect(doc.notes[0]).toEqual({ title: "Tip Two", text: "x\ny" });
  });
  it("keeps the store's full timestamp when dateAdded comes back as the same date", () => {
    expect(recipeToDoc({ dateAdded: "2026-11-21" }, CTX).dateAdded).toBe(CTX.createdAt);
    expect(recipeToDoc({ dateAdded: "2025-01-02" }, CTX).dateAdded).toBe("2025-01-02");
  });
});
