import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  boundedDistance,
  gramsMayAllDiffer,
  maxEdits,
  minSharedGrams,
  paddedTrigrams,
  transpositionVariants,
} from "./fuzzy.js";

/** Reference optimal-string-alignment distance, unbounded. */
function osa(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

const word = fc.string({ unit: fc.constantFrom(..."abcde"), maxLength: 12 });

describe("fuzzy helpers", () => {
  it("boundedDistance agrees with the reference distance up to the bound", () => {
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 3 }), (a, b, max) => {
        expect(boundedDistance(a, b, max)).toBe(Math.min(osa(a, b), max + 1));
      }),
      { numRuns: 2000 },
    );
  });

  it("counts a transposition as one edit", () => {
    expect(boundedDistance("chciken", "chicken", 1)).toBe(1);
    expect(boundedDistance("choclate", "chocolate", 2)).toBe(1);
  });

  it("never filters out a term within the allowed edits (trigram bound)", () => {
    fc.assert(
      fc.property(
        word.filter((w) => w.length >= 4),
        word,
        (q, t) => {
          const k = maxEdits(q.length);
          if (boundedDistance(q, t, k) > k) return;
          const tg = new Set(paddedTrigrams(t));
          const shared = paddedTrigrams(q).filter((g) => tg.has(g)).length;
          const reached =
            shared >= minSharedGrams(paddedTrigrams(q).length, k) ||
            (gramsMayAllDiffer(q.length, k) && transpositionVariants(q, k).has(t));
          expect(reached, `${q} -> ${t}`).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("reaches a transposed short word that shares no trigram with the query", () => {
    expect(paddedTrigrams("aede").filter((g) => paddedTrigrams("adee").includes(g))).toEqual([]);
    expect(transpositionVariants("aede", 1).has("adee")).toBe(true);
    expect(transpositionVariants("abcdefgh", 2).has("badcefgh")).toBe(true);
  });

  it("tolerates no typo under 4 letters, one up to 7, two from 8", () => {
    expect([3, 4, 7, 8].map(maxEdits)).toEqual([0, 1, 1, 2]);
  });
});
