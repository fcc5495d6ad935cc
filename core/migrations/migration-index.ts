/**
 * What each migration brought into a group, by source: `groups/<group>/migrations.json` maps a source
 * key (`paprika:<uid>`, `url:<original URL> <name>`, `mealie_backup:recipe:<id>`) to the Larder id it became.
 * It makes a second run of the same archive skip what the first created. A recipe deleted since is no
 * longer "already imported": the key is only trusted while its recipe exists in the group.
 */
import { join } from "node:path";
import { z } from "zod";
import type { Parts } from "../parts.js";
import type { GroupData } from "../groups/registry.js";
import { JsonDoc } from "../storage/json-doc.js";
import type { RecipeEntry } from "../recipes/store/index.js";
import { derivedId } from "../util/ids.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "folder" | "log" | "recipes">;

const IndexDoc = z.object({ sources: z.record(z.string(), z.string()).default({}) });
type IndexDoc = z.infer<typeof IndexDoc>;

const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, " ");

/**
 * The keys a migrated recipe is remembered under: its source id, qualified by the migration type. An id
 * that is a URL (a reader's fallback when its app has no ids) is the same recipe whichever app exported
 * it, but only with the same name: one page can hold two recipes (a soup and its bread), and keyed by
 * the page alone the second would be "already imported" as the first.
 */
export function sourceKeys(type: string, sourceId: string | null, name: string): string[] {
  if (!sourceId) return [];
  return /^https?:\/\//i.test(sourceId) ? [`url:${sourceId} ${norm(name)}`] : [`${type}:${sourceId}`];
}

/** Source keys noted during a run wait this long and go out together (one write, not one per recipe). */
const WRITE_EVERY_MS = 500;

export class MigrationIndex {
  /** Noted, not yet in the document: read before it, written every WRITE_EVERY_MS and by flush(). */
  private pending = new Map<string, string>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  /**
   * The group's recipes by original URL and name, built on the first lookup that needs it and kept up
   * by remember(): a walk over the group per recipe made a large migration quadratic.
   */
  private byOrigin: Map<string, string> | null = null;

  private constructor(
    private readonly larder: Deps,
    private readonly group: GroupData,
    private readonly doc: JsonDoc<IndexDoc>,
  ) {}

  static async open(larder: Deps, group: GroupData): Promise<MigrationIndex> {
    const doc = await JsonDoc.open(join(larder.folder.groupDir(group.slug), "migrations.json"), {
      schema: IndexDoc,
      tmpDir: larder.folder.tmpDir,
      defaults: () => IndexDoc.parse({}),
    });
    return new MigrationIndex(larder, group, doc);
  }

  /**
   * The id a recipe brought in under `key` is given: derived from the group and the key, so that a run
   * stopped (Ctrl-C, a crash) after creating a recipe but before noting it here finds it next time.
   */
  recipeIdFor(key: string): string {
    return derivedId(this.group.slug, "migration", key);
  }

  private noted(key: string): string | undefined {
    return this.pending.get(key) ?? this.doc.data.sources[key];
  }

  /** A recipe of this group by id, or null. */
  private inGroup(id: string | undefined): RecipeEntry | null {
    const entry = id ? this.larder.recipes.store.getById(id) : null;
    return entry && entry.groupSlug === this.group.slug ? entry : null;
  }

  /** The recipe in this group noted under `key`, or given the id derived from it. */
  private recipeOf(key: string): RecipeEntry | null {
    return this.inGroup(this.noted(key)) ?? this.inGroup(this.recipeIdFor(key));
  }

  /** The recipe this source already became in the group, by source key, else by original URL and name. */
  find(keys: readonly string[], name: string, orgURL: string | null): RecipeEntry | null {
    for (const key of keys) {
      const entry = this.recipeOf(key);
      if (entry) return entry;
    }
    if (!orgURL) return null;
    if (!this.byOrigin) {
      this.byOrigin = new Map();
      for (const e of this.larder.recipes.store.list(this.group.slug)) this.noteOrigin(e);
    }
    const entry = this.inGroup(this.byOrigin.get(originKey(orgURL, name)));
    // Checked again: the recipe may have been renamed or given another URL since it was noted.
    return entry && entry.doc.orgURL === orgURL && norm(entry.doc.name) === norm(name) ? entry : null;
  }

  private noteOrigin(e: RecipeEntry): void {
    if (this.byOrigin && e.doc.orgURL) this.byOrigin.set(originKey(e.doc.orgURL, e.doc.name), e.id);
  }

  /** The recipe id a source key became, while that recipe exists in the group. */
  idOf(key: string): string | null {
    return this.recipeOf(key)?.id ?? null;
  }

  /** Whether something other than a recipe (a plan entry, a list) was brought in under this key. */
  seen(key: string): boolean {
    return this.pending.has(key) || key in this.doc.data.sources;
  }

  remember(keys: readonly string[], recipeId: string): void {
    const entry = this.inGroup(recipeId);
    if (entry) this.noteOrigin(entry);
    for (const k of keys) this.rememberKey(k, recipeId);
  }

  rememberKey(key: string, id: string): void {
    this.pending.set(key, id);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.write();
    }, WRITE_EVERY_MS);
  }

  private write(): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    const batch = this.pending;
    this.pending = new Map();
    return this.doc
      .update((d) => {
        for (const [k, v] of batch) d.sources[k] = v;
      })
      .catch((e: unknown) => this.larder.log.error("could not write migrations.json", e));
  }

  /** Write what was noted and wait until it is on disk (at the end of each run). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // Made again by the next run: recipes created meanwhile by other means are not in it.
    this.byOrigin = null;
    await this.write();
    await this.doc.idle();
  }
}

const originKey = (orgURL: string, name: string) => `${orgURL}\u0000${norm(name)}`;
