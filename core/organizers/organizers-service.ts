/** Categories, tags and tools of a group (organizers.json). Recipes refer to them by name. */
import { z } from "zod";
import type { GroupData } from "../groups/registry.js";
import { BadRequestError, NotFoundError } from "../errors.js";
import type { OrganizerKind, OrganizerRecord, ToolRecord } from "../schemas/records.js";
import { derivedId, isUuid } from "../util/ids.js";
import { slugify } from "../util/slug.js";

export const OrganizerIn = z
  .object({
    name: z.string().trim().min(1, "This Field is Required").max(255, "Must Be At Most 255 Characters"),
    onHand: z.boolean().optional(),
    householdsWithTool: z.array(z.string()).optional(),
  })
  .loose();

/** The id an organizer gets from its name, so that reading a recipe never has to write (ARCHITECTURE §3). */
export function organizerId(groupId: string, kind: OrganizerKind, name: string): string {
  return derivedId(groupId, kind, slugify(name));
}

/** A tag or category written through the API (tools publish nothing, as in Mealie). */
export type OrganizerWrite = {
  group: GroupData;
  kind: OrganizerKind;
  operation: "create" | "update" | "delete";
  record: OrganizerRecord | ToolRecord;
};

export class OrganizersService {
  private readonly writeListeners = new Set<(w: OrganizerWrite) => void>();

  /** Be told of each create, rename and delete (the composition root publishes them as events). */
  onWrite(fn: (w: OrganizerWrite) => void): () => void {
    this.writeListeners.add(fn);
    return () => this.writeListeners.delete(fn);
  }

  private wrote(w: OrganizerWrite): void {
    for (const fn of this.writeListeners) fn(w);
  }

  list(g: GroupData, kind: OrganizerKind): (OrganizerRecord | ToolRecord)[] {
    return g.organizers.data[kind];
  }

  find(g: GroupData, kind: OrganizerKind, idOrSlug: string): OrganizerRecord | ToolRecord | null {
    const list = this.list(g, kind);
    return list.find((o) => o.id === idOrSlug) ?? list.find((o) => o.slug === idOrSlug) ?? null;
  }

  get(g: GroupData, kind: OrganizerKind, id: string): OrganizerRecord | ToolRecord {
    const o = isUuid(id) ? this.list(g, kind).find((x) => x.id === id) : undefined;
    if (!o) throw new NotFoundError();
    return o;
  }

  byName(g: GroupData, kind: OrganizerKind, name: string): OrganizerRecord | ToolRecord | null {
    const slug = slugify(name);
    return this.list(g, kind).find((o) => o.slug === slug) ?? null;
  }

  async create(g: GroupData, kind: OrganizerKind, input: unknown): Promise<OrganizerRecord | ToolRecord> {
    const data = OrganizerIn.parse(input);
    const slug = slugify(data.name);
    if (!slug) throw new BadRequestError("Name must contain a letter or digit");
    if (this.list(g, kind).some((o) => o.slug === slug)) {
      throw new BadRequestError(`An item with the name '${data.name}' already exists`, {
        message: "Unable to create item: it already exists",
        error: true,
        exception: `duplicate slug ${slug}`,
      });
    }
    const now = new Date().toISOString();
    const rec: OrganizerRecord | ToolRecord = {
      id: organizerId(g.doc.data.id, kind, data.name),
      name: data.name,
      slug,
      createdAt: now,
      updatedAt: now,
      ...(kind === "tools" ? { householdsWithTool: data.householdsWithTool ?? [] } : {}),
    };
    await g.organizers.update((d) => {
      (d[kind] as (OrganizerRecord | ToolRecord)[]).push(rec);
    });
    this.wrote({ group: g, kind, operation: "create", record: rec });
    return rec;
  }

  /** Make sure organizers named by a recipe exist (created with their name-derived id). */
  async ensure(g: GroupData, kind: OrganizerKind, names: string[]): Promise<void> {
    const missing = names.filter((n) => slugify(n) && !this.byName(g, kind, n));
    if (missing.length === 0) return;
    const now = new Date().toISOString();
    await g.organizers.update((d) => {
      const list = d[kind] as (OrganizerRecord | ToolRecord)[];
      for (const name of missing) {
        const slug = slugify(name);
        if (list.some((o) => o.slug === slug)) continue;
        list.push({
          id: organizerId(g.doc.data.id, kind, name),
          name,
          slug,
          createdAt: now,
          updatedAt: now,
          ...(kind === "tools" ? { householdsWithTool: [] } : {}),
        });
      }
    });
  }

  /** Rename; returns the old name so that recipes naming it can be rewritten. */
  async update(
    g: GroupData,
    kind: OrganizerKind,
    id: string,
    input: unknown,
  ): Promise<{ record: OrganizerRecord | ToolRecord; oldName: string }> {
    const data = OrganizerIn.parse(input);
    const current = this.get(g, kind, id);
    const slug = slugify(data.name);
    if (!slug) throw new BadRequestError("Name must contain a letter or digit");
    if (this.list(g, kind).some((o) => o.slug === slug && o.id !== id)) {
      throw new BadRequestError(`An item with the name '${data.name}' already exists`);
    }
    const oldName = current.name;
    let updated: OrganizerRecord | ToolRecord = current;
    await g.organizers.update((d) => {
      const list = d[kind] as (OrganizerRecord | ToolRecord)[];
      const i = list.findIndex((o) => o.id === id);
      updated = { ...list[i], name: data.name, slug, updatedAt: new Date().toISOString() };
      if (kind === "tools" && data.householdsWithTool)
        (updated as ToolRecord).householdsWithTool = data.householdsWithTool;
      list[i] = updated;
    });
    this.wrote({ group: g, kind, operation: "update", record: updated });
    return { record: updated, oldName };
  }

  async remove(g: GroupData, kind: OrganizerKind, id: string): Promise<OrganizerRecord | ToolRecord> {
    const current = this.get(g, kind, id);
    await g.organizers.update((d) => {
      (d[kind] as (OrganizerRecord | ToolRecord)[]).splice(
        d[kind].findIndex((o) => o.id === id),
        1,
      );
    });
    this.wrote({ group: g, kind, operation: "delete", record: current });
    return current;
  }
}
