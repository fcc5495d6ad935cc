/**
 * Categories, tags and tools as a signed-in person uses them, through the API (mealie-api-notes §4.7)
 * or the organizer screens: every call is scoped to the actor's group and runs its cascade — a rename,
 * merge or delete rewrites the group's recipe files that name the organizer (one small diff each) —
 * here in core, not in a route (issue 12). An organizer a recipe names but `organizers.json` does not
 * hold yet (created lazily, ARCHITECTURE §3) is stored first, so it can be renamed like any other.
 */
import type { Parts } from "../parts.js";
import type { Actor } from "../actor.js";
import type { OrganizerKind, OrganizerRecord, ToolRecord } from "../schemas/records.js";
import type { GroupData } from "../groups/registry.js";
import { BadRequestError, NotFoundError } from "../errors.js";
import { slugify } from "../util/slug.js";
import { organizerId } from "./organizers-service.js";
import { presentOrganizer, presentTool } from "../presenters/vocabulary.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "groups" | "organizers" | "recipes">;

/** An organizer as the screens list it. */
export interface OrganizerRow {
  id: string;
  name: string;
  slug: string;
  /** Recipes of the group that name it. */
  count: number;
}

export type OrganizerOut = ReturnType<typeof presentOrganizer> | ReturnType<typeof presentTool>;

const NOT_FOUND: Record<OrganizerKind, string> = {
  categories: "category not found",
  tags: "tag not found",
  tools: "tool not found",
};

/** An organizer only recipe files name, as a record (not stored: nothing writes it until it changes). */
function namedOnly(o: { id: string; name: string; slug: string }): ToolRecord {
  return { id: o.id, name: o.name, slug: o.slug, createdAt: null, updatedAt: null, householdsWithTool: [] };
}

export class OrganizerActions {
  constructor(private readonly larder: Deps) {}

  private group(actor: Actor) {
    return this.larder.groups.scopeOf(actor).group;
  }

  private out(actor: Actor, kind: OrganizerKind, o: OrganizerRecord | ToolRecord): OrganizerOut {
    const groupId = this.group(actor).doc.data.id;
    return kind === "tools"
      ? presentTool({ householdsWithTool: [], ...o } as ToolRecord, groupId)
      : presentOrganizer(o, groupId);
  }

  all(actor: Actor, kind: OrganizerKind): OrganizerOut[] {
    return this.larder.organizers.list(this.group(actor), kind).map((o) => this.out(actor, kind, o));
  }

  async create(actor: Actor, kind: OrganizerKind, input: unknown): Promise<OrganizerOut> {
    return this.out(actor, kind, await this.larder.organizers.create(this.group(actor), kind, input));
  }

  /**
   * By id: a stored organizer, or one only recipe files name (the list shows those with the same id,
   * so a client that lists and then opens one finds it).
   */
  get(actor: Actor, kind: OrganizerKind, id: string): OrganizerOut {
    const g = this.group(actor);
    const found = this.larder.organizers.list(g, kind).find((o) => o.id === id) ?? this.named(g, kind, id);
    if (!found) throw new NotFoundError();
    return this.out(actor, kind, found);
  }

  /** By slug (or id), stored or only named by recipes; 404 with Mealie's message. */
  bySlug(actor: Actor, kind: OrganizerKind, slug: string): OrganizerOut {
    const g = this.group(actor);
    const found = this.larder.organizers.find(g, kind, slug) ?? this.named(g, kind, slug, slug);
    if (!found) throw new NotFoundError(NOT_FOUND[kind]);
    return this.out(actor, kind, found);
  }

  /** An organizer only recipe files name, by its slug or by its id. */
  private named(g: GroupData, kind: OrganizerKind, id: string, slug?: string): ToolRecord | null {
    const items = this.larder.recipes.lister.groupOrganizers(g.slug, kind);
    const o = (slug !== undefined && items.find((x) => x.slug === slug)) || items.find((x) => x.id === id);
    return o ? namedOnly(o) : null;
  }

