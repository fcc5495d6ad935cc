import { describe, expect, it } from "vitest";
import { RecipeIndex } from "./recipe-index.js";
import type { RecipeEntry } from "./types.js";
import { recipe } from "./test-helpers.js";

const entry = (groupSlug: string, slug: string, id: string, name: string): RecipeEntry => ({
  groupSlug,
  slug,
  id,
  doc: { ...recipe(name), id },
  file: { size: 1, mtimeMs: 1, hash: "h" },
  seenAt: null,
  vocabularyVersion: "v",
});

describe("names taken in a group", () => {
  it("counts names in any case and spacing, kept by puts, replacements and deletes once built", () => {
    const index = new RecipeIndex();
    index.put(entry("home", "soup", "a", "Soup"));
    index.put(entry("other", "stew", "b", "Stew"));
    expect(index.nameCount("home", "  soup ")).toBe(1);
    expect(index.nameCount("home", "Stew")).toBe(0);
    // Built now for "home": later changes keep it.
    index.put(entry("home", "soup-1", "c", "SOUP"));
    expect(index.nameCount("home", "Soup")).toBe(2);
    index.put(entry("home", "soup", "a", "Bread"));
    expect(index.nameCount("home", "soup")).toBe(1);
    expect(index.nameCount("home", "bread")).toBe(1);
    index.delete("home", "soup-1");
    expect(index.nameCount("home", "soup")).toBe(0);
    expect(index.nameCount("other", "stew")).toBe(1);
  });
});
