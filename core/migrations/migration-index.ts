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

export class MigrationIndex {
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

  /** The recipe in this group noted under `key`, or given the id derived from it. */
  private recipeOf(key: string): RecipeEntry | null {
    for (const id of [this.doc.data.sources[key], this.recipeIdFor(key)]) {
      const entry = id ? this.larder.recipes.store.getById(id) : null;
      if (entry && entry.groupSlug === this.group.slug) return entry;
    }
    return null;
  }

  /** The recipe this source already became in the group, by source key, else by original URL and name. */
  find(keys: readonly string[], name: string, orgURL: string | null): RecipeEntry | null {
    for (const key of keys) {
      const entry = this.recipeOf(key);
      if (entry) return entry;
    }
    if (!orgURL) return null;
    const wanted = norm(name);
    return (
      this.larder.recipes.store
        .list(this.group.slug)
        .find((e) => e.doc.orgURL === orgURL && norm(e.doc.name) === wanted) ?? null
    );
  }

  /** The recipe id a source key became, while that recipe exists in the group. */
  idOf(key: string): string | null {
    return this.recipeOf(key)?.id ?? null;
  }

  /** Whether something other than a recipe (a plan entry, a list) was brought in under this key. */
  seen(key: string): boolean {
    return key in this.doc.data.sources;
  }

  remember(keys: readonly string[], recipeId: string): void {
    if (keys.length === 0) return;
    void this.doc
      .update((d) => {
        for (const k of keys) d.sources[k] = recipeId;
      })
      .catch((e: unknown) => this.larder.log.error("could not write migrations.json", e));
  }

  rememberKey(key: string, id: string): void {
    void this.doc
      .update((d) => {
        d.sources[key] = id;
      })
      .catch((e: unknown) => this.larder.log.error("could not write migrations.json", e));
  }

  async flush(): Promise<void> {
    await this.doc.idle();
  }
}
