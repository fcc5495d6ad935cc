/**
 * How the warm-start cache writes a recipe's ingredients, steps and notes (its lazy parts, decision
 * 0165): an object with exactly the keys the file reader gives, in the reader's order, is written as
 * the list of its values. Every key of every ingredient was about half of the cache file, most of it
 * `"…":null`: 228 MB for 50,000 recipes whose files hold 109 MB, read, checksummed and rewritten whole
 * after changes (decisions 0173 and 0174).
 *
 * Any other object (a key more, a key missing, another order, an undefined value) is written as it is,
 * so unpacking gives back exactly what was packed, key order included. An ingredient, step or note is
 * never itself a list, which is what tells the two apart.
 */
import type { DocIngredient, DocStep } from "../doc.js";
import type { RecipeNote } from "../../schemas/recipe.js";

const INGREDIENT_KEYS = [
  "title",
  "quantity",
  "quantityMax",
  "unit",
  "food",
  "referencedRecipe",
  "referencedRecipeName",
  "note",
  "originalText",
] as const;
const STEP_KEYS = ["title", "summary", "text", "ingredientRefs"] as const;
const NOTE_KEYS = ["title", "text"] as const;

/** The values of `o` when its own keys are exactly `keys`, in order, none undefined; else null. */
function valuesIfExactly(o: unknown, keys: readonly string[]): unknown[] | null {
  if (typeof o !== "object" || o === null || Array.isArray(o)) return null;
  const own = Object.keys(o);
  if (own.length !== keys.length) return null;
  const values: unknown[] = [];
  for (let i = 0; i < keys.length; i++) {
    if (own[i] !== keys[i]) return null;
    const v = (o as Record<string, unknown>)[keys[i]];
    if (v === undefined) return null;
    values.push(v);
  }
  return values;
}

function pack(list: readonly unknown[], keys: readonly string[]): unknown[] {
  return list.map((o) => valuesIfExactly(o, keys) ?? o);
}

function wrongLength(what: string): never {
  // The bytes passed the cache's checksum and were written by pack(): anything else is a bug.
  throw new Error(`recipe index cache: a packed ${what} has the wrong number of values`);
}

// One object literal per kind: every unpacked object of a kind shares one hidden class.
function ingredientOf(v: unknown[]): DocIngredient {
  if (v.length !== INGREDIENT_KEYS.length) wrongLength("ingredient");
  return {
    title: v[0],
    quantity: v[1],
    quantityMax: v[2],
    unit: v[3],
    food: v[4],
    referencedRecipe: v[5],
    referencedRecipeName: v[6],
    note: v[7],
    originalText: v[8],
  } as DocIngredient;
}

function stepOf(v: unknown[]): DocStep {
  if (v.length !== STEP_KEYS.length) wrongLength("step");
  return { title: v[0], summary: v[1], text: v[2], ingredientRefs: v[3] } as DocStep;
}

function noteOf(v: unknown[]): RecipeNote {
  if (v.length !== NOTE_KEYS.length) wrongLength("note");
  return { title: v[0], text: v[1] } as RecipeNote;
}

function unpack<T>(list: unknown[], build: (v: unknown[]) => T): T[] {
  return list.map((e) => (Array.isArray(e) ? build(e) : (e as T)));
}

export function packIngredients(ingredients: readonly DocIngredient[]): unknown[] {
  return pack(ingredients, INGREDIENT_KEYS);
}

export function unpackIngredients(packed: unknown[]): DocIngredient[] {
  return unpack(packed, ingredientOf);
}

/** `[instructions, notes]`, packed. */
export function packSteps(instructions: readonly DocStep[], notes: readonly RecipeNote[]): unknown[] {
  return [pack(instructions, STEP_KEYS), pack(notes, NOTE_KEYS)];
}

export function unpackSteps(instructions: unknown[], notes: unknown[]): [DocStep[], RecipeNote[]] {
  return [unpack(instructions, stepOf), unpack(notes, noteOf)];
}
