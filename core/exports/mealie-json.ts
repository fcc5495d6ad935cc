/**
 * A recipe as Mealie's export writes it (`recipe.model_dump_json()`: field names in snake_case, no
 * aliases), so a Larder zip imports into Mealie and back. Keys inside `extras` are the user's own and
 * keep their spelling.
 */
import type { Recipe } from "../schemas/recipe.js";

/** Field names whose snake form is not the mechanical one. */
const SPECIAL: Record<string, string> = { orgURL: "org_url", updatedAt: "update_at" };
/** Objects whose keys are data, not field names. */
const VERBATIM = new Set(["extras"]);

/** camelCase → snake_case for one key. */
export function snakeKey(k: string): string {
  return (
    SPECIAL[k] ??
    k
      .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
      .replace(/([A-Z])([A-Z][a-z])/g, "$1_$2")
      .toLowerCase()
  );
}

export function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[snakeKey(k)] = VERBATIM.has(k) ? v : snakeKeys(v);
  }
  return out;
}

/** The `{slug}.json` of a Mealie export zip. */
export function mealieExportJson(recipe: Recipe): string {
  return JSON.stringify(snakeKeys(recipe));
}

/** `template_name=raw`: the wire Recipe, camelCase, indented. */
export function rawRecipeJson(recipe: Recipe): string {
  return `${JSON.stringify(recipe, null, 2)}\n`;
}
