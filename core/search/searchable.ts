/** The fields of a recipe the search index reads, in the order of its field bits and weights. */
import { mayHoldWord, normalizeText } from "./fold.js";

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

/**
 * Whether a field holds a phrase (normalised, as `normalizeText` gives it) within one of its items: a
 * phrase never spans two items. `probe` is one word of the phrase: an item whose folded text cannot
 * hold it is passed over without tokenising (most items of a candidate's field, since a candidate
 * only has every word of the phrase somewhere in the field).
 */
export function fieldHoldsPhrase(r: SearchableRecipe, f: number, phrase: string, probe: string): boolean {
  const holds = (item: string | null | undefined): boolean =>
    !!item && mayHoldWord(item, probe) && normalizeText(item).includes(phrase);
  const some = (l?: readonly { name: string }[]) => !!l && l.some((x) => holds(x.name));
  switch (f) {
    case 0:
      return holds(r.name);
    case 1:
      return holds(r.description);
    case 2:
      return !!r.ingredientTexts && r.ingredientTexts.some(holds);
    case 3:
      return some(r.tags);
    case 4:
      return some(r.recipeCategory);
    case 5:
      return some(r.tools);
    case 6:
      return some(r.foods);
    default:
      return false;
  }
}
