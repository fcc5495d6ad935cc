/** Structural equality of recipe documents, independent of key order (docs are built in many places). */
import type { RecipeDoc } from "../doc.js";

export function sameDoc(a: RecipeDoc, b: RecipeDoc, ignore: ReadonlyArray<keyof RecipeDoc> = []): boolean {
  if (ignore.length === 0) return stable(a) === stable(b);
  const strip = (d: RecipeDoc): Record<string, unknown> => {
    const copy: Record<string, unknown> = { ...d };
    for (const k of ignore) delete copy[k];
    return copy;
  };
  return stable(strip(a)) === stable(strip(b));
}

/** JSON with object keys sorted; `undefined` members dropped as JSON.stringify does. */
function stable(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}
