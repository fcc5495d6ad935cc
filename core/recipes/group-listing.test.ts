import { describe, expect, it } from "vitest";
import type { RecipeIndexEntry } from "../query/attributes.js";
import type { RecipeDoc } from "./doc.js";
import { GroupListing, type SearchMatches } from "./group-listing.js";

function listing(size: number): GroupListing {
  const items = Array.from({ length: size }, (_, i) => ({ id: `r${i}` }) as RecipeIndexEntry);
  return new GroupListing(
    items,
    items.map(() => ({}) as RecipeDoc),
  );
}

function matches(g: GroupListing, n: number): SearchMatches {
  const { at, score } = g.matchArrays(n);
  for (let i = 0; i < n; i++) {
    at[i] = i;
    score[i] = i + 1;
  }
  return { at, score, asked: 1 };
}

describe("a group's remembered searches", () => {
  it("give a forgotten search's buffer to the next search that fits in it", () => {
    const g = listing(1000);
    const first = matches(g, 500);
    expect(first.at).toHaveLength(500);
    expect(first.score).toHaveLength(500);
    g.remember("q0", first);
    for (let i = 1; i <= 32; i++) g.remember(`q${i}`, matches(g, 10));
    expect(g.remembered("q0")).toBeUndefined();
    const next = g.matchArrays(400);
    expect(next.at.buffer).toBe(first.at.buffer);
    expect(next.at).toHaveLength(400);
    // Remembered searches keep their own storage.
    for (let i = 1; i <= 32; i++) {
      const m = g.remembered(`q${i}`)!;
      expect(m.at.buffer).not.toBe(first.at.buffer);
      expect(Array.from(m.score)).toEqual(Array.from({ length: 10 }, (_, k) => k + 1));
    }
  });

  it("take new storage when no forgotten buffer is large enough, never larger than the group", () => {
    const g = listing(100);
    g.remember("small", matches(g, 5));
    for (let i = 0; i < 32; i++) g.remember(`q${i}`, matches(g, 5));
    const big = g.matchArrays(90);
    expect(big.at).toHaveLength(90);
    expect(big.at.buffer.byteLength).toBe(100 * 12);
    expect(g.matchArrays(0).at).toHaveLength(0);
  });
});
