/**
 * The in-memory index of one data folder's recipes: entries by group and slug, ids, files that do not
 * parse, and recently deleted ids (so a hand rename seen as delete-then-add later is still a rename).
 * Pure bookkeeping, no I/O: every read the API does is answered from here (ARCHITECTURE §4).
 */
import type { BrokenFile, BrokenInfo, FileFingerprint, RecipeEntry, RecipeProblem } from "./types.js";
import { keyOf, type Location } from "./identity.js";
import { LocationMap } from "./location-map.js";

/** A file that never parsed: listed as broken, invisible to the API, its name still taken. */
export interface BrokenOnly {
  groupSlug: string;
  slug: string;
  file: FileFingerprint;
  broken: BrokenInfo;
}

/** A name as names are compared within a group (spec §5: unique in a group, whatever the case). */
export const nameKey = (name: string): string => name.trim().toLocaleLowerCase();

function bump(counts: Map<string, number>, e: RecipeEntry, by: 1 | -1): void {
  const k = nameKey(e.doc.name);
  const n = (counts.get(k) ?? 0) + by;
  if (n > 0) counts.set(k, n);
  else counts.delete(k);
}

/** How many deleted ids are remembered for late rename matching; old ones are forgotten first. */
const TOMBSTONES = 1000;

export class RecipeIndex {
  private entries = new LocationMap<RecipeEntry>();
  private ids = new Map<string, RecipeEntry>();
  private brokenOnly = new Map<string, BrokenOnly>();
  private tombstones = new Map<string, Location>();
  private notes = new Map<string, RecipeProblem>();
  /**
   * Per group, how many recipes carry each name (trimmed, lower case): built on a group's first
   * `nameCount`, then kept by put and delete, so that finding a free name is not a walk over the group
   * (a migration of 3,000 recipes made 3,000 walks). Not built at open: a start never asks.
   */
  private names = new Map<string, Map<string, number>>();

  get(groupSlug: string, slug: string): RecipeEntry | null {
    return this.entries.get(groupSlug, slug) ?? null;
  }

  getById(id: string): RecipeEntry | null {
    return this.ids.get(id) ?? null;
  }

  idTaken(id: string): boolean {
    return this.ids.has(id);
  }

  list(groupSlug: string): RecipeEntry[] {
    return [...(this.entries.group(groupSlug)?.values() ?? [])];
  }

  /** How many recipes of the group have this name, compared trimmed and in lower case. */
  nameCount(groupSlug: string, name: string): number {
    let counts = this.names.get(groupSlug);
    if (!counts) {
      counts = new Map();
      for (const e of this.entries.group(groupSlug)?.values() ?? []) bump(counts, e, 1);
      this.names.set(groupSlug, counts);
    }
    return counts.get(nameKey(name)) ?? 0;
  }

  all(): RecipeEntry[] {
    return [...this.entries.values()];
  }

  /** Recipes in all, per group, and files that do not parse (for `larder stats`). */
  counts(): { recipes: number; groups: Record<string, number>; broken: number } {
    const groups: Record<string, number> = {};
    let recipes = 0;
    for (const [g, entries] of this.entries.groups()) recipes += groups[g] = entries.size;
    return { recipes, groups, broken: this.broken().length };
  }

  groupSlugs(): string[] {
    const slugs = new Set([...this.entries.groups()].map(([g]) => g));
    for (const b of this.brokenOnly.values()) slugs.add(b.groupSlug);
    return [...slugs];
  }

  /** Slugs of a group the index knows, parsed or not (for rescans, to notice deletions). */
  slugsOf(groupSlug: string): string[] {
    const slugs = [...(this.entries.group(groupSlug)?.keys() ?? [])];
    for (const b of this.brokenOnly.values()) if (b.groupSlug === groupSlug) slugs.push(b.slug);
    return slugs;
  }

