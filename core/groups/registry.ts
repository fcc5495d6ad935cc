/**
 * Groups and households of a data folder, with each group's JSON documents (organizers, foods, units,
 * labels). Folder names are fixed at creation: renaming changes the name, not the folder.
 */
import { mkdir, readdir } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { JsonDoc } from "../storage/json-doc.js";
import type { DataFolder } from "../storage/data-folder.js";
import {
  FoodsDoc,
  GroupRecord,
  HouseholdRecord,
  LabelsDoc,
  OrganizersDoc,
  UnitsDoc,
} from "../schemas/records.js";
import type { z } from "zod";
import { newId } from "../util/ids.js";
import { fileSlug } from "../util/slug.js";

export interface HouseholdData {
  slug: string;
  doc: JsonDoc<HouseholdRecord>;
}

export interface GroupData {
  slug: string;
  doc: JsonDoc<GroupRecord>;
  organizers: JsonDoc<z.infer<typeof OrganizersDoc>>;
  foods: JsonDoc<z.infer<typeof FoodsDoc>>;
  units: JsonDoc<z.infer<typeof UnitsDoc>>;
  labels: JsonDoc<z.infer<typeof LabelsDoc>>;
  households: Map<string, HouseholdData>;
}

export class GroupsRegistry {
  private bySlug = new Map<string, GroupData>();

  constructor(private folder: DataFolder) {}

  async open(): Promise<void> {
    const root = this.folder.groupsDir;
    await mkdir(root, { recursive: true });
    for (const slug of await listDirs(root)) {
      try {
        await this.load(slug);
      } catch {
        // A folder that is not a valid group (bad name, no group.json) is skipped; `larder check` reports it.
      }
    }
  }

  private async load(slug: string): Promise<GroupData | null> {
    const f = this.folder;
    const tmpDir = f.tmpDir;
    if (!existsSync(f.groupJson(slug))) return null;
    const doc = await JsonDoc.open(f.groupJson(slug), { schema: GroupRecord, tmpDir, defaults: () => null as never });
    const g: GroupData = {
      slug,
      doc,
      organizers: await JsonDoc.open(f.organizersJson(slug), { schema: OrganizersDoc, tmpDir, defaults: () => OrganizersDoc.parse({}) }),
      foods: await JsonDoc.open(f.foodsJson(slug), { schema: FoodsDoc, tmpDir, defaults: () => FoodsDoc.parse({}) }),
      units: await JsonDoc.open(f.unitsJson(slug), { schema: UnitsDoc, tmpDir, defaults: () => UnitsDoc.parse({}) }),
      labels: await JsonDoc.open(f.labelsJson(slug), { schema: LabelsDoc, tmpDir, defaults: () => LabelsDoc.parse({}) }),
      households: new Map(),
    };
    for (const hslug of await listDirs(join(f.groupDir(slug), "households"))) {
      if (!existsSync(f.householdJson(slug, hslug))) continue;
      try {
        const hdoc = await JsonDoc.open(f.householdJson(slug, hslug), {
          schema: HouseholdRecord,
          tmpDir,
          defaults: () => null as never,
        });
        g.households.set(hslug, { slug: hslug, doc: hdoc });
      } catch {
        // skipped like a broken group folder
      }
    }
    this.bySlug.set(slug, g);
    return g;
  }

  all(): GroupData[] {
    return [...this.bySlug.values()];
  }
  bySlugOrNull(slug: string): GroupData | null {
    return this.bySlug.get(slug) ?? null;
  }
  byId(id: string): GroupData | null {
    for (const g of this.bySlug.values()) if (g.doc.data.id === id) return g;
    return null;
  }
  household(groupId: string, householdId: string): HouseholdData | null {
    const g = this.byId(groupId);
    if (!g) return null;
    for (const h of g.households.values()) if (h.doc.data.id === householdId) return h;
    return null;
  }
  householdById(householdId: string): { group: GroupData; household: HouseholdData } | null {
    for (const g of this.bySlug.values())
      for (const h of g.households.values()) if (h.doc.data.id === householdId) return { group: g, household: h };
    return null;
  }

  /** Create a group (unique slug; a clash renames it "Name (1)") with its first household. */
  async createGroup(name: string, householdName = "Family", now = new Date().toISOString()): Promise<GroupData> {
    let finalName = name;
    let slug = fileSlug(name);
    for (let i = 1; this.bySlug.has(slug) || this.byNameTaken(finalName); i++) {
      finalName = `${name} (${i})`;
      slug = fileSlug(finalName);
    }
    const f = this.folder;
    await mkdir(f.recipesDir(slug), { recursive: true });
    const rec = GroupRecord.parse({ id: newId(), name: finalName, slug, preferencesId: newId(), createdAt: now, updatedAt: now });
    const doc = await JsonDoc.open(f.groupJson(slug), { schema: GroupRecord, tmpDir: f.tmpDir, defaults: () => rec });
    await doc.update((d) => Object.assign(d, rec));
    const g = await this.load(slug);
    if (!g) throw new Error(`could not create group ${slug}`);
    await this.createHousehold(g, householdName, now);
    return g;
  }

  private byNameTaken(name: string): boolean {
    const lower = name.toLowerCase();
    return this.all().some((g) => g.doc.data.name.toLowerCase() === lower);
  }

  async createHousehold(g: GroupData, name: string, now = new Date().toISOString()): Promise<HouseholdData> {
    let finalName = name;
    let slug = fileSlug(name);
    const taken = (s: string, n: string) =>
      g.households.has(s) || [...g.households.values()].some((h) => h.doc.data.name.toLowerCase() === n.toLowerCase());
    for (let i = 1; taken(slug, finalName); i++) {
      finalName = `${name} (${i})`;
      slug = fileSlug(finalName);
    }
    const f = this.folder;
    const rec = HouseholdRecord.parse({
      id: newId(),
      groupId: g.doc.data.id,
      name: finalName,
      slug,
      preferencesId: newId(),
      createdAt: now,
      updatedAt: now,
    });
    await mkdir(join(f.groupDir(g.slug), "households", slug), { recursive: true });
    const doc = await JsonDoc.open(f.householdJson(g.slug, slug), { schema: HouseholdRecord, tmpDir: f.tmpDir, defaults: () => rec });
    await doc.update((d) => Object.assign(d, rec));
    const h = { slug, doc };
    g.households.set(slug, h);
    return h;
  }

  /** Every JSON document, for the watcher. */
  docs(): { reload(): Promise<unknown>; path: string }[] {
    const out: { reload(): Promise<unknown>; path: string }[] = [];
    for (const g of this.bySlug.values()) {
      out.push(g.doc, g.organizers, g.foods, g.units, g.labels);
      for (const h of g.households.values()) out.push(h.doc);
    }
    return out;
  }
}

async function listDirs(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((e) => e.isDirectory() && /^[a-z0-9][a-z0-9-]*$/.test(e.name)).map((e) => e.name).sort();
  } catch {
    return [];
  }
}
