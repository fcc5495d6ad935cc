/**
 * Nuxt 3's page state in devalue's flat format, read back as plain data: every payload here is written
 * by hand (or by the small flattener below) in the documented shape, index 0 the root.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { unflatten } from "./devalue.js";

/** Writes a JSON value the way devalue lays one out: each value in the table once, referred to by index. */
function flatten(root: unknown): unknown[] {
  const table: unknown[] = [];
  const put = (v: unknown): number => {
    const at = table.push(null) - 1;
    if (Array.isArray(v)) table[at] = v.map(put);
    else if (v && typeof v === "object")
      table[at] = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, put(x)]));
    else table[at] = v;
    return at;
  };
  put(root);
  return table;
}

describe("reading devalue's flat format", () => {
  it("reads objects and arrays whose values are indices into the table", () => {
    const payload = [
      { name: 1, recipeIngredient: 2, servings: 5, vegan: 6, note: 7 },
      "Plum crumble",
      [3, 4],
      "6 plums",
      "100 g flour",
      4,
      true,
      null,
    ];
    expect(unflatten(payload)).toEqual({
      name: "Plum crumble",
      recipeIngredient: ["6 plums", "100 g flour"],
      servings: 4,
      vegan: true,
      note: null,
    });
  });

  it("gives back any JSON value it is handed in the flat layout", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        // devalue keeps -0 apart from 0; JSON does not, so compare as JSON reads it.
        expect(JSON.stringify(unflatten(flatten(value)))).toBe(JSON.stringify(value));
      }),
    );
  });

  it("unwraps Nuxt's Reactive, ShallowReactive, Ref and ShallowRef to what they hold", () => {
    const payload = [
      ["ShallowReactive", 1],
      { data: 2, state: 5, title: 7 },
      ["Reactive", 3],
      { "recipe-plum": 4 },
      "Plum crumble",
      ["Ref", 6],
      "ready",
      ["ShallowRef", 4],
    ];
    expect(unflatten(payload)).toEqual({
      data: { "recipe-plum": "Plum crumble" },
      state: "ready",
      title: "Plum crumble",
    });
  });

  it("reads Nuxt's empty refs, which hold their falsy value as text", () => {
    const payload = [
      { a: 1, b: 3, c: 5, d: 7, e: 9 },
      ["EmptyRef", 2],
      "_",
      ["EmptyShallowRef", 4],
      "null",
      ["EmptyRef", 6],
      "0n",
      ["EmptyRef", 8],
      '""',
      ["EmptyShallowRef", 10],
      "false",
    ];
    expect(unflatten(payload)).toStrictEqual({ b: null, c: 0, d: "", e: false });
  });

  it("reads a wrapper from a site's own reviver as what it wraps", () => {
    expect(unflatten([["SiteRecipe", 1], { name: 2 }, "Plum crumble"])).toEqual({ name: "Plum crumble" });
  });

  it("gives a Date its ISO text, a Set an array and a Map its [key, value] pairs", () => {
    const payload = [
      { published: 1, tags: 2, empty: 5, byId: 6 },
      ["Date", "2026-12-07T10:00:00.000Z"],
      ["Set", 3, 4],
      "dessert",
      "autumn",
      ["Set"],
      ["Map", 7, 8, 9, 3],
      "plum",
      { name: 10 },
      12,
      "Plum crumble",
    ];
    expect(unflatten(payload)).toEqual({
      published: "2026-12-07T10:00:00.000Z",
      tags: ["dessert", "autumn"],
      empty: [],
      byId: [
        ["plum", { name: "Plum crumble" }],
        [12, "dessert"],
      ],
    });
  });

  it("reads RegExp, BigInt, boxed primitives and objects without a prototype as plain values", () => {
    const payload = [
      { pattern: 1, big: 2, huge: 3, boxed: 4, bare: 5, link: 7 },
      ["RegExp", "plum+", "gi"],
      ["BigInt", "42"],
      ["BigInt", "123456789012345678901234567890"],
      ["Object", "crumble"],
      ["null", "name", 6],
      "Plum crumble",
      ["URL", "https://cook.example/plum"],
    ];
    const value = unflatten(payload) as Record<string, unknown>;
    expect(value).toEqual({
      pattern: "/plum+/gi",
      big: 42,
      huge: "123456789012345678901234567890",
      boxed: "crumble",
      bare: { name: "Plum crumble" },
      link: "https://cook.example/plum",
    });
    expect(Object.getPrototypeOf(value.bare)).toBe(Object.prototype);
  });

  it("reads -1 to -6 as JSON.stringify writes undefined, a hole, NaN, Infinity, -Infinity and -0", () => {
    const payload = [
      { u: -1, nan: -3, inf: -4, ninf: -5, nz: -6, list: 1 },
      [2, -2, -1, -3, -4, -5, -6, 2],
      "x",
    ];
    const value = unflatten(payload) as Record<string, unknown>;
    expect(value).toStrictEqual({
      nan: null,
      inf: null,
      ninf: null,
      nz: 0,
      list: ["x", null, null, null, null, null, 0, "x"],
    });
    expect("u" in value).toBe(false);
    expect(Object.is(value.nz, -0)).toBe(false);
    expect(unflatten(-3)).toBeNull();
    expect(unflatten(-1)).toBeUndefined();
  });

  it("shares a value referred to twice", () => {
    const value = unflatten([{ first: 1, again: 1 }, { name: 2 }, "Plum crumble"]) as Record<string, unknown>;
    expect(value.first).toEqual({ name: "Plum crumble" });
    expect(value.again).toBe(value.first);
  });

  it("breaks a cycle where it closes, so the result can be walked to its end", () => {
    const self = unflatten([{ name: 1, self: 0 }, "Plum crumble"]);
    expect(self).toEqual({ name: "Plum crumble", self: undefined });
    const loop = unflatten([{ recipe: 1 }, { name: 3, page: 2 }, { recipe: 1 }, "Plum crumble"]);
    expect(loop).toEqual({ recipe: { name: "Plum crumble", page: { recipe: undefined } } });
    expect(() =>
      JSON.stringify(
        unflatten([
          ["Reactive", 1],
          ["Ref", 2],
          ["Set", 0, 1, 2],
        ]),
      ),
    ).not.toThrow();
  });

  it("leaves out a reference that points nowhere (null in a list) and keeps the rest", () => {
    const payload = [
      { name: 1, gone: 9, negative: -9, fraction: 1.5, text: "1", none: null },
      "Plum crumble",
    ];
    expect(unflatten(payload)).toStrictEqual({ name: "Plum crumble" });
    expect(unflatten([[1, 7, "1", 1], "Plum crumble"])).toStrictEqual([
      "Plum crumble",
      null,
      null,
      "Plum crumble",
    ]);
    expect(unflatten([["Ref", 5]])).toBeUndefined();
    expect(
      unflatten([
        ["Uint8Array", 1],
        ["ArrayBuffer", "AAEC"],
      ]),
    ).toBeUndefined();
  });

  it("reads what is not a devalue array as nothing", () => {
    for (const garbage of [[], {}, "[0]", null, undefined, true, 7, { 0: 1 }]) {
      expect(unflatten(garbage)).toBeUndefined();
    }
  });

  it("never throws on arbitrary JSON", () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), (payload) => {
        expect(() => JSON.stringify(unflatten(payload) ?? null)).not.toThrow();
      }),
    );
  });

  it("keeps an own __proto__ key as a key, never as the prototype", () => {
    const value = unflatten(JSON.parse('[{"__proto__": 1, "name": 2}, {"polluted": 2}, "x"]')) as object;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect("polluted" in value).toBe(false);
    expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toStrictEqual({ polluted: "x" });
    expect(JSON.stringify(value)).toBe('{"__proto__":{"polluted":"x"},"name":"x"}');
  });

  it("stops at its depth and node limits, and reads a value cut by depth in full where it is shallower", () => {
    // A chain 100,000 levels deep: read to the depth limit, without running out of stack.
    const deep: unknown[] = Array.from({ length: 100_000 }, (_, i) => ({ next: i + 1 }));
    let depth = 0;
    for (let v = unflatten(deep) as { next?: unknown }; v; v = v.next as { next?: unknown }) depth++;
    expect(depth).toBe(40);
    // A list of 300,000 references: the ones past the node limit read as null.
    const wide = [Array.from({ length: 300_000 }, () => 1), "x"];
    const items = unflatten(wide) as unknown[];
    expect(items.filter((x) => x === "x")).toHaveLength(199_999);
    expect(items.at(-1)).toBeNull();
    // Index 3 is first met three levels down, at a limit of 3, then again one level down.
    const payload = [{ deep: 1, shallow: 3 }, { inner: 2 }, { value: 3 }, { name: 4 }, "Plum crumble"];
    expect(unflatten(payload, { maxDepth: 3, maxNodes: 100, maxChars: 100 })).toStrictEqual({
      deep: { inner: {} },
      shallow: { name: "Plum crumble" },
    });
  });

  it("counts a shared value at its full size each time, so sharing cannot multiply the result", () => {
    // Each entry refers twice to the next: 60 entries stand for 2^60 values.
    const doubling: unknown[] = Array.from({ length: 60 }, (_, i) => ({ a: i + 1, b: i + 1 }));
    doubling.push("Plum crumble");
    const limits = { maxDepth: 100, maxNodes: 1000, maxChars: 1_000_000 };
    let count = 0;
    const walk = (v: unknown): void => {
      count++;
      if (v && typeof v === "object") Object.values(v).forEach(walk);
    };
    walk(unflatten(doubling, limits));
    expect(count).toBeLessThanOrEqual(1000);
    // Text counts the same way: one long string named a hundred times is there only as often as fits.
    const long = "plum ".repeat(20_000);
    const named = unflatten([Array.from({ length: 100 }, () => 1), long], limits) as unknown[];
    expect(named.filter((x) => x === long)).toHaveLength(10);
    expect(named).toHaveLength(100);
  });
});