  /** Every organizer of the kind, stored or only named by recipes, by name, with its recipe count. */
  rows(actor: Actor, kind: OrganizerKind): OrganizerRow[] {
    const g = this.group(actor);
    const counts = new Map<string, number>();
    const names = new Map<string, string>();
    for (const r of this.larder.recipes.organizerNames(g.slug, kind)) {
      for (const n of new Set(r.map((x) => slugify(x)))) counts.set(n, (counts.get(n) ?? 0) + 1);
      for (const n of r) if (!names.has(slugify(n))) names.set(slugify(n), n);
    }
    const rows = new Map<string, OrganizerRow>();
    for (const o of this.larder.organizers.list(g, kind))
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

  /** The screens' create: a name recipes already use is taken even before organizers.json holds it. */
  async add(actor: Actor, kind: OrganizerKind, name: string): Promise<OrganizerRow> {
    if (slugify(name) && this.rows(actor, kind).some((r) => r.slug === slugify(name)))
      throw new BadRequestError(`An item with the name '${name.trim()}' already exists`);
    const rec = await this.larder.organizers.create(this.group(actor), kind, { name });
    return { id: rec.id, name: rec.name, slug: rec.slug, count: 0 };
  }

  /** The stored record of an id (storing one only recipes name first). */
  private async stored(g: GroupData, actor: Actor, kind: OrganizerKind, id: string) {
    const hit = this.larder.organizers.list(g, kind).find((o) => o.id === id);
    if (hit) return hit;
    const row = this.rows(actor, kind).find((r) => r.id === id);
    if (!row) throw new NotFoundError(NOT_FOUND[kind]);
    await this.larder.organizers.ensure(g, kind, [row.name]);
    const made = this.larder.organizers.byName(g, kind, row.name);
    if (!made) throw new NotFoundError(NOT_FOUND[kind]);
    return made;
  }

  /** Update (PUT): a new name is written into the recipe files that named the old one. */
  async update(actor: Actor, kind: OrganizerKind, id: string, input: unknown): Promise<OrganizerOut> {
    const g = this.group(actor);
    const cur = await this.stored(g, actor, kind, id);
    const { record, oldName } = await this.larder.organizers.update(g, kind, cur.id, input);
    if (oldName !== record.name) await this.larder.recipes.renameOrganizer(g, kind, oldName, record.name);
    return this.out(actor, kind, record);
  }

  /** The screens' rename. */
  async rename(actor: Actor, kind: OrganizerKind, id: string, name: string): Promise<OrganizerOut> {
    return this.update(actor, kind, id, { name });
  }

  /** Delete (and drop it from the recipe files that name it); answers the organizer as it was. */
  async remove(actor: Actor, kind: OrganizerKind, id: string): Promise<OrganizerOut> {
    const g = this.group(actor);
    const cur = await this.stored(g, actor, kind, id);
    const removed = await this.larder.organizers.remove(g, kind, cur.id);
    await this.larder.recipes.renameOrganizer(g, kind, removed.name, null);
    return this.out(actor, kind, removed);
  }

  /**
   * Merge `fromIds` into `toId`: every recipe naming one of them names the target instead (once),
   * then the merged ones are deleted. Returns how many recipes changed.
   */
  async merge(actor: Actor, kind: OrganizerKind, fromIds: readonly string[], toId: string): Promise<number> {
    const g = this.group(actor);
    const sources = fromIds.filter((id) => id !== toId);
    if (sources.length === 0) throw new BadRequestError("Pick at least one other item to merge");
    const target = await this.stored(g, actor, kind, toId);
    const from = [];
    for (const id of sources) from.push(await this.stored(g, actor, kind, id));
    const keys = new Set(from.map((o) => o.slug));
    const changed = await this.larder.recipes.rewriteWhere(g, (doc) => {
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
    for (const o of from) await this.larder.organizers.remove(g, kind, o.id);
    return changed;
  }
}
