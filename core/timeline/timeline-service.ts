/**
 * Recipe timeline events (mealie-api-notes §4.6), kept in the group's activity log. A recipe created
 * through Larder (the API, a duplicate, an import) gets a "Recipe Created" system event; a file made
 * by hand does not: nobody "created" it in Larder, and a `git pull` of a hundred recipes should not
 * write a hundred events. `PATCH /recipes/{slug}/last-made` adds none either, as in Mealie (its UI
 * posts a "made this" event itself).
 */
import { z } from "zod";
import type { Parts } from "../parts.js";
import type { Actor } from "../actor.js";
import type { GroupData } from "../groups/registry.js";
import { ForbiddenError, NotFoundError } from "../errors.js";
import type { ActivityLog } from "../activity/activity-log.js";
import { TIMELINE_EVENT_TYPES, TIMELINE_IMAGE_STATES, type TimelineRecord } from "../schemas/activity.js";
import type { UserRecord } from "../schemas/records.js";
import type { RecipeEntry } from "../recipes/store/index.js";
import { normaliseTimestamp } from "../recipes/wire-context.js";
import { listQuery } from "../query/list.js";
import { mapPage, type ListQuery, type Page } from "../query/list-query.js";
import { callerOf, recipeInGroup } from "../activity/scope.js";
import { isUuid, newId } from "../util/ids.js";
import { timelineAttributes, type TimelineItem } from "./timeline-attributes.js";
import { relation, type AttributeTable } from "../query/attribute-table.js";
import { peopleTables } from "../groups/related-tables.js";
import { lazySchema } from "../util/lazy-schema.js";
import { utcTimestamp } from "../schemas/timestamp.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "events" | "groups" | "images" | "log" | "recipes" | "users">;

export const RECIPE_CREATED = "Recipe Created";
const MAX_SUBJECT = 1000;
const MAX_MESSAGE = 20_000;

// Read as pydantic reads a datetime: `Date.parse` took 30 February (as 2 March) and the year -1, which
// was then served in a form the contract's date-time refuses.
const timestamp = lazySchema(() =>
  z
    .string()
    .refine((v) => utcTimestamp(v) !== null, "Input should be a valid datetime")
    .transform((v) => new Date(utcTimestamp(v)!).toISOString()),
);
const subject = lazySchema(() => z.string().min(1, "This Field is Required").max(MAX_SUBJECT));
const message = lazySchema(() => z.string().max(MAX_MESSAGE).nullish());
const image = lazySchema(() => z.enum(TIMELINE_IMAGE_STATES).nullish());

export const TimelineEventIn = lazySchema(() =>
  z
    .object({
      recipeId: z.string().refine(isUuid, "Input should be a valid UUID"),
      userId: z.string().refine(isUuid, "Input should be a valid UUID").nullish(),
      subject,
      eventType: z.enum(TIMELINE_EVENT_TYPES),
      eventMessage: message,
      image,
      timestamp: timestamp.nullish(),
    })
    .loose(),
);
export const TimelineEventUpdate = lazySchema(() =>
  z.object({ subject: subject.optional(), eventMessage: message, image }).loose(),
);

/** RecipeTimelineEventOut of the contract. */
export type TimelineEventOut = TimelineItem["out"];

export class TimelineService {
  constructor(
    private readonly larder: Deps,
    private readonly log: ActivityLog,
  ) {
    larder.recipes.store.on("change", (ev) => {
      if (ev.type !== "created" || !ev.id) return;
      const entry = larder.recipes.store.getById(ev.id);
      // The store's own writes leave `seenAt` null; files the watcher found carry the time it saw them.
      if (entry && entry.seenAt === null) void this.recipeCreated(entry).catch(() => undefined);
    });
  }

  /** GET /recipes/timeline/events: the group's events, paginated and filterable (`recipe.user.id` too). */
  list(actor: Actor, query: ListQuery): Page<TimelineEventOut> {
    const { group } = callerOf(this.larder, actor);
    const items = [...this.log.state(group.slug).events.values()].flatMap((e) => {
      const item = this.item(group, e);
      return item ? [item] : [];
    });
    const env = listQuery(items, query, this.table(), {});
    return mapPage(env, (i) => i.out);
  }

  /** The events' table with Mealie's `user` and `recipe.user` relations (`user.username`), looked up live. */
  private table(): AttributeTable<TimelineItem> {
    if (this.tableBuilt) return this.tableBuilt;
    const people = peopleTables(this.larder);
    return (this.tableBuilt = timelineAttributes.withRelations({
      user: relation.one(
        () => people.member.users,
        (t: TimelineItem) => people.userOf(t.out.userId),
      ),
      "recipe.user": relation.one(
        () => people.member.users,
        (t: TimelineItem) => people.userOf(t.recipe.userId),
      ),
    }));
  }
  private tableBuilt: AttributeTable<TimelineItem> | null = null;

  get(actor: Actor, id: string): TimelineEventOut {
    const { group } = callerOf(this.larder, actor);
    return this.itemOf(group, this.record(group, id)).out;
  }

  async create(actor: Actor, input: unknown): Promise<TimelineEventOut> {
    const { user, group } = callerOf(this.larder, actor);
    const body = TimelineEventIn.parse(input ?? {});
    const entry =
      this.larder.recipes.entryById(body.recipeId) ??
      this.larder.recipes.entryById(body.recipeId.toLowerCase());
    if (!entry || entry.groupSlug !== group.slug) throw new NotFoundError("recipe not found");
    let userId = user.id;
    if (body.userId && body.userId !== user.id) {
      // Posting as someone else is an admin's call, and only for a member of the group.
      if (!user.admin) throw new ForbiddenError("Permission Denied");
      const other = this.larder.users.byId(body.userId);
      if (!other || other.groupId !== group.doc.data.id) throw new NotFoundError("User Not Found");
      userId = other.id;
    }
    const id = newId();
    await this.log.append(group.slug, {
      kind: "timeline.created",
      id,
      recipeId: entry.id,
      userId,
      subject: body.subject,
      eventType: body.eventType,
      eventMessage: body.eventMessage ?? null,
      image: body.image ?? "does not have image",
      timestamp: body.timestamp ?? new Date().toISOString(),
    });
    this.publish(actor, group, entry.id, id, "create");
    return this.get(actor, id);
  }

