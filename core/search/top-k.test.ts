import { describe, expect, it } from "vitest";
import { prng } from "./synthetic-recipes.js";
import { topByScore } from "./top-k.js";

/** The reference: every index sorted by score (desc), ties by `tie` (asc). */
function fullSort(score: number[], tie: number[], k: number): number[] {
  return score
    .map((_, i) => i)
    .sort((a, b) => score[b] - score[a] || tie[a] - tie[b])
    .slice(0, k);
}

describe("topByScore", () => {
  it("selects the same k best as a full sort, ties in the listing's order", () => {
    const rnd = prng(7);
    for (const n of [0, 1, 5, 100, 3000]) {
      // Few distinct scores, so ties are common and the tie-break is exercised.
      const score = Array.from({ length: n }, () => Math.floor(rnd() * 12));
      const tie = Array.from({ length: n }, (_, i) => (i * 7919) % (n || 1));
      for (const k of [0, 1, 3, 30, 90, n, n + 5]) {
        expect([...topByScore(score, tie, n, k)]).toEqual(fullSort(score, tie, k));
      }
    }
  });

  it("reads only the first n entries of longer buffers", () => {
    const score = new Float64Array([5, 1, 9, 7, 100, 100]);
    const tie = new Int32Array([0, 1, 2, 3, 4, 5]);
    expect([...topByScore(score, tie, 4, 2)]).toEqual([2, 3]);
  });
});
