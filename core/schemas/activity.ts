/**
 * One line of `groups/<g>/activity/<yyyy-mm>.jsonl`: comments and timeline events as an append-only
 * log (ARCHITECTURE §2). An edit or a delete is a later line, never a rewrite, so a month file only
 * grows and git merges of two machines' activity stay line-wise. The current state is a fold.
 */
import { z } from "zod";
import { lazySchema } from "../util/lazy-schema.js";

export const TIMELINE_EVENT_TYPES = ["system", "info", "comment"] as const;
export type TimelineEventType = (typeof TIMELINE_EVENT_TYPES)[number];
export const TIMELINE_IMAGE_STATES = ["has image", "does not have image"] as const;
export type TimelineImageState = (typeof TIMELINE_IMAGE_STATES)[number];

const at = lazySchema(() => z.string());

export const CommentCreatedLine = lazySchema(() =>
  z.object({
    kind: z.literal("comment.created"),
    at,
    id: z.string(),
    recipeId: z.string(),
    userId: z.string(),
    text: z.string(),
  }),
);
export const CommentUpdatedLine = lazySchema(() =>
  z.object({
    kind: z.literal("comment.updated"),
    at,
    id: z.string(),
    text: z.string(),
  }),
);
export const CommentDeletedLine = lazySchema(() =>
  z.object({ kind: z.literal("comment.deleted"), at, id: z.string() }),
);

export const TimelineCreatedLine = lazySchema(() =>
  z.object({
    kind: z.literal("timeline.created"),
    at,
    id: z.string(),
    recipeId: z.string(),
    userId: z.string(),
    subject: z.string(),
    eventType: z.enum(TIMELINE_EVENT_TYPES),
    eventMessage: z.string().nullable().default(null),
    image: z.enum(TIMELINE_IMAGE_STATES).nullable().default("does not have image"),
    timestamp: z.string(),
  }),
);
/** Only the fields present change (Mealie's partial PUT). */
export const TimelineUpdatedLine = lazySchema(() =>
  z.object({
    kind: z.literal("timeline.updated"),
    at,
    id: z.string(),
    subject: z.string().optional(),
    eventMessage: z.string().nullable().optional(),
    image: z.enum(TIMELINE_IMAGE_STATES).nullable().optional(),
  }),
);
export const TimelineDeletedLine = lazySchema(() =>
  z.object({ kind: z.literal("timeline.deleted"), at, id: z.string() }),
);

/** An API delete of a recipe: its comments and events end here (a hand-deleted file writes none). */
export const RecipeDeletedLine = lazySchema(() =>
  z.object({ kind: z.literal("recipe.deleted"), at, recipeId: z.string() }),
);

export const ActivityLine = lazySchema(() =>
  z.discriminatedUnion("kind", [
    CommentCreatedLine,
    CommentUpdatedLine,
    CommentDeletedLine,
    TimelineCreatedLine,
    TimelineUpdatedLine,
    TimelineDeletedLine,
    RecipeDeletedLine,
  ]),
);
export type ActivityLine = z.infer<typeof ActivityLine>;
/** What callers append: the log stamps `at`. */
type WithoutAt<T> = T extends unknown ? Omit<T, "at"> : never;
export type ActivityLineIn = WithoutAt<ActivityLine>;

/** A comment as the fold holds it. */
export interface CommentRecord {
  id: string;
  recipeId: string;
  userId: string;
  text: string;
  createdAt: string;
  updatedAt: string;
}

/** A timeline event as the fold holds it. */
export interface TimelineRecord {
  id: string;
  recipeId: string;
  userId: string;
  subject: string;
  eventType: TimelineEventType;
  eventMessage: string | null;
  image: TimelineImageState | null;
  timestamp: string;
  createdAt: string;
  updatedAt: string;
}
