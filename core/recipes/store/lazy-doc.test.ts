import { open as openFile, readFile, rm, writeFile } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { compactDoc, IndexCache } from "./index-cache.js";
import {
  foodNamesOf,
  ingredientsOnce,
  keptParses,
  parsedParts,
  partsInMemory,
  setParsedBudget,
  withIdentity,
} from "./lazy-doc.js";
import type { RecipeStore } from "./recipe-store.js";
import { ADMIN, makeFolder, openStore, recipe, VOCAB, type TestFolder } from "./test-helpers.js";
import { readRecipeFile } from "./fast-read.js";
import { shared, sharedStringCount } from "../../util/shared-strings.js";
import { utimes } from "node:fs/promises";
import type { RecipeDoc } from "../doc.js";

const ID = (n: number) => `${String(n).repeat(8)}-1111-4111-8111-111111111111`;

let t: TestFolder;
let open: RecipeStore[] = [];

beforeEach(async () => {
  t = await makeFolder();
  open = [];
});
afterEach(async () => {
  for (const s of open) await s.close();
  await t.cleanup();
});

async function putOld(slug: string, doc: RecipeDoc): Promise<void> {
  const path = await t.put(slug, doc);
  const when = new Date(Date.now() - 60_000);
  await utimes(path, when, when);
}

async function start(): Promise<RecipeStore> {
  const { store } = await openStore(t, { watch: false });
  open.push(store);
  return store;
}

async function restart(store: RecipeStore): Promise<RecipeStore> {
  await store.close();
  open = open.filter((s) => s !== store);
  return start();
}

const RICH = recipe("Crème brûlée", {
  id: ID(1),
  owner: ADMIN,
  ingredients: [
    {
      title: "Custard",
      quantity: 2,
      quantityMax: 3,
      unit: "gram",
      food: "flour",
      note: "cold “fresh”",
      originalText: null,
      referencedRecipe: null,
    },
    {
      title: null,
      quantity: null,
      quantityMax: null,
      unit: null,
      food: null,
      note: "salt to taste",
      originalText: null,
      referencedRecipe: null,
    },
    {
      title: null,
      quantity: 4,
      quantityMax: null,
      unit: null,
      food: "flour",
      note: "",
      originalText: null,
      referencedRecipe: null,
    },
  ],
  instructions: [
    { title: null, summary: null, text: "Heat the cream \u2028 gently.", ingredientRefs: [0] },
    { title: "Bake", summary: null, text: "Bake at 150 °C.", ingredientRefs: [1, 2] },
  ],
  notes: [{ title: "Tip", text: "Torch just before serving." }],
});

