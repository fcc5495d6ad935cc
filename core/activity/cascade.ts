/**
 * How the records hanging off a recipe follow it: an API delete ends its ratings, comments and
 * timeline (ARCHITECTURE §3; a file deleted by hand leaves them as orphans that reattach if the file
 * returns), and a rating change drops the cached summaries that carry the recipe's average.
 */
import type { Parts } from "../parts.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "activity" | "ratings" | "recipes">;

export function connectRecipeRecords(larder: Deps): void {
  larder.ratings.onChange((_groupSlug, recipeIds) => larder.recipes.lister.forgetRecipes(recipeIds));
  larder.recipes.onRemoved(async ({ groupSlug, id }) => {
    // One line ends both the comments and the timeline events of the recipe.
    await larder.activity.append(groupSlug, { kind: "recipe.deleted", recipeId: id });
    await larder.ratings.removeRecipe(groupSlug, id);
  });
}
