/**
 * Seed aliases added to Larder after a group was seeded, given to that group on start (decision 0251).
 * A group is seeded once (seed.ts), so an alias added to templates/seed/ later ("sea salt flakes" for
 * sea salt) reached only groups created after it. Adding it overwrites nothing the group edited when:
 *
 * - the food is still the seeded one: its id derives from the group and the seed's name, its name is
 *   the seed's, and it was never edited through the API (updatedAt is createdAt);
 * - the alias names no other food of the group (by name, plural or alias), so it takes no match away;
 * - the seed changed since the group was last offered its aliases: foods.json records the seed's
 *   fingerprint, so an alias a person deletes in a text editor (which moves no updatedAt) is not put
 *   back on the next start — only a seed that changed again offers its aliases again.
 *
 * Only aliases: foods and units the seed gained are not added, since a group may have deleted them.
 */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { GroupData } from "../groups/registry.js";
import { seedFoodId } from "./seed.js";

interface SeedFood {
  name: string;
  aliases?: (string | { name: string })[];
}

/**
 * The seed's fingerprint, a hash of its foods files' bytes, and every locale's seed foods, parsed only
 * when asked: a start where every group already has this fingerprint parses no seed at all.
 */
export interface SeedAliases {
  fingerprint: string;
  locales(): SeedFood[][];
}

/**
 * The seed foods under `seedRoot` (templates/seed), or null when there is no seed to offer. `parse` is
 * the parser the locales are read with when a top-up is due (a test counts its calls).
 */
export async function readSeedAliases(
  seedRoot: string,
  parse: (text: string) => SeedFood[] = (text) => JSON.parse(text) as SeedFood[],
): Promise<SeedAliases | null> {
  let names: string[];
  try {
    names = (await readdir(seedRoot)).sort();
  } catch {
    return null;
  }
  const hash = createHash("sha256");
  let files: Buffer[] = [];
  for (const locale of names) {
    let bytes: Buffer;
    try {
      bytes = await readFile(join(seedRoot, locale, "foods.json"));
    } catch {
      continue;
    }
    // The bytes the decoded text hashed to before, so groups keep the fingerprint they recorded.
    hash.update(`${locale}\u0000`).update(bytes).update("\u0000");
    files.push(bytes);
  }
  if (!files.length) return null;
  let locales: SeedFood[][] | null = null;
  return {
    fingerprint: hash.digest("hex").slice(0, 16),
    locales() {
      if (!locales) {
        locales = files.map((bytes) => parse(bytes.toString("utf8")));
        files = [];
      }
      return locales;
    },
  };
}

const key = (s: string) => s.trim().toLowerCase();
const aliasNames = (f: SeedFood) => (f.aliases ?? []).map((a) => (typeof a === "string" ? a : a.name));

/**
 * The seed locale the group's foods came from: the one whose foods' derived ids the group holds most
 * of (two locales may share a name, "tofu", whose aliases differ).
 */
function groupSeed(g: GroupData, seed: SeedAliases): SeedFood[] {
  const groupId = g.doc.data.id;
  const ids = new Set(g.foods.data.foods.map((f) => f.id));
  let best: SeedFood[] = [];
  let bestCount = 0;
  for (const foods of seed.locales()) {
    const count = foods.filter((f) => ids.has(seedFoodId(groupId, f.name))).length;
    if (count > bestCount) [best, bestCount] = [foods, count];
  }
  return best;
}

/** Records that the group has been offered this seed's aliases (a group just seeded from it has). */
export async function markSeedAliasesOffered(g: GroupData, seed: SeedAliases | null): Promise<void> {
  if (!seed || g.foods.data.seedAliases === seed.fingerprint) return;
  await g.foods.update((d) => {
    d.seedAliases = seed.fingerprint;
  });
}

/**
 * Gives the group's untouched seeded foods the seed aliases they lack, once per change of the seed;
 * returns how many were added. A start after the seed last changed reads and writes nothing.
 */
export async function topUpSeedAliases(g: GroupData, seed: SeedAliases | null): Promise<number> {
  if (!seed || g.foods.data.seedAliases === seed.fingerprint) return 0;
  // A group without foods has nothing to top up, and nothing to record it by.
  if (g.foods.data.foods.length === 0) return 0;
  // A group with foods but none seeded (made by a migration, or with seeding off) gets no alias, but
  // the fingerprint is recorded all the same, so later starts do not hash every seed food again.
  const foodsOfSeed = groupSeed(g, seed);
  const groupId = g.doc.data.id;
  const plan = (foods: GroupData["foods"]["data"]["foods"]) => {
    const owner = new Map<string, string>();
    for (const f of foods)
      for (const name of [f.name, f.pluralName, ...f.aliases.map((a) => a.name)])
        if (name?.trim() && !owner.has(key(name))) owner.set(key(name), f.id);
    const adds = new Map<string, string[]>();
    const byId = new Map(foods.map((f) => [f.id, f]));
    for (const s of foodsOfSeed) {
      const id = seedFoodId(groupId, s.name);
      const food = byId.get(id);
      if (!food || food.name !== s.name || food.updatedAt !== food.createdAt) continue;
      const missing = aliasNames(s).filter((a) => a.trim() && !owner.has(key(a)));
      for (const a of missing) owner.set(key(a), id);
      if (missing.length > 0) adds.set(id, missing);
    }
    return adds;
  };
  let added = 0;
  await g.foods.update((d) => {
    for (const [id, names] of plan(d.foods)) {
      const food = d.foods.find((f) => f.id === id)!;
      food.aliases.push(...names.map((name) => ({ name })));
      added += names.length;
    }
    d.seedAliases = seed.fingerprint;
  });
  return added;
}
