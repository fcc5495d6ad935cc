/**
 * A meal-plan rule's recipe filter as the builder edits it: conditions joined by AND, each a field, an
 * operator and values. `buildFilter` writes the query filter string core stores and the random pick
 * reads; `readFilter` turns a stored string back into conditions, or says why it cannot (an OR,
 * parentheses, another field or operator), so the page shows such a filter as the text it is.
 *
 * Organizers are written by id, as Mealie's own builder does: an id survives a rename, and the filter
 * grammar has no escape for `"`, so a name such as `Mom's "best"` could not be written at all.
 * The cookbook editor reads and writes its filters with this module too (lib/cookbook-filter.ts).
 * Pure: the dialogs run it in the browser as the person picks.
 */
import { queryFilterParts, type QueryFilterPart } from "./pure-core.js";

export const ORGANIZER_FIELDS = ["categories", "tags", "tools", "foods", "households"] as const;
export type OrganizerField = (typeof ORGANIZER_FIELDS)[number];
export const CONDITION_FIELDS = [...ORGANIZER_FIELDS, "rating", "lastMade"] as const;
export type ConditionField = (typeof CONDITION_FIELDS)[number];

export type ConditionOp = "any" | "all" | "none" | "atLeast" | "never" | "before" | "since";

export interface Condition {
  field: ConditionField;
  op: ConditionOp;
  /** Ids for organizers, one number for a rating, one `YYYY-MM-DD` for a date, none for "never". */
  values: string[];
}

/** The operators each field offers, the first being a new condition's. */
export const FIELD_OPS: Record<ConditionField, readonly ConditionOp[]> = {
  categories: ["any", "all", "none"],
  tags: ["any", "all", "none"],
  tools: ["any", "all", "none"],
  foods: ["any", "all", "none"],
  // A recipe has one household, so "all of several" would select nothing.
  households: ["any", "none"],
  rating: ["atLeast"],
  lastMade: ["never", "before", "since"],
};

/** The attribute each field is written with: Mealie's names, which core reads. */
const ATTRIBUTE: Record<ConditionField, string> = {
  categories: "recipe_category.id",
  tags: "tags.id",
  tools: "tools.id",
  foods: "recipe_ingredient.food.id",
  households: "household_id",
  rating: "rating",
  lastMade: "last_made",
};

/**
 * Every spelling core accepts for those attributes, as core compares them: underscores and case
 * ignored (core/query/attribute-table.ts); a bare organizer list means its ids.
 */
const READ_AS: Record<string, ConditionField> = {
  "recipecategory.id": "categories",
  recipecategory: "categories",
  "categories.id": "categories",
  categories: "categories",
  "tags.id": "tags",
  tags: "tags",
  "tools.id": "tools",
  tools: "tools",
  "recipeingredient.food.id": "foods",
  "foods.id": "foods",
  householdid: "households",
  "household.id": "households",
  rating: "rating",
  lastmade: "lastMade",
};

export const RATINGS = ["1", "2", "3", "4", "5"] as const;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface Choice {
  value: string;
  label: string;
}

/**
 * An organizer picker's options and picks. A picked id none of the group's organizers has any more (a
 * deleted tag) stays picked, as an option named by `missing`: it is shown, saved with the filter, and
 * goes only when the person removes it, never dropped unseen.
 */
export function organizerPicker(
  choices: readonly Choice[],
  picked: readonly string[],
  missing: (id: string) => string,
): { data: Choice[]; value: string[]; missing: string[] } {
  const known = new Set(choices.map((c) => c.value));
  const gone = [...new Set(picked.filter((id) => !known.has(id)))];
  return {
    data: [...choices, ...gone.map((id) => ({ value: id, label: missing(id) }))],
    value: [...picked],
    missing: gone,
  };
}

export function isOrganizerField(field: ConditionField): field is OrganizerField {
  return (ORGANIZER_FIELDS as readonly string[]).includes(field);
}

export function newCondition(field: ConditionField): Condition {
  return { field, op: FIELD_OPS[field][0], values: field === "rating" ? ["4"] : [] };
}