  /**
   * Insert or replace the entry at its location. The caller has resolved identity: the id is free or
   * already this location's. A replaced entry's old id is released.
   */
  put(entry: RecipeEntry): void {
    const prev = this.get(entry.groupSlug, entry.slug);
    if (prev && prev.id !== entry.id && this.ids.get(prev.id) === prev) this.ids.delete(prev.id);
    const holder = this.ids.get(entry.id);
    if (holder && (holder.groupSlug !== entry.groupSlug || holder.slug !== entry.slug)) {
      throw new Error(`recipe index: id ${entry.id} is held by ${keyOf(holder.groupSlug, holder.slug)}`);
    }
    const counts = this.names.get(entry.groupSlug);
    if (counts) {
      if (prev) bump(counts, prev, -1);
      bump(counts, entry, 1);
    }
    this.entries.set(entry);
    this.ids.set(entry.id, entry);
    this.brokenOnly.delete(keyOf(entry.groupSlug, entry.slug));
    this.tombstones.delete(entry.id);
  }

  /** Remove the entry at a location; returns it. */
  delete(groupSlug: string, slug: string): RecipeEntry | null {
    const prev = this.entries.delete(groupSlug, slug);
    if (!prev) return null;
    const counts = this.names.get(groupSlug);
    if (counts) bump(counts, prev, -1);
    if (this.ids.get(prev.id) === prev) this.ids.delete(prev.id);
    return prev;
  }

  getBroken(groupSlug: string, slug: string): BrokenOnly | null {
    return this.brokenOnly.get(keyOf(groupSlug, slug)) ?? null;
  }

  putBroken(b: BrokenOnly): void {
    this.brokenOnly.set(keyOf(b.groupSlug, b.slug), b);
  }

  deleteBroken(groupSlug: string, slug: string): boolean {
    return this.brokenOnly.delete(keyOf(groupSlug, slug));
  }

  /** Every file that does not parse now: broken entries (last good doc kept) and never-parsed files. */
  broken(): BrokenFile[] {
    const out: BrokenFile[] = [];
    for (const e of this.all()) {
      if (e.broken) out.push({ groupSlug: e.groupSlug, slug: e.slug, id: e.id, ...e.broken });
    }
    for (const b of this.brokenOnly.values())
      out.push({ groupSlug: b.groupSlug, slug: b.slug, id: null, ...b.broken });
    return out.sort((a, b) => (keyOf(a.groupSlug, a.slug) < keyOf(b.groupSlug, b.slug) ? -1 : 1));
  }

  /** Record a problem the identity rules resolved on their own but a person should know about. */
  note(p: RecipeProblem): void {
    this.notes.set(`${keyOf(p.groupSlug, p.slug)}\0${p.kind}`, p);
  }

  /** Forget the problems of a location (all kinds, or one): the file was read again without them. */
  clearNotes(loc: Location, kind?: RecipeProblem["kind"]): void {
    for (const k of kind ? [kind] : (["duplicate-id", "foreign-owner"] as const))
      this.notes.delete(`${keyOf(loc.groupSlug, loc.slug)}\0${k}`);
  }

  problems(): RecipeProblem[] {
    return [...this.notes.values()].sort((a, b) =>
      keyOf(a.groupSlug, a.slug) < keyOf(b.groupSlug, b.slug) ? -1 : 1,
    );
  }

  /** Remember where a hand-deleted id last lived, so a file bringing it back later reads as a rename. */
  bury(id: string, where: Location): void {
    this.tombstones.delete(id);
    this.tombstones.set(id, where);
    if (this.tombstones.size > TOMBSTONES) {
      const oldest = this.tombstones.keys().next().value;
      if (oldest !== undefined) this.tombstones.delete(oldest);
    }
  }

  /** Where a deleted id lived, if remembered; forgets it. */
  exhume(id: string): Location | null {
    const where = this.tombstones.get(id) ?? null;
    this.tombstones.delete(id);
    return where;
  }
}
