import { describe, expect, it } from "vitest";
import { makeRecipe } from "../query/test-recipes.js";
import { pick, summaryBytes } from "./wire-bytes.js";

describe("a summary's kept JSON", () => {
  it("is the JSON of the entry's summary, made once per entry, and a new entry has its own", () => {
    const a = makeRecipe({ name: 'Crème "brûlée" ☃', tags: ["x"] });
    const bytes = summaryBytes(a);
    expect(bytes.toString("utf8")).toBe(JSON.stringify(pick(a)));
    expect(summaryBytes(a)).toBe(bytes);
    // Its own memory, not a slice of node's shared pool (a kept slice keeps the whole slab).
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(bytes.length);
    // A change makes a new entry (recipe-list.ts entryOf): its bytes are its own.
    const b = { ...a, name: "Soup", rating: 4 };
    expect(summaryBytes(b).toString("utf8")).toBe(JSON.stringify(pick(b)));
    expect(summaryBytes(a)).toBe(bytes);
  });
});
