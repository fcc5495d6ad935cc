/**
 * The scan at open reads and parses a large folder a chunk at a time, partly on worker threads
 * (decision 0130). What a file becomes must not depend on which chunk it fell in: duplicate ids are
 * settled over the whole folder (the older file keeps the id), broken and empty files are reported,
 * and every other file is indexed as the main thread alone would read it.
 */
import { utimes } from "node:fs/promises";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { derivedId } from "../../util/ids.js";
import { stopWorkerPool } from "../../workers/pool.js";
import { PARSE_CHUNK, POOL_MIN_FILES } from "./parse-pool.js";
import { ADMIN, makeFolder, openStore, recipe, type TestFolder } from "./test-helpers.js";

const ID_A = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa";
const COUNT = Math.max(POOL_MIN_FILES, 3 * PARSE_CHUNK) + 1;

let t: TestFolder;
beforeEach(async () => {
  t = await makeFolder();
});
afterEach(async () => {
  await t.cleanup();
});
afterAll(async () => {
  await stopWorkerPool();
});

describe("the scan at open, in chunks", () => {
  it("indexes a folder larger than several chunks as a file-by-file read would, duplicates settled over the whole folder", async () => {
    const writes: Promise<string>[] = [];
    for (let i = 0; i < COUNT; i++) {
      const slug = `r-${String(i).padStart(5, "0")}`;
      const id = `${String(i).padStart(8, "0")}-0000-4000-8000-000000000000`;
      writes.push(t.put(slug, recipe(`Recipe ${i}`, { id, owner: ADMIN, tags: [`tag ${i % 7}`] })));
    }
    writes.push(t.putText("r-00100", "---\nname: [unclosed\n---\n\nBroken\n"));
    writes.push(t.putText("empty", ""));
    // The copy sorts first and is read early; the original, older, may be read chunks later.
    writes.push(t.put("a-copy", recipe("Copy", { id: ID_A, owner: ADMIN })));
    writes.push(t.put("zz-original", recipe("Original", { id: ID_A, owner: ADMIN })));
    await Promise.all(writes);
    await utimes(t.file("zz-original"), new Date("2026-01-01T00:00:00Z"), new Date("2026-01-01T00:00:00Z"));

    const { store } = await openStore(t, { watch: false });
    expect(store.get("home", "zz-original")?.id).toBe(ID_A);
    expect(store.get("home", "a-copy")?.id).toBe(derivedId("home", "recipe", "a-copy"));
    expect(store.list("home")).toHaveLength(COUNT - 1 + 2);
    expect(
      store
        .broken()
        .map((b) => b.slug)
        .sort(),
    ).toEqual(["empty", "r-00100"]);
    for (const i of [0, 1, PARSE_CHUNK - 1, PARSE_CHUNK, 2 * PARSE_CHUNK + 3, COUNT - 1]) {
      const slug = `r-${String(i).padStart(5, "0")}`;
      expect(store.get("home", slug)?.doc).toMatchObject({ name: `Recipe ${i}`, tags: [`tag ${i % 7}`] });
    }
    await store.close();
  }, 60_000);
});
