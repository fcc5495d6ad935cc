import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decode, encode, SearchIndexFiles } from "./index-file.js";
import { RecipeSearchIndex } from "./recipe-search.js";
import { syntheticRecipes } from "./synthetic-recipes.js";

const QUERIES = ["chicken", "garlic onion", "chiken", "tom", '"olive oil"', "a", "zz", "pasta bake", "salt"];

function built(count: number) {
  const recipes = syntheticRecipes(count, 7);
  const index = new RecipeSearchIndex();
  recipes.forEach((r, i) => index.add(r, i + 1));
  return { recipes, index, byId: new Map(recipes.map((r) => [r.id, r])) };
}

describe("a search index saved and read again", () => {
  it("answers every query as the index it was saved from, phrases included", () => {
    const { index, byId } = built(400);
    // Holes in the numbering: removed recipes leave free document and term numbers behind.
    for (const r of [...byId.values()].filter((_, i) => i % 7 === 0)) index.remove(r.id);
    const image = decode(encode(index.image(), "f", "home"), "f", "home");
    const resolved: string[] = [];
    const again = RecipeSearchIndex.fromImage(image, (id) => (resolved.push(id), byId.get(id)));
    for (const q of QUERIES) expect([q, again.search(q)]).toEqual([q, index.search(q)]);
    expect(again.size).toBe(index.size);
    // Only the phrase's candidates were looked up, not every recipe.
    expect(resolved.length).toBeGreaterThan(0);
    expect(resolved.length).toBeLessThan(index.size);
  });

  it("keeps each recipe's stamp, and takes additions and removals afterwards as a built one does", () => {
    const { recipes, index, byId } = built(300);
    const again = RecipeSearchIndex.fromImage(decode(encode(index.image(), "f", "g"), "f", "g"), (id) =>
      byId.get(id),
    );
    for (const [id, doc] of again.documents())
      expect(again.stampOf(doc)).toBe(recipes.findIndex((r) => r.id === id) + 1);
    const extra = syntheticRecipes(40, 99).map((r) => ({ ...r, id: `x-${r.id}` }));
    for (const target of [index, again]) {
      for (const r of recipes.slice(0, 50)) target.remove(r.id);
      for (const r of extra) target.add(r, 5);
    }
    for (const q of QUERIES) expect([q, again.search(q)]).toEqual([q, index.search(q)]);
  });

  it("refuses a damaged, truncated or foreign file", () => {
    const { index } = built(50);
    const bytes = encode(index.image(), "f", "home");
    expect(() => decode(bytes, "other", "home")).toThrow(/format/);
    expect(() => decode(bytes, "f", "club")).toThrow(/format/);
    for (const at of [0, 12, bytes.length >> 1, bytes.length - 5]) {
      const bad = Buffer.from(bytes);
      bad[at] ^= 0x5a;
      expect(() => decode(bad, "f", "home")).toThrow();
    }
    for (const cut of [4, 40, bytes.length - 1])
      expect(() => decode(bytes.subarray(0, cut), "f", "home")).toThrow();
  });

  it("refuses an image whose lists name missing documents or terms", () => {
    const { index, byId } = built(30);
    const image = index.image();
    image.postings.ints[0] = image.docIds.length + 5;
    expect(() => RecipeSearchIndex.fromImage(image, (id) => byId.get(id))).toThrow(/missing/);
  });

  it("is read as nothing when missing or unreadable, and written by replacing the old file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "larder-search-file-"));
    try {
      const files = new SearchIndexFiles(join(dir, "cache"), "fmt");
      expect(files.read("home")).toBeNull();
      const { index, byId } = built(60);
      await files.write("home", index.image());
      await files.write("home", index.image());
      expect(await readdir(join(dir, "cache"))).toEqual(["search-home.bin"]);
      const image = files.read("home")!;
      const again = RecipeSearchIndex.fromImage(image, (id) => byId.get(id));
      expect(again.search("chicken")).toEqual(index.search("chicken"));
      expect(new SearchIndexFiles(join(dir, "cache"), "other").read("home")).toBeNull();
      await writeFile(files.pathOf("home"), "not an index");
      expect(files.read("home")).toBeNull();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("never writes through a link left where its temp file goes", async () => {
    const dir = await mkdtemp(join(tmpdir(), "larder-search-file-"));
    try {
      const outside = join(dir, "outside.txt");
      await writeFile(outside, "keep me");
      const files = new SearchIndexFiles(join(dir, "cache"), "fmt");
      await mkdir(join(dir, "cache"));
      await symlink(outside, `${files.pathOf("home")}.tmp`);
      const { index } = built(20);
      await files.write("home", index.image());
      expect(await readFile(outside, "utf8")).toBe("keep me");
      expect(files.read("home")).not.toBeNull();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
