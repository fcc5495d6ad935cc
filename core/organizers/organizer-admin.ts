/**
 * The organizer screens' operations, actor-first (the UI's `/g/{group}/recipes/categories|tags|tools`):
 * each organizer with how many recipes name it, create, rename, delete and merge. Recipes name their
 * organizers, so a rename or merge rewrites the recipes that name the old one (one small diff each),
 * and a delete takes the name off them. An organizer a recipe names but `organizers.json` does not
 * hold yet (created lazily, ARCHITECTURE §3) is stored first, so it can be renamed like any other.
 */
import type { Actor } from "../actor.js";
import type { Larder } from "../larder.js";
import type { GroupData } from "../groups/registry.js";
import { BadRequestError, NotFoundError } from "../errors.js";
import type { OrganizerKind } from "../schemas/records.js";
import { slugify } from "../util/slug.js";
import { organizerId } from "./organizers-service.js";

export interface OrganizerRow {
  id: string;
  name: string;
  slug: string;
  /** Recipes of the group that name it. */
  count: number;
}

export function organizerAdmin(larder: Larder) {
  const groupOf = (actor: Actor): GroupData => larder.groups.scopeOf(actor).group;

  /** Every organizer of the kind, stored or only named by recipes, by name. */
  function list(actor: Actor, kind: OrganizerKind): OrganizerRow[] {
    const g = groupOf(actor);
    const counts = new Map<string, number>();
    const names = new Map<string, string>();
    for (const e of larder.recipes.store.list(g.slug)) {
      for (const n of new Set(e.doc[kind].map((x) => slugify(x)))) counts.set(n, (counts.get(n) ?? 0) + 1);
      for (const n of e.doc[kind]) if (!names.has(slugify(n))) names.set(slugify(n), n);
    }
    const rows = new Map<string, OrganizerRow>();
    for (const o of larder.organizers.list(g, kind))
      rows.set(o.slug, { id: o.id, name: o.name, slug: o.slug, count: counts.get(o.slug) ?? 0 });
    for (const [slug, name] of names)
      if (slug && !rows.has(slug))
        rows.set(slug, {
          id: organizerId(g.doc.data.id, kind, name),
          name,
          slug,
          count: counts.get(slug) ?? 0,
        });
    return [...rows.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The stored record of a row (storing a lazily created one first). */
  async function stored(g: GroupData, actor: Actor, kind: OrganizerKind, id: string) {
    const hit = larder.organizers.list(g, kind).find((o) => o.id === id);
    if (hit) return hit;
    const row = list(actor, kind).find((r) => r.id === id);
    if (!row) throw new NotFoundError();
    await larder.organizers.ensure(g, kind, [row.name]);
    const made = larder.organizers.byName(g, kind, row.name);
    if (!made) throw new NotFoundError();
    return made;
  }

  return {
    list,

    async create(actor: Actor, kind: OrganizerKind, name: string): Promise<OrganizerRow> {
      const g = groupOf(actor);
      // A name recipes already use is taken even before organizers.json holds it.
      if (slugify(name) && list(actor, kind).some((r) => r.slug === slugify(name)))
        throw new BadRequestError(`An item with the name '${name.trim()}' already exists`);
      const rec = await larder.organizers.create(g, kind, { name });
      return { id: rec.id, name: rec.name, slug: rec.slug, count: 0 };
    },

    /** Rename; recipes naming the old name are rewritten. Returns how many recipes changed. */
    async rename(actor: Actor, kind: OrganizerKind, id: string, name: string): Promise<number> {
      const g = groupOf(actor);
      const cur = await stored(g, actor, kind, id);
      const { record, oldName } = await larder.organizers.update(g, kind, cur.id, { name });
      return oldName === record.name ? 0 : larder.recipes.renameOrganizer(g, kind, oldName, record.name);
    },

    /** Delete; recipes keep everything but that name. Returns how many recipes changed. */
    async remove(actor: Actor, kind: OrganizerKind, id: string): Promise<number> {
      const g = groupOf(actor);
      const cur = await stored(g, actor, kind, id);
      const removed = await larder.organizers.remove(g, kind, cur.id);
      return larder.recipes.renameOrganizer(g, kind, removed.name, null);
    },

    /**
     * Merge `fromIds` into `toId`: every recipe naming one of them names the target instead (once),
     * then the merged ones are deleted. Returns how many recipes changed.
     */
    async merge(
      actor: Actor,
      kind: OrganizerKind,
      fromIds: readonly string[],
      toId: string,
    ): Promise<number> {
      const g = groupOf(actor);
      const sources = fromIds.filter((id) => id !== toId);
      if (sources.length === 0) throw new BadRequestError("Pick at least one other item to merge");
      const target = await stored(g, actor, kind, toId);
      const from = [];
      for (const id of sources) from.push(await stored(g, actor, kind, id));
      const keys = new Set(from.map((o) => o.slug));
      const changed = await larder.recipes.rewriteWhere(g, (doc) => {
        const list = doc[kind];
        if (!list.some((n) => keys.has(slugify(n)))) return null;
        const out: string[] = [];
        for (const n of list) {
          const name = keys.has(slugify(n)) ? target.name : n;
          if (!out.some((x) => slugify(x) === slugify(name))) out.push(name);
        }
        doc[kind] = out;
        return doc;
      });
      for (const o of from) await larder.organizers.remove(g, kind, o.id);
      return changed;
    },
  };
}

export type OrganizerAdmin = ReturnType<typeof organizerAdmin>;