  async update(actor: Actor, id: string, input: unknown): Promise<TimelineEventOut> {
    const { user, group } = callerOf(this.larder, actor);
    const body = TimelineEventUpdate.parse(input ?? {});
    const e = this.record(group, id);
    assertAuthorOrAdmin(user, e);
    await this.log.append(group.slug, {
      kind: "timeline.updated",
      id: e.id,
      ...(body.subject !== undefined ? { subject: body.subject } : {}),
      ...(body.eventMessage !== undefined ? { eventMessage: body.eventMessage } : {}),
      ...(body.image !== undefined ? { image: body.image } : {}),
    });
    this.publish(actor, group, e.recipeId, e.id, "update");
    return this.get(actor, e.id);
  }

  async remove(actor: Actor, id: string): Promise<TimelineEventOut> {
    const { user, group } = callerOf(this.larder, actor);
    const e = this.record(group, id);
    assertAuthorOrAdmin(user, e);
    const out = this.itemOf(group, e).out;
    await this.log.append(group.slug, { kind: "timeline.deleted", id: e.id });
    this.publish(actor, group, e.recipeId, e.id, "delete");
    await this.larder.images
      .removeTimelineImage(e.recipeId, e.id)
      .catch((err: unknown) => this.larder.log.warn("could not remove a timeline image:", err));
    return out;
  }

  /** PUT /recipes/timeline/events/{id}/image: store the picture, mark the event "has image". */
  async setImage(actor: Actor, id: string, data: Buffer, extension: string): Promise<{ image: "has image" }> {
    const { user, group } = callerOf(this.larder, actor);
    const e = this.record(group, id);
    assertAuthorOrAdmin(user, e);
    await this.larder.images.saveTimelineImage(e.recipeId, e.id, data, extension);
    await this.log.append(group.slug, { kind: "timeline.updated", id: e.id, image: "has image" });
    this.publish(actor, group, e.recipeId, e.id, "update");
    return { image: "has image" };
  }

  /** The system event of a recipe created through Larder; at most one per recipe. */
  async recipeCreated(entry: RecipeEntry): Promise<void> {
    const state = this.log.state(entry.groupSlug);
    for (const e of state.eventsOf(entry.id))
      if (e.eventType === "system" && e.subject === RECIPE_CREATED) return;
    const owner = entry.doc.owner ?? this.larder.recipes.summaryOf(entry).userId;
    await this.log.append(entry.groupSlug, {
      kind: "timeline.created",
      id: newId(),
      recipeId: entry.id,
      userId: owner,
      subject: RECIPE_CREATED,
      eventType: "system",
      eventMessage: null,
      image: "does not have image",
      timestamp: normaliseTimestamp(entry.doc.dateAdded) ?? new Date().toISOString(),
    });
  }

  /** Mealie publishes timeline changes as recipe_updated with a recipe_timeline_event document (§9). */
  private publish(
    actor: Actor,
    group: GroupData,
    recipeId: string,
    eventId: string,
    operation: "create" | "update" | "delete",
  ): void {
    const entry = this.larder.recipes.entryById(recipeId);
    if (!entry) return;
    this.larder.events.publish({
      eventType: "recipe_updated",
      groupId: group.doc.data.id,
      householdId: this.larder.recipes.summaryOf(entry).householdId,
      integrationId: actor.kind === "user" ? (actor.integrationId ?? "generic") : "generic",
      documentData: {
        documentType: "recipe_timeline_event",
        operation,
        recipeSlug: entry.slug,
        recipeTimelineEventId: eventId,
      },
    });
  }

  private record(g: GroupData, id: string): TimelineRecord {
    const e = isUuid(id) ? this.log.state(g.slug).events.get(id.toLowerCase()) : undefined;
    if (!e || !recipeInGroup(this.larder, g, e.recipeId)) throw new NotFoundError();
    return e;
  }

  private itemOf(g: GroupData, e: TimelineRecord): TimelineItem {
    const item = this.item(g, e);
    if (!item) throw new NotFoundError();
    return item;
  }

  /** The event with what filters read of its recipe; null when the recipe is not in the group now. */
  private item(g: GroupData, e: TimelineRecord): TimelineItem | null {
    const entry = this.larder.recipes.entryById(e.recipeId);
    if (!entry || entry.groupSlug !== g.slug) return null;
    const recipe = this.larder.recipes.summaryOf(entry);
    return {
      out: {
        recipeId: e.recipeId,
        userId: e.userId,
        subject: e.subject,
        eventType: e.eventType,
        eventMessage: e.eventMessage,
        image: e.image,
        timestamp: e.timestamp,
        id: e.id,
        groupId: g.doc.data.id,
        householdId: recipe.householdId,
        createdAt: e.createdAt,
        updatedAt: e.updatedAt,
      },
      recipe: {
        id: recipe.id,
        userId: recipe.userId,
        householdId: recipe.householdId,
        name: recipe.name,
        slug: recipe.slug,
      },
    };
  }
}

function assertAuthorOrAdmin(user: UserRecord, e: { userId: string }): void {
  if (e.userId !== user.id && !user.admin) throw new ForbiddenError("Permission Denied");
}
