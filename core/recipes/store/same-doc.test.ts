import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { emptyRecipeDoc } from "../doc.js";
import { jsonEqual, sameDoc } from "./same-doc.js";

/** The definition: JSON with every object's keys sorted. */
function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, (v as Record<string, unknown>)[k]]),
    );
  });
}

/** JSON-like values with what JSON leaves out or rewrites: undefined, NaN, infinities, dates. */
const loose = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(undefined, null, Number.NaN, Infinity, -0, 0, 1, "", "a", true, false),
    fc.constant(new Date(0)),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("a", "b", "c", "10", "2"), tie("value"), { maxKeys: 4 }),
  ),
})).value;

describe("sameDoc", () => {
  it("is equality of JSON with sorted keys, for any values", () => {
    fc.assert(
      fc.property(loose, loose, (x, y) => {
        expect(jsonEqual(x, y)).toBe(sortedJson(x) === sortedJson(y));
        expect(jsonEqual(x, structuredClone(x))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("ignores the order of keys and the fields it is told to", () => {
    const a = { ...emptyRecipeDoc("Soup"), dateUpdated: "2026-01-01T00:00:00Z" };
    const reordered = Object.fromEntries(Object.entries(a).reverse()) as typeof a;
    expect(sameDoc(a, reordered)).toBe(true);
    const later = { ...reordered, dateUpdated: "2026-02-01T00:00:00Z" };
    expect(sameDoc(a, later)).toBe(false);
    expect(sameDoc(a, later, ["dateUpdated"])).toBe(true);
    expect(sameDoc(a, { ...later, name: "Stew" }, ["dateUpdated"])).toBe(false);
  });
});
