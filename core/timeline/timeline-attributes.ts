/** What `queryFilter` and `orderBy` may name on timeline events, including paths through the recipe. */
import type { TimelineEventType, TimelineImageState } from "../schemas/activity.js";
import { AttributeTable, attr } from "../query/attribute-table.js";

export interface TimelineItem {
  out: {
    recipeId: string;
    userId: string;
    subject: string;
    eventType: TimelineEventType;
    eventMessage: string | null;
    image: TimelineImageState | null;
    timestamp: string;
    id: string;
    groupId: string;
    householdId: string;
    createdAt: string;
    updatedAt: string;
  };
  recipe: { id: string; userId: string; householdId: string; name: string; slug: string };
}

type T = TimelineItem;
export const timelineAttributes = new AttributeTable<TimelineItem>("timeline event", {
  id: attr.uuid((t: T) => t.out.id),
  recipeId: attr.uuid((t: T) => t.out.recipeId),
  "recipe.id": attr.uuid((t: T) => t.recipe.id),
  "recipe.userId": attr.uuid((t: T) => t.recipe.userId),
  "recipe.user.id": attr.uuid((t: T) => t.recipe.userId),
  "recipe.householdId": attr.uuid((t: T) => t.recipe.householdId),
  "recipe.household.id": attr.uuid((t: T) => t.recipe.householdId),
  "recipe.name": attr.string((t: T) => t.recipe.name),
  "recipe.slug": attr.string((t: T) => t.recipe.slug),
  userId: attr.uuid((t: T) => t.out.userId),
  "user.id": attr.uuid((t: T) => t.out.userId),
  groupId: attr.uuid((t: T) => t.out.groupId),
  householdId: attr.uuid((t: T) => t.out.householdId),
  subject: attr.string((t: T) => t.out.subject),
  eventType: attr.string((t: T) => t.out.eventType),
  eventMessage: attr.string((t: T) => t.out.eventMessage),
  image: attr.string((t: T) => t.out.image),
  timestamp: attr.datetime((t: T) => t.out.timestamp),
  createdAt: attr.datetime((t: T) => t.out.createdAt),
  updatedAt: attr.datetime((t: T) => t.out.updatedAt),
  updateAt: attr.datetime((t: T) => t.out.updatedAt),
});