/** The same condition on another field: the operator kept when the field has it, the values dropped. */
export function withField(c: Condition, field: ConditionField): Condition {
  const next = newCondition(field);
  return FIELD_OPS[field].includes(c.op) ? { ...next, op: c.op } : next;
}

/** Whether a condition says something yet; one still being filled in is left out of the filter. */
export function isComplete(c: Condition): boolean {
  if (c.op === "never") return true;
  if (isOrganizerField(c.field)) return c.values.length > 0;
  if (c.field === "rating") return RATINGS.includes(c.values[0] as (typeof RATINGS)[number]);
  return DATE.test(c.values[0] ?? "");
}

// Ids and dates never hold a quote; a value that did could not be written in this grammar at all.
const quote = (v: string) => `"${v}"`;

function writeOne(c: Condition): string {
  const attr = ATTRIBUTE[c.field];
  switch (c.op) {
    case "any":
      return `${attr} IN [${c.values.map(quote).join(", ")}]`;
    case "all":
      return `${attr} CONTAINS ALL [${c.values.map(quote).join(", ")}]`;
    case "none":
      return `${attr} NOT IN [${c.values.map(quote).join(", ")}]`;
    case "atLeast":
      return `${attr} >= ${c.values[0]}`;
    case "never":
      return `${attr} IS NULL`;
    case "before":
      return `${attr} < ${quote(c.values[0])}`;
    case "since":
      return `${attr} >= ${quote(c.values[0])}`;
  }
}

/** The query filter string: the complete conditions joined by AND; "" lets the rule pick any recipe. */
export function buildFilter(conditions: readonly Condition[]): string {
  return conditions.filter(isComplete).map(writeOne).join(" AND ");
}

/** Why a filter is shown as text rather than as conditions. */
export type Unfit = "invalid" | "or" | "parentheses" | "field" | "operator" | "value";

export type ReadResult = { ok: true; conditions: Condition[] } | { ok: false; reason: Unfit };

function readOp(field: ConditionField, part: QueryFilterPart): Condition | Unfit {
  const op = part.relationalOperator;
  const list = Array.isArray(part.value) ? part.value : null;
  const one = typeof part.value === "string" ? part.value : null;
  if (isOrganizerField(field)) {
    const ids = list ?? (one !== null ? [one] : []);
    if (ids.some((id) => id === "" || id.includes('"'))) return "value";
    if (op === "IN" || op === "=") return { field, op: "any", values: ids };
    if (op === "NOT IN" || op === "<>") return { field, op: "none", values: ids };
    if (op === "CONTAINS ALL" && field !== "households") return { field, op: "all", values: ids };
    return "operator";
  }
  if (field === "rating") {
    if (op !== ">=") return "operator";
    return one !== null && (RATINGS as readonly string[]).includes(one)
      ? { field, op: "atLeast", values: [one] }
      : "value";
  }
  if (op === "IS") return { field, op: "never", values: [] };
  if (op !== "<" && op !== ">=") return "operator";
  if (one === null || !DATE.test(one)) return "value";
  return { field, op: op === "<" ? "before" : "since", values: [one] };
}

/**
 * The conditions a filter string says, when it is nothing but the builder's kind of conditions joined
 * by AND; otherwise why not, and the caller keeps the text as it is.
 */
export function readFilter(text: string): ReadResult {
  let parts: QueryFilterPart[];
  try {
    parts = queryFilterParts(text).parts;
  } catch {
    return { ok: false, reason: "invalid" };
  }
  // The shape first: an OR explains a filter better than the field that happens to come first.
  if (parts.some((p) => p.logicalOperator === "OR")) return { ok: false, reason: "or" };
  if (parts.some((p) => p.leftParenthesis || p.rightParenthesis)) return { ok: false, reason: "parentheses" };
  const conditions: Condition[] = [];
  for (const part of parts) {
    const field = READ_AS[part.attributeName.replace(/_/g, "").toLowerCase()];
    if (!field) return { ok: false, reason: "field" };
    const c = readOp(field, part);
    if (typeof c === "string") return { ok: false, reason: c };
    conditions.push(c);
  }
  return { ok: true, conditions };
}
