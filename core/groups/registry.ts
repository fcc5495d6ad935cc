/**
 * Groups and households of a data folder, with each group's JSON documents (organizers, foods, units,
 * labels). Folder names are fixed at creation: renaming changes the name, not the folder.
 */
import { mkdir, readdir, rename } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { JsonDoc } from "../storage/json-doc.js";
import type { DataFolder } from "../storage/data-folder.js";
import {
  FoodsDoc,
  GroupPreferences,
  GroupRecord,
  HouseholdPreferences,
  HouseholdRecord,
  LabelsDoc,
  OrganizersDoc,
  UnitsDoc,
} from "../schemas/records.js";
import type { z } from "zod";
import { newId } from "../util/ids.js";
import type { Actor } from "../actor.js";
import type { UserRecord } from "../schemas/records.js";
import { NotFoundError, UnauthorizedError } from "../errors.js";
import { fileSlug, MAX_SLUG_LENGTH } from "../util/slug.js";

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
  /**
   * Folder names of groups ("slug") and households ("group/slug") removed while this process runs.
   * They are not handed out again until a restart: services that cache a group's documents by path
   * would otherwise carry the old group's data into a new one of the same name.
   */
  private retired = new Set<string>();

  /**
   * group.json and household.json files that could not be read when the folder opened: their group or
   * household is left out (never written) until the file is fixed and the server restarted, and
   * `larder check` and the problems list name them.
   */
  private unreadable: Array<{ path: string; message: string }> = [];

  constructor(private folder: DataFolder) {}

  broken(): Array<{ path: string; message: string }> {
    return this.unreadable;
  }

  async open(): Promise<void> {
    const root = this.folder.groupsDir;
    this.unreadable = [];
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
    const doc = await JsonDoc.open(f.groupJson(slug), {
      schema: GroupRecord,
      tmpDir,
      defaults: () => null as never,
      reportsOwnBreakage: true,
      writtenBackWhenDeleted: true,
    });
    if (doc.broken || !doc.data) {
      this.unreadable.push({ path: f.groupJson(slug), message: doc.broken?.message ?? "empty" });
      return null;
    }
    const g: GroupData = {
      slug,
      doc,
      organizers: await JsonDoc.open(f.organizersJson(slug), {
        schema: OrganizersDoc,
        tmpDir,
        defaults: () => OrganizersDoc.parse({}),
      }),
      foods: await JsonDoc.open(f.foodsJson(slug), {
        schema: FoodsDoc,
        tmpDir,
        defaults: () => FoodsDoc.parse({}),
      }),
      units: await JsonDoc.open(f.unitsJson(slug), {
        schema: UnitsDoc,
        tmpDir,
        defaults: () => UnitsDoc.parse({}),
      }),
      labels: await JsonDoc.open(f.labelsJson(slug), {
        schema: LabelsDoc,
        tmpDir,
        defaults: () => LabelsDoc.parse({}),
      }),
      households: new Map(),
    };
    for (const hslug of await listDirs(join(f.groupDir(slug), "households"))) {
      try {
        // Inside the try: a `households/` replaced by a symlink leaves its households out, not the group.
        if (!existsSync(f.householdJson(slug, hslug))) continue;
        const hdoc = await JsonDoc.open(f.householdJson(slug, hslug), {
          schema: HouseholdRecord,
          tmpDir,
          defaults: () => null as never,
          reportsOwnBreakage: true,
          writtenBackWhenDeleted: true,
        });
        if (hdoc.broken || !hdoc.data) {
          this.unreadable.push({
            path: f.householdJson(slug, hslug),
            message: hdoc.broken?.message ?? "empty",
          });
          continue;
        }
        g.households.set(hslug, { slug: hslug, doc: hdoc });
      } catch {
        // skipped like a broken group folder
      }
    }
    this.bySlug.set(slug, g);
    return g;
  }

  /**
   * The signed-in caller's group and household: every group- or household-scoped operation starts here,
   * so scoping has one definition. The public is a 401; a caller whose folders are gone is a 404.
   */
  scopeOf(actor: Actor): { user: UserRecord; group: GroupData; household: HouseholdData } {
    if (actor.kind !== "user") throw new UnauthorizedError();
    const group = this.byId(actor.user.groupId);
    const household = group ? this.household(actor.user.groupId, actor.user.householdId) : null;
    if (!group) throw new NotFoundError("group not found");
    if (!household) throw new NotFoundError("household not found");
    return { user: actor.user, group, household };
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
      for (const h of g.households.values())
        if (h.doc.data.id === householdId) return { group: g, household: h };
    return null;
  }

  /** A group by name (case-insensitive) or slug. */
  byName(name: string): GroupData | null {
    const l = name.trim().toLowerCase();
    return this.all().find((g) => g.doc.data.name.toLowerCase() === l) ?? this.bySlug.get(l) ?? null;
  }

  /** A household of a group by id, slug or name (case-insensitive). */
  householdIn(g: GroupData, idSlugOrName: string): HouseholdData | null {
    const l = idSlugOrName.trim().toLowerCase();
    const all = [...g.households.values()];
    return (
      all.find((h) => h.doc.data.id === idSlugOrName) ??
      g.households.get(l) ??
      all.find((h) => h.doc.data.name.toLowerCase() === l) ??
      null
    );
  }

  /** The group's default household: "Family" (by slug) if it has one, else its oldest. */
  defaultHousehold(g: GroupData): HouseholdData | null {
    return g.households.get("family") ?? [...g.households.values()].sort(byCreation)[0] ?? null;
  }

  /**
   * Creations of groups and households, one after another: each picks its name ("Name (1)") and its
   * folder from what is there, then waits for the disk. Two at once both took the same folder, and the
   * second's group.json replaced the first's: a group answered 201 was gone.
   */
  private creations: Promise<unknown> = Promise.resolve();

  private oneAtATime<T>(make: () => Promise<T>): Promise<T> {
    const run = this.creations.then(make, make);
    this.creations = run.catch(() => undefined);
    return run;
  }

  /**
   * Create a group with its first household. A taken name becomes "Name (1)"; the folder name is the
   * name's slug, with "-1", "-2"… when that folder exists or was used since the start.
   */
  createGroup(
    name: string,
    householdName = "Family",
    now = new Date().toISOString(),
    prefs: { group?: Partial<GroupPreferences>; household?: Partial<HouseholdPreferences> } = {},
  ): Promise<GroupData> {
    return this.oneAtATime(() => this.makeGroup(name, householdName, now, prefs));
  }

  createHousehold(
    g: GroupData,
    name: string,
    now = new Date().toISOString(),
    prefs: Partial<HouseholdPreferences> = {},
  ): Promise<HouseholdData> {
    return this.oneAtATime(() => this.makeHousehold(g, name, now, prefs));
  }

  private async makeGroup(
    name: string,
    householdName: string,
    now: string,
    prefs: { group?: Partial<GroupPreferences>; household?: Partial<HouseholdPreferences> },
  ): Promise<GroupData> {
    let finalName = name;
    for (let i = 1; this.byNameTaken(finalName); i++) finalName = `${name} (${i})`;
    const f = this.folder;
    const slug = freeSlug(
      fileSlug(finalName),
      (s) => this.bySlug.has(s) || this.retired.has(s) || existsSync(f.groupDir(s)),
    );
    await mkdir(f.recipesDir(slug), { recursive: true });
    const rec = GroupRecord.parse({
      id: newId(),
      name: finalName,
      slug,
      preferences: GroupPreferences.parse(prefs.group ?? {}),
      preferencesId: newId(),
      createdAt: now,
      updatedAt: now,
    });
    const doc = await JsonDoc.open(f.groupJson(slug), {
      schema: GroupRecord,
      tmpDir: f.tmpDir,
      defaults: () => rec,
    });
    await doc.update((d) => Object.assign(d, rec));
    const g = await this.load(slug);
    if (!g) throw new Error(`could not create group ${slug}`);
    await this.makeHousehold(g, householdName, now, prefs.household ?? {});
    return g;
  }

  private byNameTaken(name: string): boolean {
    const lower = name.toLowerCase();
    return this.all().some((g) => g.doc.data.name.toLowerCase() === lower);
  }

  private async makeHousehold(
    g: GroupData,
    name: string,
    now: string,
    prefs: Partial<HouseholdPreferences>,
  ): Promise<HouseholdData> {
    let finalName = name;
    const nameTaken = (n: string) =>
      [...g.households.values()].some((h) => h.doc.data.name.toLowerCase() === n.toLowerCase());
    for (let i = 1; nameTaken(finalName); i++) finalName = `${name} (${i})`;
    const f = this.folder;
    const slug = freeSlug(
      fileSlug(finalName),
      (s) =>
        g.households.has(s) || this.retired.has(`${g.slug}/${s}`) || existsSync(f.householdDir(g.slug, s)),
    );
    const rec = HouseholdRecord.parse({
      id: newId(),
      groupId: g.doc.data.id,
      name: finalName,
      slug,
      preferences: HouseholdPreferences.parse(prefs),
      preferencesId: newId(),
      createdAt: now,
      updatedAt: now,
    });
    await mkdir(join(f.groupDir(g.slug), "households", slug), { recursive: true });
    const doc = await JsonDoc.open(f.householdJson(g.slug, slug), {
      schema: HouseholdRecord,
      tmpDir: f.tmpDir,
      defaults: () => rec,
      reportsOwnBreakage: true,
      writtenBackWhenDeleted: true,
    });
    await doc.update((d) => Object.assign(d, rec));
    const h = { slug, doc };
    g.households.set(slug, h);
    return h;
  }

  /** Rename a group and/or change its preferences; the folder keeps its name (ARCHITECTURE §2). */
  async updateGroup(
    g: GroupData,
    patch: { name?: string; preferences?: Partial<GroupPreferences> },
  ): Promise<GroupRecord> {
    await g.doc.update((d) => {
      if (patch.name !== undefined) d.name = patch.name;
      if (patch.preferences)
        d.preferences = GroupPreferences.parse({ ...d.preferences, ...patch.preferences });
      d.updatedAt = new Date().toISOString();
    });
    return g.doc.data;
  }

  /** Rename a household and/or change its preferences; the folder keeps its name. */
  async updateHousehold(
    h: HouseholdData,
    patch: { name?: string; preferences?: Partial<HouseholdPreferences> },
  ): Promise<HouseholdRecord> {
    await h.doc.update((d) => {
      if (patch.name !== undefined) d.name = patch.name;
      if (patch.preferences)
        d.preferences = HouseholdPreferences.parse({ ...d.preferences, ...patch.preferences });
      d.updatedAt = new Date().toISOString();
    });
    return h.doc.data;
  }

  /**
   * Take a group out of the folder. Its folder is moved to `.larder/trash/` rather than erased: it
   * may hold hand-written recipe files, and an admin's click should not be the only copy's end.
   * The caller checks the deletion rules (core/policy/groups.ts) and updates the recipe index.
   */
  async removeGroup(g: GroupData): Promise<void> {
    await Promise.all(
      [g.doc, g.organizers, g.foods, g.units, g.labels, ...[...g.households.values()].map((h) => h.doc)].map(
        (d) => d.idle(),
      ),
    );
    await this.moveToTrash(this.folder.groupDir(g.slug), `group-${g.slug}`);
    this.bySlug.delete(g.slug);
    this.retired.add(g.slug);
  }

  /** Take a household out of its group (moved to `.larder/trash/` like a group). */
  async removeHousehold(g: GroupData, h: HouseholdData): Promise<void> {
    await h.doc.idle();
    await this.moveToTrash(this.folder.householdDir(g.slug, h.slug), `household-${g.slug}-${h.slug}`);
    g.households.delete(h.slug);
    this.retired.add(`${g.slug}/${h.slug}`);
  }

  private async moveToTrash(dir: string, label: string): Promise<void> {
    const trash = join(this.folder.privateDir, "trash");
    await mkdir(trash, { recursive: true, mode: 0o700 });
    const stamp = new Date().toISOString().replace(/[:.]/g, "-");
    await rename(dir, join(trash, `${label}-${stamp}-${newId().slice(0, 8)}`));
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

/** `base`, else `base-1`, `base-2`… : the first folder name `taken` does not refuse. */
function freeSlug(base: string, taken: (slug: string) => boolean): string {
  let slug = base;
  for (let i = 1; taken(slug); i++) slug = `${base.slice(0, MAX_SLUG_LENGTH - String(i).length - 1)}-${i}`;
  return slug;
}

function byCreation(a: HouseholdData, b: HouseholdData): number {
  return (
    (a.doc.data.createdAt ?? "").localeCompare(b.doc.data.createdAt ?? "") || a.slug.localeCompare(b.slug)
  );
}

async function listDirs(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => e.isDirectory() && /^[a-z0-9][a-z0-9-]*$/.test(e.name))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}
