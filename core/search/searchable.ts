/** The fields of a recipe the search index reads, in the order of its field bits and weights. */
import { tokenize } from "./fold.js";

/** What the index reads from a recipe; `RecipeIndexEntry` satisfies it. */
export interface SearchableRecipe {
  id: string;
  name: string | null;
  description?: string | null;
  ingredientTexts?: readonly string[];
  tags?: readonly { name: string }[];
  recipeCategory?: readonly { name: string }[];
  tools?: readonly { name: string }[];
  foods?: readonly { name: string }[];
}

/** Name, description, ingredients, tags, categories, tools, foods: each a list of texts. */
export function fieldTexts(r: SearchableRecipe): (string | null | undefined)[][] {
  const names = (l?: readonly { name: string }[]) => (l ?? []).map((x) => x.name);
  return [
    [r.name],
    [r.description],
    [...(r.ingredientTexts ?? [])],
    names(r.tags),
    names(r.recipeCategory),
    names(r.tools),
    names(r.foods),
  ];
}

/** One field's normalised text; list items joined by " | " so a phrase cannot span two items. */
export function normalizedField(r: SearchableRecipe, f: number): string {
  return fieldTexts(r)
    [f].map((item) => tokenize(item).join(" "))
    .filter((t) => t !== "")
    .join(" | ");
}
