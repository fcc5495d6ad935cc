/**
 * A cookbook's recipe filter as the editor's pickers show it (categories, tags, tools, foods, households,
 * each with "require all"). The filter itself is read and written by lib/rule-filter.ts, the meal-plan
 * rule builder's module, so both screens write the same strings (Mealie's attribute names, so a cookbook
 * made here reads the same in a Mealie client) and read the same ones back.
 * Pure: the editor runs it in the browser as the person picks.
 */
import { buildFilter, readFilter, type Condition, type OrganizerField } from "./rule-filter.js";

export const BUILDER_KEYS = [
  "categories",
  "tags",
  "tools",
  "foods",
  "households",
] as const satisfies readonly OrganizerField[];
export type BuilderKey = (typeof BUILDER_KEYS)[number];

export interface BuilderRule {
  ids: string[];
  requireAll: boolean;
}
export type BuilderState = Record<BuilderKey, BuilderRule>;

export function emptyBuilder(): BuilderState {
  const rule = (): BuilderRule => ({ ids: [], requireAll: false });
  return { categories: rule(), tags: rule(), tools: rule(), foods: rule(), households: rule() };
}

/** The query filter string: one `AND`ed condition per row that has picks; "" selects every recipe. */
export function builderToFilter(state: BuilderState): string {
  const conditions: Condition[] = BUILDER_KEYS.filter((key) => state[key].ids.length).map((key) => ({
    field: key,
    // A recipe has one household: "all of several households" would select nothing, so it is "any".
    op: state[key].requireAll && key !== "households" ? "all" : "any",
    values: state[key].ids,
  }));
  return buildFilter(conditions);
}

/**
 * The pickers' reading of a stored filter, or null when the filter says more than they can show (an OR,
 * parentheses, another attribute or operator, a row twice): such a filter is kept as it is, never
 * rewritten behind the person's back. Ids no organizer has any more are kept, for the editor to show.
 */
export function filterToBuilder(text: string): BuilderState | null {
  const state = emptyBuilder();
  if (!text.trim()) return state;
  const read = readFilter(text);
  if (!read.ok) return null;
  for (const c of read.conditions) {
    const key = BUILDER_KEYS.find((k) => k === c.field);
    if (!key || state[key].ids.length || (c.op !== "any" && c.op !== "all")) return null;
    state[key] = { ids: c.values, requireAll: c.op === "all" };
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
