/**
 * Seed aliases added after a group was seeded reach it on start, for the foods it never edited, and
 * nothing the group edited is changed (decision 0251).
 */
import { afterEach, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Larder } from "../larder.js";
import { loadConfig } from "../config.js";
import { consoleLogger } from "../log/logger.js";
import { readSeedAliases, topUpSeedAliases } from "./seed-top-up.js";

let dir: string | null = null;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = null;
});

const open = (dataDir: string) =>
  Larder.open(loadConfig({} as NodeJS.ProcessEnv, { dataDir, production: false, bcryptRounds: 4 }), {
    log: consoleLogger("silent"),
  });

const seedRoot = fileURLToPath(new URL("../../templates/seed", import.meta.url));

/** The one group's foods.json. */
const foodsJson = async (dataDir: string) =>
  join(
    dataDir,
    (await readdir(dataDir, { recursive: true })).find((p) => p.endsWith("foods.json"))!,
  );

/** Whether one more start and stop of Larder on the folder writes its foods.json. */
async function startWritesFoods(dataDir: string): Promise<boolean> {
  const file = await foodsJson(dataDir);
  const before = (await stat(file)).mtimeMs;
  await (await open(dataDir)).close();
  return (await stat(file)).mtimeMs !== before;
}

describe("seed aliases for a group seeded before they were added", () => {
  it("are added on start to untouched seeded foods, never to an edited one, nor taken from another food", async () => {
    dir = await mkdtemp(join(tmpdir(), "larder-seed-top-up-"));
    const dataDir = join(dir, "data");
    let larder = await open(dataDir);
    const g = larder.groups.all()[0];
    const food = (name: string) => g.foods.data.foods.find((f) => f.name === name)!;
    expect(food("sea salt").aliases.map((a) => a.name)).toContain("sea salt flakes");
    // The group as an older seed left it: without the aliases added since; then its own edits.
    const old = "2026-01-01T00:00:00.000Z";
    await g.foods.update((d) => {
      // Seeded by an older Larder, which recorded no seed fingerprint.
      delete d.seedAliases;
      for (const f of d.foods) {
        if (f.name === "sea salt" || f.name === "bacon" || f.name === "self-rising flour")
          f.aliases = f.aliases.filter((a) => !/flakes|back bacon|self/.test(a.name));
        f.createdAt = f.updatedAt = old;
      }
      // Edited by the group: no alias of the seed's is put back.
      const bacon = d.foods.find((f) => f.name === "bacon")!;
      bacon.updatedAt = "2026-02-01T00:00:00.000Z";
      // A food of the group's own that already answers to one of the new aliases keeps it.
      d.foods.push({
        ...bacon,
        id: "own-flour",
        name: "self raising flour",
        aliases: [],
        createdAt: old,
        updatedAt: old,
      });
    });
    await larder.close();

    larder = await open(dataDir);
    const after = (name: string) => larder.groups.all()[0].foods.data.foods.find((f) => f.name === name)!;
    expect(after("sea salt").aliases.map((a) => a.name)).toEqual([
      "flaky salt",
      "flaky sea salt",
      "sea salt flakes",
    ]);
    // Still untouched, so a later seed alias reaches it too.
    expect(after("sea salt").updatedAt).toBe(old);
    expect(after("bacon").aliases.map((a) => a.name)).not.toContain("back bacon");
    expect(after("self raising flour").aliases).toEqual([]);
    expect(after("self-rising flour").aliases.map((a) => a.name)).toEqual([
      "self-raising flour",
      "self rising flour",
    ]);
    await larder.close();

    // A start with nothing to add writes nothing.
    expect(await startWritesFoods(dataDir)).toBe(false);
  }, 60_000);

  it("records the seed it checked on a group with no seeded food, so the next start checks nothing", async () => {
    dir = await mkdtemp(join(tmpdir(), "larder-seed-top-up-"));
    const dataDir = join(dir, "data");
    let larder = await open(dataDir);
    await larder.groups.all()[0].foods.update((d) => {
      // Foods a migration brought, none of them the seed's.
      d.foods = [{ ...d.foods[0], id: "own-food", name: "quinoa flakes", aliases: [] }];
      delete d.seedAliases;
    });
    await larder.close();
    larder = await open(dataDir);
    const foods = larder.groups.all()[0].foods.data;
    expect(foods.foods.map((f) => [f.name, f.aliases])).toEqual([["quinoa flakes", []]]);
    expect(foods.seedAliases).toMatch(/^[0-9a-f]{16}$/);
    await larder.close();
    expect(await startWritesFoods(dataDir)).toBe(false);
  }, 60_000);

  it("never puts back an alias a person deleted in a text editor, which moves no updatedAt", async () => {
    dir = await mkdtemp(join(tmpdir(), "larder-seed-top-up-"));
    const dataDir = join(dir, "data");
    let larder = await open(dataDir);
    const foodsPath = await foodsJson(dataDir);
    await larder.close();
    // The hand edit: the alias goes, nothing else in the file changes.
    const text = await readFile(foodsPath, "utf8");
    const doc = JSON.parse(text) as { foods: { name: string; aliases: { name: string }[] }[] };
    const salt = doc.foods.find((f) => f.name === "sea salt")!;
    salt.aliases = salt.aliases.filter((a) => a.name !== "sea salt flakes");
    await writeFile(foodsPath, JSON.stringify(doc, null, 2));
    larder = await open(dataDir);
    const after = larder.groups.all()[0].foods.data.foods.find((f) => f.name === "sea salt")!;
    expect(after.aliases.map((a) => a.name)).not.toContain("sea salt flakes");
    await larder.close();
  }, 60_000);

  it("parses no seed for a group already offered it, and only once for a group it is new to", async () => {
    dir = await mkdtemp(join(tmpdir(), "larder-seed-top-up-"));
    const larder = await open(join(dir, "data"));
    try {
      const g = larder.groups.all()[0];
      let parsed = 0;
      const seed = await readSeedAliases(seedRoot, (text) => {
        parsed++;
        return JSON.parse(text) as [];
      });
      expect(g.foods.data.seedAliases).toBe(seed!.fingerprint);
      expect(await topUpSeedAliases(g, seed)).toBe(0);
      expect(parsed).toBe(0);
      // Offered an older seed: this one is parsed, once for all groups it is new to.
      await g.foods.update((d) => {
        d.seedAliases = "0000000000000000";
      });
      await topUpSeedAliases(g, seed);
      const locales = parsed;
      expect(locales).toBeGreaterThan(0);
      await g.foods.update((d) => {
        d.seedAliases = "0000000000000000";
      });
      await topUpSeedAliases(g, seed);
      expect(parsed).toBe(locales);
    } finally {
      await larder.close();
    }
  }, 60_000);

  it("keeps the fingerprint an earlier Larder recorded, which hashed the seed's decoded text", async () => {
    const old = createHash("sha256");
    for (const locale of (await readdir(seedRoot)).sort())
      old.update(`${locale}\u0000${await readFile(join(seedRoot, locale, "foods.json"), "utf8")}\u0000`);
    expect((await readSeedAliases(seedRoot))!.fingerprint).toBe(old.digest("hex").slice(0, 16));
  });
});
