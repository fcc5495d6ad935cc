import { describe, expect, it } from "vitest";
import type { Recipe } from "../../../core/schemas/recipe.js";
import { recipeView } from "./recipe-page.server.js";

type Ing = Recipe["recipeIngredient"][number];

function ing(over: Partial<Ing>): Ing {
  return {
    quantity: null,
    unit: null,
    food: null,
    referencedRecipe: null,
    note: null,
    display: "",
    title: null,
    originalText: null,
    referenceId: "r",
    isFood: true,
    disableAmount: false,
    ...over,
  };
}

function recipe(over: Partial<Recipe>): Recipe {
  return {
    id: "id",
    slug: "soup",
    name: "Soup",
    image: null,
    description: null,
    recipeServings: 4,
    recipeYieldQuantity: 0,
    recipeYield: null,
    totalTime: null,
    prepTime: "10 min",
    cookTime: null,
    performTime: "1 h",
    recipeCategory: [],
    tags: [],
    tools: [],
    rating: null,
    orgURL: "javascript:alert(1)",
    recipeIngredient: [],
    recipeInstructions: [],
    nutrition: { calories: "300", sodiumContent: "2", fatContent: "5 g" },
    settings: { disableAmount: false, disableComments: false, locked: false },
    notes: [],
    updatedAt: "2026-01-01T00:00:00Z",
    dateUpdated: null,
    ...over,
  } as unknown as Recipe;
}

describe("recipeView", () => {
  it("splits ingredients into scalable parts with sanitised notes, and reads ranges back", () => {
    const v = recipeView(
      recipe({
        recipeIngredient: [
          ing({
            referenceId: "a",
            quantity: 2,
            display: "2-3 cloves garlic",
            food: { name: "garlic" } as Ing["food"],
            note: '<b>minced</b> <img src=x onerror="alert(1)">',
          }),
          ing({ referenceId: "b", title: "Sauce", note: "salt", display: "salt" }),
        ],
      }),
    );
    expect(v.ingredients[0].parts).toMatchObject({ quantity: 2, quantityMax: 3, noteHtml: "<b>minced</b>" });
    expect(v.ingredients[1]).toMatchObject({ key: "b", title: "Sauce", html: "salt" });
  });

  it("keeps plain-text ingredients whole when amounts are off", () => {
    const v = recipeView(
      recipe({ recipeIngredient: [ing({ disableAmount: true, display: "2 <script>x</script>eggs" })] }),
    );
    expect(v.ingredients[0]).toMatchObject({ parts: null, html: "2 eggs" });
  });

  it("names times and nutrition with their units, and drops unsafe source links", () => {
    const v = recipeView(recipe({}));
    expect(v.times).toEqual([
      { key: "prep", value: "10 min" },
      { key: "perform", value: "1 h" },
    ]);
    expect(v.nutrition).toEqual([
      { key: "calories", value: "300" },
      { key: "fatContent", value: "5 g" },
      { key: "sodiumContent", value: "2 mg" },
    ]);
    expect(v.orgURL).toBeNull();
  });
});
