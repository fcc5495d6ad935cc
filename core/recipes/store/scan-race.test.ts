/**
 * A file deleted between the folder listing and its read (a `git checkout` during start-up) must be
 * skipped, not crash the scan. readdir is wrapped to delete a file right after listing it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type * as FsPromises from "node:fs/promises";

const victims = new Set<string>();

vi.mock("node:fs/promises", async (importOriginal) => {
  const fs = await importOriginal<typeof FsPromises>();
  const readdir = (async (...args: Parameters<typeof fs.readdir>) => {
    const listing = await (fs.readdir as (...a: unknown[]) => Promise<unknown>)(...args);
    for (const path of victims) {
      await fs.unlink(path).catch(() => undefined);
      victims.delete(path);
    }
    return listing;
  }) as typeof fs.readdir;
  return { ...fs, readdir, default: { ...fs, readdir } };
});

const { makeFolder, openStore, recipe, ADMIN } = await import("./test-helpers.js");
type TestFolder = Awaited<ReturnType<typeof makeFolder>>;

let t: TestFolder;
beforeEach(async () => {
  t = await makeFolder();
});
afterEach(async () => {
  await t.cleanup();
});

describe("scanning while files disappear", () => {
  it("skips a file unlinked between readdir and read", async () => {
    await t.put("soup", recipe("Soup", { id: "11111111-1111-4111-8111-111111111111", owner: ADMIN }));
    const doomed = await t.put(
      "stew",
      recipe("Stew", { id: "22222222-2222-4222-8222-222222222222", owner: ADMIN }),
    );
    victims.add(doomed);
    const { store } = await openStore(t, { watch: false });
    expect(victims.size).toBe(0);
    expect(store.list("home").map((e) => e.slug)).toEqual(["soup"]);
    expect(store.broken()).toEqual([]);
    await store.close();
  });
});
