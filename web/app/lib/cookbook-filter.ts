/**
 * A cookbook's recipe filter as the builder edits it (categories, tags, tools, foods, households, each
 * with "require all"), and the Mealie query filter string it is stored as. Mealie's own cookbook
 * editor writes the same attribute names, so a cookbook made here reads the same in a Mealie client.
 * Pure: the editor runs it in the browser as the person picks.
 */

export const BUILDER_KEYS = ["categories", "tags", "tools", "foods", "households"] as const;
export type BuilderKey = (typeof BUILDER_KEYS)[number];

export interface BuilderRule {
  ids: string[];
  requireAll: boolean;
}
export type BuilderState = Record<BuilderKey, BuilderRule>;

/** The filter attribute of each builder row (Mealie's names, which core reads). */
export const ATTRIBUTE: Record<BuilderKey, string> = {
  categories: "recipe_category.id",
  tags: "tags.id",
  tools: "tools.id",
  foods: "recipe_ingredient.food.id",
  households: "household_id",
};

/** Other spellings of the same attributes a filter written elsewhere may use. */
const ALIASES: Record<string, BuilderKey> = {
  "recipe_category.id": "categories",
  "recipecategory.id": "categories",
  "categories.id": "categories",
  "tags.id": "tags",
  "tools.id": "tools",
  "recipe_ingredient.food.id": "foods",
  "recipeingredient.food.id": "foods",
  "foods.id": "foods",
  household_id: "households",
  householdid: "households",
  "household.id": "households",
};

export function emptyBuilder(): BuilderState {
  const rule = (): BuilderRule => ({ ids: [], requireAll: false });
  return { categories: rule(), tags: rule(), tools: rule(), foods: rule(), households: rule() };
}

const quote = (s: string) => `"${s.replace(/["\\]/g, "")}"`;

/** The query filter string: one `AND`ed condition per row that has picks; "" selects every recipe. */
export function builderToFilter(state: BuilderState): string {
  const parts: string[] = [];
  for (const key of BUILDER_KEYS) {
    const rule = state[key];
    if (!rule.ids.length) continue;
    // A recipe has one household: "all of several households" would select nothing, so it is "any".
    const op = rule.requireAll && key !== "households" ? "CONTAINS ALL" : "IN";
    parts.push(`${ATTRIBUTE[key]} ${op} [${rule.ids.map(quote).join(", ")}]`);
  }
  return parts.join(" AND ");
}

/** The stored parts of a filter (core's `queryFilter.parts`). */
export interface FilterPart {
  leftParenthesis?: string | null;
  rightParenthesis?: string | null;
  logicalOperator?: string | null;
  attributeName: string;
  relationalOperator: string;
  value: string | string[];
}

/**
 * The builder's reading of a stored filter, or null when the filter says more than the builder can
 * show (an OR, parentheses, another attribute or operator): such a filter is kept as it is, never
 * rewritten behind the person's back.
 */
export function filterToBuilder(parts: readonly FilterPart[]): BuilderState | null {
  const state = emptyBuilder();
  for (const p of parts) {
    if (p.leftParenthesis || p.rightParenthesis) return null;
    if (p.logicalOperator && p.logicalOperator.toUpperCase() !== "AND") return null;
    const key = ALIASES[p.attributeName.toLowerCase()];
    if (!key || state[key].ids.length) return null;
    const op = p.relationalOperator.toUpperCase();
    if (op !== "IN" && op !== "CONTAINS ALL" && op !== "=") return null;
    const ids = (Array.isArray(p.value) ? p.value : [p.value]).map(String).filter(Boolean);
    state[key] = { ids, requireAll: op === "CONTAINS ALL" };
  }
  return state;
}

/** Spec §9: a new cookbook is named from the household's name plus an index, after the last one. */
export function newCookbookName(existing: readonly string[], nameFor: (index: number) => string): string {
  const taken = new Set(existing.map((n) => n.trim().toLowerCase()));
  for (let i = existing.length + 1; ; i++) {
    const name = nameFor(i);
    if (!taken.has(name.trim().toLowerCase())) return name;
  }
}

/** Positions after a move: 1, 2, 3… in the new order (spec §9: position = count + 1 for a new one). */
export function reorder<T extends { id: string }>(items: readonly T[], from: number, to: number): T[] {
  const out = [...items];
  if (from < 0 || from >= out.length || to < 0 || to >= out.length) return out;
  const [it] = out.splice(from, 1);
  out.splice(to, 0, it);
  return out;
}
