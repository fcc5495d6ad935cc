/** Structural equality of recipe documents, independent of key order (docs are built in many places). */
import type { RecipeDoc } from "../doc.js";

export function sameDoc(a: RecipeDoc, b: RecipeDoc, ignore: ReadonlyArray<keyof RecipeDoc> = []): boolean {
  return jsonEqual(a, b, ignore);
}

/**
 * Whether `x` and `y` would give the same JSON up to the order of object keys: `undefined`, functions
 * and symbols are absent members (null in arrays), non-finite numbers are null, toJSON is applied.
 * Compared in place: the sorted copy of every object that JSON with sorted keys made was a large share
 * of what an edit allocated (several KB a recipe, twice per save).
 */
export function jsonEqual(x: unknown, y: unknown, ignore: readonly string[] = []): boolean {
  const a = jsonForm(x);
  const b = jsonForm(y);
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++)
      if (!jsonEqual(jsonForm(a[i]) ?? null, jsonForm(b[i]) ?? null)) return false;
    return true;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  let members = 0;
  for (const k of Object.keys(ra)) {
    if (ignore.includes(k)) continue;
    const va = jsonForm(ra[k]);
    if (va === undefined) continue;
    members++;
    if (!Object.hasOwn(rb, k) || !jsonEqual(va, rb[k])) return false;
  }
  for (const k of Object.keys(rb)) if (!ignore.includes(k) && jsonForm(rb[k]) !== undefined) members--;
  return members === 0;
}

/** A value as JSON.stringify takes it: toJSON's result; numbers it cannot write as null; what it leaves out as undefined. */
function jsonForm(v: unknown): unknown {
  switch (typeof v) {
    case "number":
      return Number.isFinite(v) ? v : null;
    case "function":
    case "symbol":
    case "undefined":
      return undefined;
    case "object":
      if (v !== null && typeof (v as { toJSON?: unknown }).toJSON === "function")
        return (v as { toJSON: () => unknown }).toJSON();
      return v;
    default:
      return v;
  }
}
