import { mkdir, open as openFile, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { serializeRecipeFile } from "../file/recipe-file.js";
import { diskThreadCalls } from "../../storage/disk-thread.js";
import { IndexCache, INDEX_CACHE_VERSION, cacheFormat } from "./index-cache.js";
import type { RecipeStore } from "./recipe-store.js";
import { ADMIN, makeFolder, openStore, recipe, VOCAB, type TestFolder } from "./test-helpers.js";

const ID = (n: number) => `${String(n).repeat(8)}-1111-4111-8111-111111111111`;
const MANY_ID = (n: number) => `${n.toString(16).padStart(8, "0")}-2222-4222-8222-222222222222`;

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

/** Files last changed a minute ago: old enough that size and mtime identify their content. */
async function putOld(slug: string, name: string, n: number): Promise<string> {
  return putOldWithId(slug, name, ID(n));
}

async function putOldWithId(slug: string, name: string, id: string): Promise<string> {
  const path = await t.put(slug, recipe(name, { id, owner: ADMIN }));
  await age(path);
  return path;
}

async function age(path: string, secondsAgo = 60): Promise<void> {
  const when = new Date(Date.now() - secondsAgo * 1000);
  await utimes(path, when, when);
}

async function start(opts: Parameters<typeof openStore>[1] = {}): Promise<RecipeStore> {
  const { store } = await openStore(t, { watch: false, ...opts });
  open.push(store);
  return store;
}

async function restart(store: RecipeStore, opts: Parameters<typeof openStore>[1] = {}): Promise<RecipeStore> {
  await store.close();
  open = open.filter((s) => s !== store);
  return start(opts);
}

const cachePath = () => IndexCache.pathIn(t.folder.cacheDir);

describe("the warm-start index cache", () => {
  it("makes a warm start read only the files that changed", async () => {
    await putOld("soup", "Soup", 1);
    await putOld("stew", "Stew", 2);
    const changed = await putOld("pie", "Pie", 3);
    let store = await start();
    expect(store.stats().cache).toMatchObject({ state: "none", hits: 0, misses: 3 });
    await t.put("pie", recipe("Apple Pie", { id: ID(3), owner: ADMIN }));
    await age(changed, 30);
    store = await restart(store);
    expect(store.stats().cache).toMatchObject({ state: "loaded", hits: 2, misses: 1 });
    expect(store.get("home", "pie")?.doc.name).toBe("Apple Pie");
    expect(store.get("home", "soup")?.doc.name).toBe("Soup");
    expect(store.all()).toHaveLength(3);
  });

  it("stats a large folder's files on the disk thread while the cache loads, and reads those that changed", async () => {
    const n = 240;
    const paths: string[] = [];
    for (let i = 1; i <= n; i++) paths.push(await putOldWithId(`dish-${i}`, `Dish ${i}`, MANY_ID(i)));
    let store = await start();
    expect(store.stats().cache).toMatchObject({ hits: 0, misses: n });
    // By hand while the server was stopped: one edited, one deleted, one replaced by a folder.
    await t.put("dish-1", recipe("Dish One, longer", { id: MANY_ID(1), owner: ADMIN }));
    await age(paths[0], 30);
    await rm(paths[1]);
    await rm(paths[2]);
    await mkdir(paths[2]);
    await store.close();
    open = [];
    const calls = diskThreadCalls();
    store = await start();
    expect(diskThreadCalls()).toBeGreaterThan(calls);
    expect(store.stats().cache).toMatchObject({ state: "loaded", hits: n - 3 });
    expect(store.get("home", "dish-1")?.doc.name).toBe("Dish One, longer");
    expect(store.get("home", "dish-2")).toBeNull();
    expect(store.get("home", "dish-3")).toBeNull();
    expect(store.get("home", "dish-240")?.doc.name).toBe("Dish 240");
    expect(store.all()).toHaveLength(n - 2);
  });

  it("takes the cached parse of a file whose mtime changed but not its bytes, and parses one whose bytes changed", async () => {
    const soup = await putOld("soup", "Soup", 1);
    const stew = await putOld("stew", "Stew", 2);
    let store = await start();
    const before = store.get("home", "soup")!.doc;
    // Rewritten with the same bytes (a restored backup, a checkout), and one changed at the same size.
    await writeFile(soup, await readFile(soup));
    const stewText = (await readFile(stew, "utf8")).replace("Stew", "Stow");
    await writeFile(stew, stewText);
    await age(soup, 30);
    await age(stew, 30);
    store = await restart(store);
    expect(store.stats().cache).toMatchObject({ state: "loaded", hits: 0, misses: 2, sameBytes: 1 });
    expect(store.get("home", "soup")?.doc).toEqual(before);
    expect(store.get("home", "soup")?.file.mtimeMs).toBe((await stat(soup)).mtimeMs);
    expect(store.get("home", "stew")?.doc.name).toBe("Stow");
    // The entry now carries the new mtime: the next start takes it on its size and mtime alone.
    store = await restart(store);
    expect(store.stats().cache).toMatchObject({ hits: 2, misses: 0, sameBytes: 0 });
    expect(store.get("home", "soup")?.doc).toEqual(before);
  });

  it("parses a file whose bytes are the cached ones again when the group's foods and units changed", async () => {
    const soup = await putOld("soup", "Soup", 1);
    const store = await start({ vocabularyVersion: () => "v1" });
    await writeFile(soup, await readFile(soup));
    await age(soup, 30);
    const again = await restart(store, { vocabularyVersion: () => "v2" });
    expect(again.stats().cache).toMatchObject({ hits: 0, misses: 1, sameBytes: 0 });
    expect(again.get("home", "soup")?.vocabularyVersion).toBe("v2");
  });

  it("does not read a file whose size and mtime are unchanged", async () => {
    const path = await putOld("soup", "Soup", 1);
    const store = await start();
    // Same size, same mtime, other bytes: only a start that trusted the cache still sees "Soup".
    const st = await stat(path);
    const text = await readFile(path, "utf8");
    await writeFile(path, text.replace("name: Soup", "name: Suop"));
    await utimes(path, st.atime, st.mtime);
    const again = await restart(store);
    expect(again.get("home", "soup")?.doc.name).toBe("Soup");
    expect(again.stats().cache?.hits).toBe(1);
  });

  it("is invalidated by a change of the group's foods and units", async () => {
    await putOld("soup", "Soup", 1);
    const store = await start({ vocabularyVersion: () => "v1" });
    const again = await restart(store, { vocabularyVersion: () => "v2" });
    expect(again.stats().cache).toMatchObject({ state: "loaded", hits: 0, misses: 1 });
    expect(again.get("home", "soup")?.doc.ingredients[0]).toMatchObject({ unit: "gram", food: "flour" });
  });

  it("ignores a corrupt cache file and writes a good one", async () => {
    await putOld("soup", "Soup", 1);
    await putOld("stew", "Stew", 2);
    const store = await start();
    await store.close();
    open = [];
    await writeFile(cachePath(), "\u0000\u0001garbage");
    let again = await start();
    expect(again.stats().cache).toMatchObject({ state: "unreadable", hits: 0, misses: 2 });
    expect(again.get("home", "stew")?.doc.name).toBe("Stew");
    again = await restart(again);
    expect(again.stats().cache).toMatchObject({ state: "loaded", hits: 2, misses: 0 });
  });

  it("ignores a cache cut short, or with any byte changed", async () => {
    await putOld("soup", "Soup", 1);
    await putOld("stew", "Stew", 2);
    const store = await start();
    await store.close();
    open = [];
    const good = await readFile(cachePath());
    for (const bad of [
      good.subarray(0, good.length - 4),
      good.subarray(0, good.length >> 1),
      Buffer.concat([good, Buffer.from([0])]),
    ]) {
      await writeFile(cachePath(), bad);
      const again = await start({ readOnly: true });
      expect(again.stats().cache).toMatchObject({ state: "unreadable", hits: 0, misses: 2 });
      await again.close();
      open = [];
    }
    // A byte of a recipe's text: the doc would still decode, only the checksum tells.
    const flipped = Buffer.from(good);
    const at = flipped.indexOf("Stew");
    expect(at).toBeGreaterThan(0);
    flipped[at] = "Z".charCodeAt(0);
    await writeFile(cachePath(), flipped);
    const again = await start({ readOnly: true });
    expect(again.stats().cache).toMatchObject({ state: "unreadable", hits: 0, misses: 2 });
    expect(again.get("home", "stew")?.doc.name).toBe("Stew");
  });

  it("takes a part's checksum from the row and still refuses a part changed in the file while in use", async () => {
    await putOld("soup", "Soup", 1);
    const store = await start();
    const warm = await restart(store);
    expect(warm.stats().cache).toMatchObject({ state: "loaded", hits: 1 });
    // The same file, changed in place (a disk fault, a hand at work): the bytes of a step.
    const bytes = await readFile(cachePath());
    const at = bytes.indexOf("Mix.");
    expect(at).toBeGreaterThan(0);
    const fh = await openFile(cachePath(), "r+");
    await fh.write(Buffer.from("Mux."), 0, 4, at);
    await fh.close();
    expect(() => warm.get("home", "soup")!.doc.instructions).toThrow(/changed while in use/);
  });

  it("skips entries that are not recipes", async () => {
    await putOld("soup", "Soup", 1);
    await putOld("stew", "Stew", 2);
    const store = await start();
    const stew = store.get("home", "stew")!;
    const files = new Map(store.all().map((e) => [e.slug, e.file]));
    await store.close();
    open = [];
    const cache = new IndexCache(cachePath());
    await cache.load();
    cache.remember(
      { groupSlug: "home", slug: "stew" },
      { file: stew.file, readAt: Date.now(), vocabularyVersion: "v1", doc: { name: 42 } as never },
    );
    await cache.save({
      current: (loc) => files.get(loc.slug) ?? null,
      verify: async (loc) => files.get(loc.slug) ?? null,
    });
    const again = await start();
    expect(again.stats().cache).toMatchObject({ state: "loaded", hits: 1, misses: 1 });
    expect(
      again
        .all()
        .map((e) => e.doc.name)
        .sort(),
    ).toEqual(["Soup", "Stew"]);
  });

  it("holds one entry per file, whatever is remembered or forgotten over it", async () => {
    await putOld("soup", "Soup", 1);
    await putOld("stew", "Stew", 2);
    const store = await start();
    const soup = store.get("home", "soup")!;
    await store.close();
    open = [];
    const cache = new IndexCache(cachePath());
    await cache.load();
    expect(cache.stats()).toMatchObject({ loadedEntries: 2, entries: 2 });
    const parse = { file: soup.file, readAt: Date.now(), vocabularyVersion: "v1", doc: soup.doc };
    cache.remember({ groupSlug: "home", slug: "soup" }, parse);
    cache.remember({ groupSlug: "club", slug: "soup" }, parse);
    expect(cache.stats().entries).toBe(3);
    cache.forget({ groupSlug: "home", slug: "soup" });
    cache.forget({ groupSlug: "home", slug: "soup" });
    cache.forget({ groupSlug: "nowhere", slug: "soup" });
    expect(cache.stats().entries).toBe(2);
    expect(cache.lookup({ groupSlug: "club", slug: "soup" }, soup.file, "v1")?.doc).toBe(soup.doc);
    expect(cache.lookup({ groupSlug: "home", slug: "soup" }, soup.file, "v1")).toBeNull();
  });

  it("keys entries by the format version", async () => {
    expect(cacheFormat()).toContain(`larder-recipe-index/${INDEX_CACHE_VERSION}/`);
    await putOld("soup", "Soup", 1);
    const store = await start();
    await store.close();
    open = [];
    const bytes = await readFile(cachePath(), "latin1");
    expect(bytes.slice(0, 200)).toContain(JSON.stringify(cacheFormat()));
    await writeFile(
      cachePath(),
      bytes.replace(`/${INDEX_CACHE_VERSION}/`, `/${INDEX_CACHE_VERSION + 1}/`),
      "latin1",
    );
    const again = await start();
    expect(again.stats().cache).toMatchObject({ state: "other-format", hits: 0, misses: 1 });
  });

  it("does not trust a file read within the mtime granularity of its last change", async () => {
    // Just written: a second write in the same timestamp tick could keep size and mtime.
    await t.put("soup", recipe("Soup", { id: ID(1), owner: ADMIN }));
    const store = await start();
    const again = await restart(store);
    expect(again.stats().cache?.hits).toBe(0);
  });

  it("remembers what the store itself wrote, and forgets deleted recipes", async () => {
    await putOld("soup", "Soup", 1);
    // A clock 10 s ahead: at close, the file just written is old enough to be checked against the
    // disk (it is unchanged) and cached.
    const store = await start({ now: () => new Date(Date.now() + 10_000) });
    await store.create("home", "stew", recipe("Stew", { id: ID(2), owner: ADMIN }));
    await store.remove("home", "soup");
    const again = await restart(store);
    expect(again.stats().cache).toMatchObject({ hits: 1, misses: 0 });
    expect(again.all().map((e) => e.slug)).toEqual(["stew"]);
  });

  it("writes every character outside ASCII escaped, and reads it back the same", async () => {
    const path = await t.put(
      "creme",
      recipe("Crème brûlée ☕ 🍮", { id: ID(1), owner: ADMIN, description: "line\u2028sep" }),
    );
    await age(path);
    const store = await start();
    const again = await restart(store);
    expect(again.stats().cache?.hits).toBe(1);
    expect(again.get("home", "creme")?.doc.name).toBe("Crème brûlée ☕ 🍮");
    expect(again.get("home", "creme")?.doc.description).toBe("line\u2028sep");
    const bytes = await readFile(cachePath());
    expect(bytes.includes("Crème")).toBe(false);
    expect(bytes.includes("Cr\\u00e8me")).toBe(true);
    expect(serializeRecipeFile(again.get("home", "creme")!.doc, VOCAB)).toBe(await readFile(path, "utf8"));
  });

  it("does not cache a recipe JSON cannot hold as it is", async () => {
    // A key Larder does not know is kept as YAML read it: here an infinity, which JSON turns into null.
    const text = serializeRecipeFile(recipe("Huge", { id: ID(1), owner: ADMIN }), VOCAB).replace(
      "name: Huge\n",
      "name: Huge\nweird: .inf\n",
    );
    const path = await t.putText("huge", text);
    await age(path);
    let store = await start();
    expect(store.get("home", "huge")?.doc.otherKeys).toEqual({ weird: Infinity });
    store = await restart(store);
    expect(store.stats().cache).toMatchObject({ hits: 0, misses: 1 });
    expect(store.get("home", "huge")?.doc.otherKeys).toEqual({ weird: Infinity });
  });

  it("removes the JSON-lines cache of an older Larder when it writes its own", async () => {
    await putOld("soup", "Soup", 1);
    const legacy = join(t.folder.cacheDir, "recipe-index.json");
    await writeFile(legacy, '{"format":"larder-recipe-index/1/x"}\n');
    const store = await start();
    await store.close();
    open = [];
    await expect(stat(legacy)).rejects.toThrow();
    await stat(cachePath());
  });

  it("is never written by a read-only store", async () => {
    await putOld("soup", "Soup", 1);
    const store = await start({ readOnly: true });
    await store.close();
    open = [];
    await expect(stat(cachePath())).rejects.toThrow();
  });
});
