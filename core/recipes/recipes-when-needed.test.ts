import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Larder, type OpenOptions } from "../larder.js";
import { loadConfig } from "../config.js";
import { consoleLogger } from "../log/logger.js";

// A CLI command about people (`larder user list`) opens the folder without reading its recipes
// (decision 0202). Until they are read, the store must refuse to answer rather than answer from an
// empty index; once read, it answers as a folder opened the usual way does; and opening and closing
// without reading them leaves the recipes' cache as it was.

let base: string;
const dataDir = () => join(base, "data");
const open = (o: OpenOptions = {}) =>
  Larder.open(loadConfig({} as NodeJS.ProcessEnv, { dataDir: dataDir(), bcryptRounds: 4 }), {
    log: consoleLogger("silent"),
    watch: false,
    ...o,
  });

async function cacheFiles(): Promise<Map<string, string>> {
  const dir = join(dataDir(), ".larder", "cache");
  const out = new Map<string, string>();
  for (const name of await readdir(dir)) {
    const s = await stat(join(dir, name));
    if (s.isFile())
      out.set(name, `${s.size}:${s.mtimeMs}:${(await readFile(join(dir, name))).toString("base64")}`);
  }
  return out;
}

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), "larder-when-needed-"));
  const l = await open();
  const group = l.groups.all()[0].slug;
  await l.close();
  for (let i = 0; i < 5; i++)
    await writeFile(
      join(dataDir(), "groups", group, "recipes", `dish-${i}.md`),
      `---\nname: Dish ${i}\n---\nA dish.\n`,
    );
  // Read once the usual way, so that the folder has a warm-start cache to keep.
  const warm = await open();
  expect(warm.recipes.store.all()).toHaveLength(5);
  await warm.close();
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("a folder opened with its recipes read when needed", () => {
  it("serves people and groups without reading a recipe, and refuses a recipe read until then", async () => {
    const l = await open({ recipes: "when-needed" });
    try {
      expect(l.users.all().length).toBeGreaterThan(0);
      expect(l.groups.all()).toHaveLength(1);
      expect(() => l.recipes.store.all()).toThrow(/recipes were not opened/);
      expect(() => l.recipes.store.getById("00000000-0000-4000-8000-000000000000")).toThrow(
        /recipes were not opened/,
      );
    } finally {
      await l.close();
    }
  });

  it("answers as a usual open once the recipes are read", async () => {
    const l = await open({ recipes: "when-needed" });
    try {
      await Promise.all([l.openRecipes(), l.openRecipes()]);
      expect(
        l.recipes.store
          .all()
          .map((e) => e.doc.name)
          .sort(),
      ).toEqual(["Dish 0", "Dish 1", "Dish 2", "Dish 3", "Dish 4"]);
    } finally {
      await l.close();
    }
  });

  it("leaves the recipes' cache untouched when they were never read", async () => {
    const before = await cacheFiles();
    expect(before.size).toBeGreaterThan(0);
    const l = await open({ recipes: "when-needed" });
    await l.close();
    expect(await cacheFiles()).toEqual(before);
    // And the next usual open still finds every recipe.
    const again = await open();
    try {
      expect(again.recipes.store.all()).toHaveLength(5);
    } finally {
      await again.close();
    }
  });
});
