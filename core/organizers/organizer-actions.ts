/**
 * Categories, tags and tools as a signed-in person uses them (mealie-api-notes §4.7): every call is
 * scoped to the actor's group, answers the wire shape, and runs its cascade — a rename or delete
 * rewrites the group's recipe files that name the organizer — here in core, not in a route (issue 12).
 */
import type { Larder } from "../larder.js";
import type { Actor } from "../actor.js";
import type { OrganizerKind, OrganizerRecord, ToolRecord } from "../schemas/records.js";
import { NotFoundError } from "../errors.js";
import { presentOrganizer, presentTool } from "../presenters/vocabulary.js";

export type OrganizerOut = ReturnType<typeof presentOrganizer> | ReturnType<typeof presentTool>;

const NOT_FOUND: Record<OrganizerKind, string> = {
  categories: "category not found",
  tags: "tag not found",
  tools: "tool not found",
};

export class OrganizerActions {
  constructor(private readonly larder: Larder) {}

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

  get(actor: Actor, kind: OrganizerKind, id: string): OrganizerOut {
    return this.out(actor, kind, this.larder.organizers.get(this.group(actor), kind, id));
  }

  /** By slug (or id); 404 with Mealie's message. */
  bySlug(actor: Actor, kind: OrganizerKind, slug: string): OrganizerOut {
    const o = this.larder.organizers.find(this.group(actor), kind, slug);
    if (!o) throw new NotFoundError(NOT_FOUND[kind]);
    return this.out(actor, kind, o);
  }

  /** Rename (and the recipe files that name it follow). */
  async update(actor: Actor, kind: OrganizerKind, id: string, input: unknown): Promise<OrganizerOut> {
    const g = this.group(actor);
    const { record, oldName } = await this.larder.organizers.update(g, kind, id, input);
    if (oldName !== record.name) await this.larder.recipes.renameOrganizer(g, kind, oldName, record.name);
    return this.out(actor, kind, record);
  }

  /** Delete (and drop it from the recipe files that name it); answers the organizer as it was. */
  async remove(actor: Actor, kind: OrganizerKind, id: string): Promise<OrganizerOut> {
    const g = this.group(actor);
    const removed = await this.larder.organizers.remove(g, kind, id);
    await this.larder.recipes.renameOrganizer(g, kind, removed.name, null);
    return this.out(actor, kind, removed);
  }
}
