/**
 * The recipe editor's draft: core's wire Recipe as plain JSON, so the FORM and JSON editors edit one
 * value (spec §4: they toggle) and saving sends it back as a PUT. Helpers here keep what the form does
 * to it small and testable: rows keep their ids when moved (steps reference ingredients by
 * `referenceId`, and core maps those ids to positions when it saves).
 */

import { ingredientParts, rangeMaxFromDisplay, type ScaleUnit } from "./scale.js";

export type Draft = Record<string, unknown>;

export interface NamedRef {
  id?: string | null;
  name: string;
  [k: string]: unknown;
}

export interface DraftIngredient {
  referenceId: string;
  title: string | null;
  quantity: number | null;
  unit: NamedRef | null;
  food: NamedRef | null;
  note: string | null;
  [k: string]: unknown;
}

export interface DraftStep {
  id: string;
  title: string | null;
  summary: string | null;
  text: string;
  ingredientReferences: { referenceId: string }[];
  [k: string]: unknown;
}

export interface DraftNote {
  title: string;
  text: string;
}

/** A fresh id for a new row (crypto.randomUUID needs a secure context; plain http on a LAN has none). */
export function newKey(): string {
  const c = typeof crypto !== "undefined" ? crypto : undefined;
  if (c && typeof c.randomUUID === "function") return c.randomUUID();
  const hex = (n: number) =>
    Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join("");
  return `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
}

const list = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);

export const ingredientsOf = (d: Draft): DraftIngredient[] => list<DraftIngredient>(d.recipeIngredient);
export const stepsOf = (d: Draft): DraftStep[] => list<DraftStep>(d.recipeInstructions);
export const notesOf = (d: Draft): DraftNote[] => list<DraftNote>(d.notes);

export function newIngredient(): DraftIngredient {
  return {
    referenceId: newKey(),
    title: null,
    quantity: null,
    unit: null,
    food: null,
    note: "",
    originalText: null,
  };
}

export function newStep(): DraftStep {
  return { id: newKey(), title: null, summary: null, text: "", ingredientReferences: [] };
}

/** A unit or food reference for a typed name: the same object while the name is unchanged, so its id stays. */
export function namedRef(current: NamedRef | null, name: string): NamedRef | null {
  const n = name.trim();
  if (!n) return null;
  if (current && current.name === n) return current;
  return { name: n };
}

const FRACTIONS: Record<string, number> = {
  "½": 0.5,
  "⅓": 1 / 3,
  "⅔": 2 / 3,
  "¼": 0.25,
  "¾": 0.75,
  "⅛": 0.125,
};

/** A typed amount (`2`, `0.5`, `1,5`, `1/2`, `1 1/2`, `½`); null for empty; NaN for something else. */
export function parseAmount(text: string): number | null {
  const t = text.trim().replace(",", ".");
  if (!t) return null;
  const uni = /^(\d+)?\s*([½⅓⅔¼¾⅛])$/.exec(t);
  if (uni) return Number(uni[1] ?? 0) + FRACTIONS[uni[2]];
  const mixed = /^(?:(\d+)\s+)?(\d+)\s*\/\s*(\d+)$/.exec(t);
  if (mixed) return Number(mixed[3]) > 0 ? Number(mixed[1] ?? 0) + Number(mixed[2]) / Number(mixed[3]) : NaN;
  return /^\d*\.?\d+$/.test(t) ? Number(t) : NaN;
}

/** The amount as the form shows it: a short decimal. */
export function amountText(q: number | null): string {
  if (q === null || !Number.isFinite(q)) return "";
  return String(Math.round(q * 1000) / 1000);
}

/** Removes an ingredient and every step's reference to it. */
export function removeIngredient(d: Draft, referenceId: string): Draft {
  return {
    ...d,
    recipeIngredient: ingredientsOf(d).filter((i) => i.referenceId !== referenceId),
    recipeInstructions: stepsOf(d).map((s) => ({
      ...s,
      ingredientReferences: s.ingredientReferences.filter((r) => r.referenceId !== referenceId),
    })),
  };
}

/** Links or unlinks an ingredient to a step (cook mode shows the linked ones). */
export function toggleReference(step: DraftStep, referenceId: string): DraftStep {
  const has = step.ingredientReferences.some((r) => r.referenceId === referenceId);
  return {
    ...step,
    ingredientReferences: has
      ? step.ingredientReferences.filter((r) => r.referenceId !== referenceId)
      : [...step.ingredientReferences, { referenceId }],
  };
}

/** Moves one item of a list (drag to reorder). */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const out = [...items];
  if (from < 0 || from >= out.length || to < 0 || to >= out.length) return out;
  const [it] = out.splice(from, 1);
  out.splice(to, 0, it);
  return out;
}

export type OrganizerKey = "recipeCategory" | "tags" | "tools";

export const organizerNames = (d: Draft, key: OrganizerKey): string[] =>
  list<{ name?: unknown }>(d[key])
    .map((o) => (typeof o === "string" ? o : typeof o?.name === "string" ? o.name : ""))
    .filter(Boolean);

/** Sets organizers by name; ones already on the recipe keep their object (and id). */
export function setOrganizers(d: Draft, key: OrganizerKey, names: string[]): Draft {
  const current = list<NamedRef>(d[key]);
  return { ...d, [key]: names.map((n) => current.find((o) => o?.name === n) ?? { name: n }) };
}

/** The draft as the JSON editor shows it. */
export function draftToJson(d: Draft): string {
  return JSON.stringify(d, null, 2);
}

export type JsonParse =
  { ok: true; draft: Draft } | { ok: false; error: "syntax" | "notObject" | "name"; detail?: string };

/** The JSON editor's text as a draft: an object with a name, or why not. */
export function parseDraftJson(text: string): JsonParse {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: "syntax", detail: e instanceof Error ? e.message : undefined };
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) return { ok: false, error: "notObject" };
  const d = v as Draft;
  if (typeof d.name !== "string" || !d.name.trim()) return { ok: false, error: "name" };
  return { ok: true, draft: d };
}

/** Whether the draft differs from what was loaded (the leave-page warning). */
export function draftChanged(draft: Draft, original: Draft): boolean {
  return JSON.stringify(draft) !== JSON.stringify(original);
}

const timeText = (v: unknown): string => (typeof v === "string" ? v : "");

/**
 * The one "Cook time" a person sees. Mealie's wire has two keys for it: `performTime` (what Mealie's
 * own form edits) and `cookTime` (what files and most importers write, and what the demo recipes use).
 * The page shows `performTime || cookTime`, so the form does the same.
 */
export function cookTimeOf(d: Draft): string {
  return timeText(d.performTime) || timeText(d.cookTime);
}

/**
 * Sets the cook time without leaving a second, conflicting one behind: a recipe that keeps it in
 * `cookTime` (and no `performTime`) keeps that key; otherwise `performTime` holds it and a stale
 * `cookTime` is cleared, so the file ends with one time.
 */
export function setCookTime(d: Draft, value: string): Draft {
  if (timeText(d.cookTime) && !timeText(d.performTime)) return { ...d, cookTime: value };
  return { ...d, performTime: value, ...(timeText(d.cookTime) ? { cookTime: null } : {}) };
}

/**
 * A short plain-text label of an ingredient (the step's ingredient picker), worded as the ingredient
 * list shows it: "2 tbsp", "2 cloves", "¹/₂ tsp" (abbreviations and plurals as the unit says, fractions).
 */
/** A step as a person knows it in a control's name: its summary, else the start of its text. */
export function stepLabel(step: Pick<DraftStep, "summary" | "text">, max = 40): string {
  const text = (step.summary?.trim() || step.text.trim()).replace(/\s+/g, " ");
  if (!text) return "…";
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  // End on a whole word when one ends in the second half.
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export function ingredientLabel(ing: DraftIngredient): string {
  const p = ingredientParts({
    quantity: ing.quantity,
    quantityMax: typeof ing.display === "string" ? rangeMaxFromDisplay(ing.display, ing.quantity) : null,
    unit: ing.unit as ScaleUnit | null,
    food: ing.food as { name: string; pluralName?: string | null } | null,
    recipe: null,
    noteHtml: "",
  });
  return [p.quantity, p.unit, p.food, ing.note ?? ""].filter(Boolean).join(" ").trim() || "…";
}
