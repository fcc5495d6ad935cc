import { describe, expect, it } from "vitest";
import { Regions } from "./regions.js";

const list = (r: Regions, key: number) =>
  Array.from({ length: r.len[key] }, (_, i) => [r.ints[r.start[key] + i], r.bytes[r.start[key] + i]]);

describe("regions", () => {
  it("sizes a counted list exactly and grows an open one with room to spare", () => {
    const r = new Regions();
    r.ensureKeys(2);
    r.reserve(0, 3, true);
    for (let i = 0; i < 3; i++) r.push(0, i, i + 1);
    expect(r.cap[0]).toBe(3);
    r.reserve(0, 4, false);
    expect(r.cap[0]).toBeGreaterThanOrEqual(4);
    r.push(0, 3, 4);
    expect(list(r, 0)).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 4],
    ]);
  });

  it("keeps every list intact through moves, removals and compaction", () => {
    const r = new Regions();
    const model: number[][] = Array.from({ length: 40 }, () => []);
    r.ensureKeys(model.length);
    let seed = 7;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (let step = 0; step < 5000; step++) {
      const k = rand(model.length);
      const op = rand(10);
      if (op < 7) {
        r.reserve(k, r.len[k] + 1, false);
        const v = rand(1000);
        r.push(k, v, v % 256);
        model[k].push(v);
      } else if (op < 9 && model[k].length) {
        const i = rand(model[k].length);
        r.removeAt(k, i);
        model[k][i] = model[k][model[k].length - 1];
        model[k].pop();
      } else {
        r.free(k);
        model[k] = [];
      }
    }
    for (let k = 0; k < model.length; k++) expect(list(r, k)).toEqual(model[k].map((v) => [v, v % 256]));
    expect(r.footprint.slots).toBeLessThan(4 * (r.footprint.entries + 200));
  });
});
