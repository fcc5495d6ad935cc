/**
 * A migrated recipe fitted to the limits every recipe has (RECIPE_LIMITS): a text or a list longer than
 * a recipe may hold is cut to the limit and the report says so on its line. The other app set no such
 * limit, and a recipe whose description was pasted from a whole page is still a recipe worth keeping;
 * refused whole it would be lost for the sake of its tail.
 */
import { RECIPE_LIMITS } from "../schemas/recipe.js";

type Loose = Record<string, unknown>;

const thousands = (n: number) => n.toLocaleString("en-US");

/** The recipe within the limits (a copy where it had to change) and what was cut, in words. */
export function fitToLimits(recipe: Loose): { recipe: Loose; cut: string[] } {
  const out: Loose = { ...recipe };
  const cut: string[] = [];
  const max = RECIPE_LIMITS.text;
  if (typeof out.description === "string" && out.description.length > max) {
    out.description = out.description.slice(0, max);
    cut.push(`its description was cut to ${thousands(max)} characters`);
  }
  const list = (key: string, limit: number, what: string, textKey: string | null) => {
    let items = out[key];
    if (!Array.isArray(items)) return;
    if (items.length > limit) {
      cut.push(`only its first ${thousands(limit)} ${what} of ${thousands(items.length)} were kept`);
      items = items.slice(0, limit);
    }
    if (textKey) {
      let long = 0;
      items = (items as unknown[]).map((item) => {
        const text = item && typeof item === "object" ? (item as Loose)[textKey] : undefined;
        if (typeof text !== "string" || text.length <= max) return item;
        long++;
        return { ...(item as Loose), [textKey]: text.slice(0, max) };
      });
      if (long)
        cut.push(`${long} of its ${what} ${long === 1 ? "was" : "were"} cut to ${thousands(max)} characters`);
    }
    out[key] = items;
  };
  list("recipeIngredient", RECIPE_LIMITS.ingredients, "ingredients", "note");
  list("recipeInstructions", RECIPE_LIMITS.steps, "steps", "text");
  list("notes", RECIPE_LIMITS.notes, "notes", "text");
  list("tags", RECIPE_LIMITS.organizers, "tags", null);
  list("recipeCategory", RECIPE_LIMITS.organizers, "categories", null);
  list("tools", RECIPE_LIMITS.organizers, "tools", null);
  return { recipe: cut.length ? out : recipe, cut };
}
