/**
 * Seeding a group's labels, units and foods from `templates/seed/<locale>/` (Larder's own lists).
 * Ids derive from group and name, so two machines seeding the same group agree (git-synced folders).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { GroupData } from "../groups/registry.js";
import { FoodRecord, LabelRecord, UnitRecord } from "../schemas/records.js";
import { derivedId } from "../util/ids.js";
import { slugify } from "../util/slug.js";

interface SeedFood {
  name: string;
  pluralName?: string | null;
  aliases?: (string | { name: string })[];
  label?: string | null;
}

async function readList<T>(dir: string, name: string): Promise<T[]> {
  try {
    return JSON.parse(await readFile(join(dir, name), "utf8")) as T[];
  } catch {
    return [];
  }
}

/** The id a seeded food has in a group: a top-up finds the seeded foods by it (seed-top-up.ts). */
export const seedFoodId = (groupId: string, name: string): string =>
  derivedId(groupId, "food", slugify(name));

const aliasList = (a: (string | { name: string })[] | undefined) =>
  (a ?? []).map((x) => ({ name: typeof x === "string" ? x : x.name }));

/** Adds what is missing (by name, case-insensitive); returns how many items were added per kind. */
export async function seedGroup(
  g: GroupData,
  seedDir: string,
  kinds: ("labels" | "units" | "foods")[] = ["labels", "units", "foods"],
  now = new Date().toISOString(),
): Promise<{ labels: number; units: number; foods: number }> {
  const groupId = g.doc.data.id;
  const added = { labels: 0, units: 0, foods: 0 };
  if (kinds.includes("labels")) {
    const labels = await readList<{ name: string; color?: string }>(seedDir, "labels.json");
    await g.labels.update((d) => {
      const have = new Set(d.labels.map((l) => l.name.toLowerCase()));
      for (const l of labels) {
        if (have.has(l.name.toLowerCase())) continue;
        have.add(l.name.toLowerCase());
        d.labels.push(
          LabelRecord.parse({
            id: derivedId(groupId, "label", slugify(l.name)),
            name: l.name,
            color: l.color ?? "#959595",
            createdAt: now,
            updatedAt: now,
          }),
        );
        added.labels++;
      }
    });
  }
  if (kinds.includes("units")) {
    const units = await readList<Record<string, unknown> & { name: string }>(seedDir, "units.json");
    await g.units.update((d) => {
      const have = new Set(d.units.map((u) => u.name.toLowerCase()));
      for (const u of units) {
        if (have.has(u.name.toLowerCase())) continue;
        have.add(u.name.toLowerCase());
        d.units.push(
          UnitRecord.parse({
            ...u,
            aliases: aliasList(u.aliases as SeedFood["aliases"]),
            id: derivedId(groupId, "unit", slugify(u.name)),
            createdAt: now,
            updatedAt: now,
          }),
        );
        added.units++;
      }
    });
  }
  if (kinds.includes("foods")) {
    const foods = await readList<SeedFood>(seedDir, "foods.json");
    const labelByName = new Map(g.labels.data.labels.map((l) => [l.name.toLowerCase(), l.id]));
    await g.foods.update((d) => {
      const have = new Set(d.foods.map((f) => f.name.toLowerCase()));
      for (const f of foods) {
        if (have.has(f.name.toLowerCase())) continue;
        have.add(f.name.toLowerCase());
        d.foods.push(
          FoodRecord.parse({
            id: seedFoodId(groupId, f.name),
            name: f.name,
            pluralName: f.pluralName ?? null,
            aliases: aliasList(f.aliases),
            labelId: f.label ? (labelByName.get(f.label.toLowerCase()) ?? null) : null,
            createdAt: now,
            updatedAt: now,
          }),
        );
        added.foods++;
      }
    });
  }
  return added;
}