describe("docs from the warm-start cache (lazy parts)", () => {
  it("read, spread, clone and stringify as the file's doc does, parsing parts only when read", async () => {
    await putOld("creme", RICH);
    await putOld("plain", recipe("Plain", { id: ID(2), owner: ADMIN }));
    const cold = await start();
    const fresh = cold.get("home", "creme")!.doc;
    const warm = await restart(cold);
    expect(warm.stats().cache).toMatchObject({ state: "loaded", hits: 2 });
    const doc = warm.get("home", "creme")!.doc;
    expect(parsedParts(doc)).toEqual({ ingredients: false, steps: false });
    expect(foodNamesOf(doc)).toEqual(["flour", "flour"]);
    expect(parsedParts(doc)).toEqual({ ingredients: false, steps: false });
    expect(Object.keys(doc)).toEqual(Object.keys(fresh));
    expect(JSON.stringify(doc)).toBe(JSON.stringify(fresh));
    expect(parsedParts(doc)).toEqual({ ingredients: true, steps: true });
    expect(doc).toEqual(fresh);
    expect(structuredClone(doc)).toEqual(fresh);
    expect({ ...doc }).toEqual(fresh);
    expect(foodNamesOf(doc)).toEqual(["flour", "flour"]);
  });

  it("keep their parts unparsed through the identity rules and a cache write", async () => {
    await putOld("creme", RICH);
    const cold = await start();
    await cold.saveCache();
    const fresh = cold.get("home", "creme")!.doc;
    const before = await readFile(IndexCache.pathIn(t.folder.cacheDir));
    const warm = await restart(cold);
    const doc = warm.get("home", "creme")!.doc;
    expect(parsedParts(doc)).toEqual({ ingredients: false, steps: false });
    const copy = withIdentity(doc, ID(9), null);
    expect(copy.id).toBe(ID(9));
    expect(copy.owner).toBeNull();
    expect(parsedParts(copy)).toEqual({ ingredients: false, steps: false });
    expect(copy.instructions).toEqual(RICH.instructions);
    // The parts are shared: the doc it was made from is parsed too, once.
    expect(parsedParts(doc)).toEqual({ ingredients: false, steps: true });
    expect(doc.instructions).toBe(copy.instructions);
    expect(JSON.stringify({ ...doc, id: ID(9), owner: null })).toBe(JSON.stringify(copy));
    // Written again (after a touch makes the cache dirty): the same bytes but for the time saved.
    const path = t.file("creme");
    const when = new Date(Date.now() - 30_000);
    await utimes(path, when, when);
    const again = await restart(warm);
    await again.saveCache();
    const after = await readFile(IndexCache.pathIn(t.folder.cacheDir));
    expect(after.length).toBe(before.length);
    const third = await restart(again);
    expect(third.get("home", "creme")!.doc).toEqual(fresh);
  });

  it("give their ingredients for one read without keeping the parse", async () => {
    await putOld("creme", RICH);
    const cold = await start();
    const fresh = cold.get("home", "creme")!.doc;
    const plain = { ...fresh };
    expect(ingredientsOnce(plain)).toBe(plain.ingredients);
    const warm = await restart(cold);
    const doc = warm.get("home", "creme")!.doc;
    expect(ingredientsOnce(doc)).toEqual(fresh.ingredients);
    expect(parsedParts(doc)).toEqual({ ingredients: false, steps: false });
    // Once parsed for good (the recipe was opened), that parse is the answer.
    const kept = doc.ingredients;
    expect(ingredientsOnce(doc)).toBe(kept);
  });

  it("are what a cold scan keeps too, reading as the file's parse", async () => {
    await putOld("creme", RICH);
    const cold = await start();
    expect(cold.stats().cache).toMatchObject({ state: "none" });
    const doc = cold.get("home", "creme")!.doc;
    expect(parsedParts(doc)).toEqual({ ingredients: false, steps: false });
    const parsed = compactDoc(readRecipeFile(await readFile(t.file("creme"), "utf8"), VOCAB));
    expect(Object.keys(doc)).toEqual(Object.keys(parsed));
    expect(JSON.stringify(doc)).toBe(JSON.stringify(parsed));
    expect(doc).toEqual(parsed);
    // The cache written from the packed docs starts the next server with the same recipe.
    await cold.saveCache();
    expect((await restart(cold)).get("home", "creme")!.doc).toEqual(parsed);
  });

  it("share one frozen empty list and record among recipes, cold and warm, and keep their own otherwise", async () => {
    await putOld("plain", recipe("Plain bread", { id: ID(2), owner: ADMIN }));
    await putOld(
      "tagged",
      recipe("Tagged bread", { id: ID(3), owner: ADMIN, tags: ["Bread"], extras: { a: "1" } }),
    );
    let store = await start();
    for (let pass = 0; pass < 2; pass++) {
      const plain = store.get("home", "plain")!.doc;
      const tagged = store.get("home", "tagged")!.doc;
      expect(plain.tags).toEqual([]);
      expect(plain.tags).toBe(tagged.assets);
      expect(plain.extras).toBe(tagged.nutrition);
      expect(Object.isFrozen(plain.tags) && Object.isFrozen(plain.extras)).toBe(true);
      expect(() => (plain.tags as string[]).push("x")).toThrow(TypeError);
      expect(tagged.tags).toEqual(["Bread"]);
      expect(tagged.extras).toEqual({ a: "1" });
      expect(JSON.stringify(plain)).toBe(
        JSON.stringify(compactDoc(readRecipeFile(await readFile(t.file("plain"), "utf8"), VOCAB))),
      );
      // The same from the warm-start cache.
      await store.saveCache();
      store = await restart(store);
    }
  });

  it("hold one shared copy of the values recipes repeat, cold and warm, reading as the file's doc", async () => {
    const repeated = {
      owner: ADMIN,
      tags: ["Sharedtag Weeknight"],
      categories: ["Sharedcat Bread"],
      tools: ["Sharedtool Oven"],
      recipeYield: "7 shared servings",
      totalTime: "47 shared minutes",
      nutrition: { calories: "477 shared" },
    };
    await putOld("one", recipe("Bread one", { id: ID(4), ...repeated }));
    await putOld("two", recipe("Bread two", { id: ID(5), ...repeated }));
    const values = ["Sharedtag Weeknight", "Sharedcat Bread", "Sharedtool Oven", "7 shared servings"];
    values.push("47 shared minutes", "477 shared");
    let store = await start();
    // Each value is in the table already: asking for it again adds nothing.
    const held = sharedStringCount();
    for (const v of values) shared(v);
    expect(sharedStringCount()).toBe(held);
    for (let pass = 0; pass < 2; pass++) {
      for (const slug of ["one", "two"]) {
        const doc = store.get("home", slug)!.doc;
        expect(JSON.stringify(doc)).toBe(
          JSON.stringify(compactDoc(readRecipeFile(await readFile(t.file(slug), "utf8"), VOCAB))),
        );
      }
      await store.saveCache();
      store = await restart(store);
    }
  });

  it("of a cold scan are read from the cache file once it is written, not kept as text", async () => {
    await putOld("creme", RICH);
    await putOld("plain", recipe("Plain", { id: ID(2), owner: ADMIN }));
    const cold = await start();
    const doc = cold.get("home", "creme")!.doc;
    const parsed = compactDoc(readRecipeFile(await readFile(t.file("creme"), "utf8"), VOCAB));
    expect(partsInMemory(doc)).toBe(true);
    // One part read before the write: its parse stays, the other is read from the new file.
    const ingredients = doc.ingredients;
    await cold.saveCache();
    expect(partsInMemory(doc)).toBe(false);
    expect(partsInMemory(cold.get("home", "plain")!.doc)).toBe(false);
    expect(doc.ingredients).toBe(ingredients);
    expect(parsedParts(doc)).toEqual({ ingredients: true, steps: false });
    // The file the parts were written to stays readable after it is replaced, as a loaded one does.
    const path = IndexCache.pathIn(t.folder.cacheDir);
    const bytes = await readFile(path);
    await rm(path);
    await writeFile(path, Buffer.alloc(bytes.length, 0x20));
    expect(JSON.stringify(doc)).toBe(JSON.stringify(parsed));
    const plain = compactDoc(readRecipeFile(await readFile(t.file("plain"), "utf8"), VOCAB));
    expect(JSON.stringify(cold.get("home", "plain")!.doc)).toBe(JSON.stringify(plain));
  });

  it("of a warm start move to the cache file a save writes, and no longer read the one loaded", async () => {
    await putOld("creme", RICH);
    const cold = await start();
    // A copy: the cold scan's doc reads its parts from the cache file written at its close.
    const fresh = structuredClone(cold.get("home", "creme")!.doc);
    const warm = await restart(cold);
    const doc = warm.get("home", "creme")!.doc;
    const loaded = await openFile(IndexCache.pathIn(t.folder.cacheDir), "r+");
    try {
      // A touch makes the cache dirty; the save writes a new file over it, and the parts follow.
      const when = new Date(Date.now() - 30_000);
      await utimes(t.file("creme"), when, when);
      await warm.reload("home", "creme");
      await warm.saveCache();
      // The file loaded at the start, changed in place: a doc still reading it would refuse.
      const size = (await loaded.stat()).size;
      await loaded.write(Buffer.alloc(size - 100, 0x20), 0, size - 100, 50);
    } finally {
      await loaded.close();
    }
    expect(parsedParts(doc)).toEqual({ ingredients: false, steps: false });
    expect(doc).toEqual(fresh);
  });

  it("take a value set on one doc without changing another sharing its parts", async () => {
    await putOld("creme", RICH);
    const cold = await start();
    const fresh = cold.get("home", "creme")!.doc;
    const warm = await restart(cold);
    const doc = warm.get("home", "creme")!.doc;
    // Another owner, so a copy: a doc that already has this id and owner is shared as it is.
    expect(withIdentity(doc, doc.id!, doc.owner)).toBe(doc);
    const copy = withIdentity(doc, doc.id!, "another-owner");
    copy.notes = [];
    expect(copy.notes).toEqual([]);
    expect(doc.notes).toEqual(fresh.notes);
    expect(fresh.notes).toHaveLength(1);
    expect(JSON.parse(JSON.stringify(copy)).notes).toEqual([]);
    // No longer lazy as a whole: a spread copy, which still reads right.
    expect(withIdentity(copy, doc.id!, null)).toEqual({ ...fresh, notes: [], owner: null });
  });

  it("read from the cache file that was loaded, even once a new cache replaced it", async () => {
    await putOld("creme", RICH);
    const cold = await start();
    const fresh = cold.get("home", "creme")!.doc;
    const warm = await restart(cold);
    const doc = warm.get("home", "creme")!.doc;
    // Replaced, as every save does it: a new file renamed over the old one.
    const path = IndexCache.pathIn(t.folder.cacheDir);
    const bytes = await readFile(path);
    await rm(path);
    await writeFile(path, Buffer.alloc(bytes.length, 0x20));
    expect(doc.ingredients).toEqual(fresh.ingredients);
    expect(doc.notes).toEqual(fresh.notes);
  });

  it("refuse a part of a cache file changed in place rather than read something else", async () => {
    await putOld("creme", RICH);
    const warm = await restart(await start());
    const doc = warm.get("home", "creme")!.doc;
    const path = IndexCache.pathIn(t.folder.cacheDir);
    const size = (await readFile(path)).length;
    const fh = await openFile(path, "r+");
    await fh.write(Buffer.alloc(size - 100, 0x20), 0, size - 100, 50);
    await fh.close();
    expect(() => doc.ingredients).toThrow(/changed/);
  });

  it("keep the parses of the recently read only, reading an older one's bytes again", async () => {
    for (const n of [1, 2, 3]) await putOld(`creme-${n}`, { ...RICH, id: ID(n) });
    const cold = await start();
    // A plain copy: reading a lazy doc's parts in the test would count among the parses kept.
    const fresh = structuredClone(cold.get("home", "creme-1")!.doc);
    const warm = await restart(cold);
    const [a, b, c] = [1, 2, 3].map((n) => warm.get("home", `creme-${n}`)!.doc);
    const base = keptParses().bytes;
    JSON.stringify(a);
    const one = keptParses().bytes - base;
    expect(one).toBeGreaterThan(0);
    // Room for two recipes' parses: those of other docs read before are let go of first.
    const was = setParsedBudget(2 * one);
    try {
      JSON.stringify(b);
      const kept = a.instructions;
      // Read again, so b is now the least recently read and goes first.
      expect(a.ingredients).toEqual(fresh.ingredients);
      JSON.stringify(c);
      expect(parsedParts(b)).toEqual({ ingredients: false, steps: false });
      expect(parsedParts(a)).toEqual({ ingredients: true, steps: true });
      expect(a.instructions).toBe(kept);
      expect(keptParses()).toEqual({ parts: 2, bytes: 2 * one });
      // Let go of, its parse is made again from the bytes: the same recipe.
      expect(b).toEqual({ ...fresh, id: ID(2) });
      // c was read before a's last read, so c's parse went for it.
      expect(parsedParts(c)).toEqual({ ingredients: false, steps: false });
      expect(parsedParts(a)).toEqual({ ingredients: true, steps: true });
    } finally {
      setParsedBudget(was);
    }
  });
});
