/**
 * Seed aliases added to Larder after a group was seeded, given to that group on start (decision 0251).
 * A group is seeded once (seed.ts), so an alias added to templates/seed/ later ("sea salt flakes" for
 * sea salt) reached only groups created after it. Adding it overwrites nothing the group edited when:
 *
 * - the food is still the seeded one: its id derives from the group and the seed's name, its name is
 *   the seed's, and it was never edited (updatedAt is createdAt; every edit moves updatedAt);
 * - the alias names no other food of the group (by name, plural or alias), so it takes no match away;
 * - updatedAt stays as it is, so the food still reads as never edited and a later seed alias reaches it
 *   too, while an alias the group removes afterwards (an edit) is never put back.
 *
 * Only aliases: foods and units the seed gained are not added, since a group may have deleted them.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { GroupData } from "../groups/registry.js";
import { derivedId } from "../util/ids.js";
import { slugify } from "../util/slug.js";

interface SeedFood {
  name: string;
  aliases?: (string | { name: string })[];
}

async function seedFoods(dir: string): Promise<SeedFood[]> {
  try {
    return JSON.parse(await readFile(join(dir, "foods.json"), "utf8")) as SeedFood[];
  } catch {
    return [];
  }
}

const key = (s: string) => s.trim().toLowerCase();
const aliasNames = (f: SeedFood) => (f.aliases ?? []).map((a) => (typeof a === "string" ? a : a.name));

/**
 * The seed locale the group's foods came from: the one whose foods' derived ids the group holds most
 * of (two locales may share a name, "tofu", whose aliases differ).
 */
async function groupSeed(g: GroupData, seedRoot: string): Promise<SeedFood[]> {
  const groupId = g.doc.data.id;
  const ids = new Set(g.foods.data.foods.map((f) => f.id));
  let best: SeedFood[] = [];
  let bestCount = 0;
  let locales: string[] = [];
  try {
    locales = (await readdir(seedRoot)).sort();
  } catch {
    return [];
  }
  for (const locale of locales) {
    const foods = await seedFoods(join(seedRoot, locale));
    const count = foods.filter((f) => ids.has(derivedId(groupId, "food", slugify(f.name)))).length;
    if (count > bestCount) [best, bestCount] = [foods, count];
  }
  return best;
}

/** Gives the group's untouched seeded foods the seed aliases they lack; returns how many were added. */
export async function topUpSeedAliases(g: GroupData, seedRoot: string): Promise<number> {
  const seed = await groupSeed(g, seedRoot);
  if (seed.length === 0) return 0;
  const groupId = g.doc.data.id;
  const plan = (foods: GroupData["foods"]["data"]["foods"]) => {
    const owner = new Map<string, string>();
    for (const f of foods)
      for (const name of [f.name, f.pluralName, ...f.aliases.map((a) => a.name)])
        if (name?.trim() && !owner.has(key(name))) owner.set(key(name), f.id);
    const adds = new Map<string, string[]>();
    const byId = new Map(foods.map((f) => [f.id, f]));
    for (const s of seed) {
      const id = derivedId(groupId, "food", slugify(s.name));
      const food = byId.get(id);
      if (!food || food.name !== s.name || food.updatedAt !== food.createdAt) continue;
      const missing = aliasNames(s).filter((a) => a.trim() && !owner.has(key(a)));
      for (const a of missing) owner.set(key(a), id);
      if (missing.length > 0) adds.set(id, missing);
    }
    return adds;
  };
  // Written only when something is added: a start that adds nothing touches no file.
  if (plan(g.foods.data.foods).size === 0) return 0;
  let added = 0;
  await g.foods.update((d) => {
    for (const [id, names] of plan(d.foods)) {
      const food = d.foods.find((f) => f.id === id)!;
      food.aliases.push(...names.map((name) => ({ name })));
      added += names.length;
    }
  });
  return added;
}
