import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, RecordTexts, sortByPositionThenId } from "./canonical-json.js";

describe("canonicalJson", () => {
  it("sorts keys recursively, indents by two spaces and ends with a newline", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: true, y: null }], c: "x" } })).toBe(
      '{\n  "a": {\n    "c": "x",\n    "d": [\n      1,\n      {\n        "y": null,\n        "z": true\n      }\n    ]\n  },\n  "b": 1\n}\n',
    );
  });

  it("gives the same bytes whatever order the keys were inserted in", () => {
    expect(canonicalJson({ x: 1, y: { b: 2, a: 1 } })).toBe(canonicalJson({ y: { a: 1, b: 2 }, x: 1 }));
  });

  it("orders integer-like keys as strings, not the way JavaScript objects enumerate them", () => {
    expect(canonicalJson({ "2": "b", "10": "a", x: "c" })).toBe(
      '{\n  "10": "a",\n  "2": "b",\n  "x": "c"\n}\n',
    );
  });

  it("sorts small and large records alike, and a document keyed by thousands of ids", () => {
    // Keys that are not integer-like enumerate in insertion order, so inserting them sorted gives
    // JSON.stringify the canonical order to compare with.
    const sortedCopy = (keys: string[]) => Object.fromEntries([...keys].sort().map((k) => [k, k.length]));
    for (const n of [3, 32, 33, 200, 5000]) {
      const keys = Array.from({ length: n }, (_, i) => `k${(i * 7919) % n}-${n}`);
      const shuffled = Object.fromEntries(keys.map((k) => [k, k.length]));
      expect(canonicalJson({ doc: shuffled })).toBe(
        `${JSON.stringify({ doc: sortedCopy(keys) }, null, 2)}\n`,
      );
    }
  });

  it("follows JSON.stringify for undefined, non-finite numbers, dates and empty containers", () => {
    const value = {
      u: undefined,
      n: Number.NaN,
      arr: [undefined, Infinity],
      d: new Date("2024-01-02T03:04:05.000Z"),
      e: {},
      f: [],
    };
    expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
    expect(canonicalJson({ e: {}, f: [] })).toBe('{\n  "e": {},\n  "f": []\n}\n');
  });

  it("refuses circular structures and BigInt", () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    expect(() => canonicalJson(a)).toThrow(/circular/);
    expect(() => canonicalJson({ n: 1n })).toThrow(/BigInt/);
  });

  it("orders declared arrays by position then id and leaves other arrays alone", () => {
    const doc = {
      lists: [
        {
          items: [{ id: "b", position: 1 }, { id: "c" }, { id: "a", position: 1 }, { id: "z", position: 0 }],
        },
      ],
      steps: [{ id: "2" }, { id: "1" }],
    };
    const out = JSON.parse(canonicalJson(doc, { sortArraysAt: ["lists.*.items"] }));
    expect(out.lists[0].items.map((i: { id: string }) => i.id)).toEqual(["z", "a", "b", "c"]);
    expect(out.steps.map((i: { id: string }) => i.id)).toEqual(["2", "1"]);
  });

  it("orders numeric ids numerically", () => {
    expect(sortByPositionThenId([{ id: 10 }, { id: 9 }, { id: 100 }]).map((t) => t.id)).toEqual([9, 10, 100]);
  });

  it("is a fixed point: re-serialising its own output changes no byte, and the value survives", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const once = canonicalJson(value);
        expect(canonicalJson(JSON.parse(once))).toBe(once);
        expect(JSON.parse(once)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 200 },
    );
  });

  it("reuses the texts of the records that are the same objects as in an earlier serialisation", () => {
    const records = new RecordTexts();
    const a = { name: "Apple", id: "a" };
    const b = { name: "Basil", id: "b", tags: [{ z: 1, y: 2 }] };
    const first = canonicalJson({ foods: [b, a] }, { sortArraysAt: ["foods"], records });
    expect(first).toBe(canonicalJson({ foods: [a, b] }, { sortArraysAt: ["foods"] }));
    const c = { id: "c", name: "Cress" };
    const second = { foods: [a, b, c], nested: { rows: [a] } };
    expect(canonicalJson(second, { sortArraysAt: ["foods"], records })).toBe(
      canonicalJson(second, { sortArraysAt: ["foods"] }),
    );
    // Proof of reuse: a record changed in place (which JsonDoc.replace forbids) keeps its old text,
    // at the depth it had; at another depth it is written again.
    a.name = "Changed";
    const third = canonicalJson({ foods: [a], nested: { deeper: { rows: [a] } } }, { records });
    expect(third).toContain('"name": "Apple"');
    expect(third).toContain('"name": "Changed"');
    // Forgotten when cleared (JsonDoc: a state that did not come from replace()).
    records.clear();
    expect(canonicalJson({ foods: [a, c] }, { records })).not.toContain("Apple");
  });
});
