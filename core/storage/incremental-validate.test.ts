import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { validateChanged } from "./incremental-validate.js";

const Item = z.object({
  id: z.string(),
  name: z.string().min(1, "Name is required"),
  quantity: z.number().default(1),
  note: z.string().optional(),
  checked: z.boolean().default(false),
  labelId: z.string().nullable().default(null),
  tags: z.array(z.string()).default([]),
});
const Doc = z.object({
  name: z.string().default("list"),
  items: z.array(Item).default([]),
  extras: z.object({ colour: z.string() }).loose().optional(),
  limited: z.array(z.number()).max(3).default([]),
  refined: z
    .object({ a: z.number(), b: z.number() })
    .refine((v) => v.a <= v.b, "a must not exceed b")
    .optional(),
  meta: z.union([z.string(), z.number()]).optional(),
});
type Doc = z.infer<typeof Doc>;

function valid(n: number): Doc {
  return Doc.parse({
    items: Array.from({ length: n }, (_, i) => ({ id: `i${i}`, name: `item ${i}`, tags: ["t"] })),
  });
}

function both(prev: Doc, next: unknown) {
  const full = Doc.safeParse(structuredClone(next));
  const incremental = validateChanged(Doc, prev, next as Doc);
  return { full, incremental };
}

describe("validating only what an update changed", () => {
  it("keeps every unchanged record as the previous state's own object", () => {
    const prev = valid(100);
    const next = structuredClone(prev);
    next.items[40]!.checked = true;
    const r = validateChanged(Doc, prev, next);
    expect(r.success).toBe(true);
    if (!r.success) return;
    expect(r.data.items[40]!.checked).toBe(true);
    expect(r.data.items[40]).not.toBe(prev.items[40]);
    for (const i of [0, 39, 41, 99]) expect(r.data.items[i]).toBe(prev.items[i]);
  });

  it("returns the previous state itself when nothing changed", () => {
    const prev = valid(10);
    const r = validateChanged(Doc, prev, structuredClone(prev));
    expect(r.success && r.data).toBe(prev);
  });

  it("finds records by id after one is removed or inserted before them", () => {
    const prev = valid(10);
    const removed = structuredClone(prev);
    removed.items.splice(2, 1);
    const r = validateChanged(Doc, prev, removed);
    expect(r.success && r.data.items[2]).toBe(prev.items[3]);
    const inserted = structuredClone(prev);
    inserted.items.unshift({ id: "new", name: "new" } as Doc["items"][number]);
    const s = validateChanged(Doc, prev, inserted);
    expect(s.success && s.data.items[1]).toBe(prev.items[0]);
    // The new record got the schema's defaults.
    expect(s.success && s.data.items[0]).toEqual({
      id: "new",
      name: "new",
      quantity: 1,
      checked: false,
      labelId: null,
      tags: [],
    });
  });

  it("reports a changed record's failure at its path in the document, as zod does", () => {
    const prev = valid(5);
    const next = structuredClone(prev);
    next.items[3]!.name = "";
    const { full, incremental } = both(prev, next);
    expect(incremental.success).toBe(false);
    if (incremental.success || full.success) return;
    expect(incremental.issues.map((i) => [i.path, i.message])).toEqual([
      [["items", 3, "name"], "Name is required"],
    ]);
    expect(full.error.issues.map((i) => [i.path, i.message])).toEqual([
      [["items", 3, "name"], "Name is required"],
    ]);
  });

  it("leaves refinements and length limits to zod, on the part that holds them", () => {
    const prev = valid(2);
    const tooLong = { ...structuredClone(prev), limited: [1, 2, 3, 4] };
    expect(validateChanged(Doc, prev, tooLong).success).toBe(false);
    const refined = { ...structuredClone(prev), refined: { a: 2, b: 1 } };
    const r = validateChanged(Doc, prev, refined);
    expect(!r.success && r.issues.map((i) => [i.path, i.message])).toEqual([
      [["refined"], "a must not exceed b"],
    ]);
  });

  it("comes out as zod's whole-document parse for a thousand random changes", () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    const values: unknown[] = [undefined, null, "", "x", 0, 3, true, [], {}, ["a"], { colour: "red" }];
    const keys = ["id", "name", "quantity", "note", "checked", "labelId", "tags", "other"] as const;
    let prev = valid(8);
    for (let round = 0; round < 1000; round++) {
      const next = structuredClone(prev) as unknown as Record<string, unknown> & {
        items: Record<string, unknown>[];
      };
      const op = Math.floor(rnd() * 9);
      if (op === 0) next.items.splice(Math.floor(rnd() * next.items.length), 1);
      else if (op === 1)
        next.items.splice(Math.floor(rnd() * (next.items.length + 1)), 0, { id: `n${round}`, name: "n" });
      else if (op === 2 && next.items.length) {
        const item = pick(next.items);
        const key = pick(keys);
        if (rnd() < 0.3) delete item[key];
        else item[key] = pick(values);
      } else if (op === 3)
        next[pick(["name", "extras", "limited", "refined", "meta", "unknown"])] = pick(values);
      else if (op === 4) next.extras = { colour: pick(["red", 3]), more: pick(values) };
      else if (op === 5) next.refined = { a: Math.floor(rnd() * 3), b: Math.floor(rnd() * 3) };
      else if (op === 6) next.items.reverse();
      else if (op === 7 && next.items.length) pick(next.items).tags = [pick(["a", 1])];
      const { full, incremental } = both(prev, next);
      expect(incremental.success).toBe(full.success);
      if (full.success && incremental.success) {
        expect(isDeepStrictEqual(incremental.data, full.data)).toBe(true);
        prev = incremental.data;
      } else if (!full.success && !incremental.success) {
        const keyed = (issues: { path: PropertyKey[]; message: string }[]) =>
          issues.map((i) => `${i.path.join(".")}: ${i.message}`).sort();
        expect(keyed(incremental.issues)).toEqual(keyed(full.error.issues));
      }
      if (prev.items.length < 3) prev = valid(8);
    }
  });
});
