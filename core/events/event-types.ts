/**
 * Mealie's event types (mealie-api-notes §9). The order is the wire contract: webhooks send the
 * 1-based position as the integer `eventType`, and notifiers have one option flag per name.
 */
export const EVENT_TYPES = [
  "test_message",
  "webhook_task",
  "recipe_created",
  "recipe_updated",
  "recipe_deleted",
  "user_signup",
  "data_migrations",
  "data_export",
  "data_import",
  "mealplan_entry_created",
  "shopping_list_created",
  "shopping_list_updated",
  "shopping_list_deleted",
  "cookbook_created",
  "cookbook_updated",
  "cookbook_deleted",
  "tag_created",
  "tag_updated",
  "tag_deleted",
  "category_created",
  "category_updated",
  "category_deleted",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** Mealie's integer value of an event type (Python `Enum` with `auto()`: 1-based). */
export function eventTypeNumber(type: EventType): number {
  return EVENT_TYPES.indexOf(type) + 1;
}

/** "recipe_created" → "Recipe Created", as Mealie titles its notifications. */
export function eventTitle(type: EventType): string {
  return type
    .split("_")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(" ");
}

export type EventOperation = "info" | "create" | "update" | "delete";

/** The `documentData` variants of mealie-api-notes §9, as Mealie sends them (camelCase). */
export type EventDocument =
  | { documentType: "recipe"; operation: EventOperation; recipeSlug: string }
  | { documentType: "recipe"; operation: EventOperation; recipeSlugs: string[] }
  | { documentType: "recipe_bulk_report"; operation: EventOperation; reportId: string }
  | {
      documentType: "recipe_timeline_event";
      operation: EventOperation;
      recipeSlug: string;
      recipeTimelineEventId: string;
    }
  | { documentType: "shopping_list"; operation: EventOperation; shoppingListId: string }
  | {
      documentType: "shopping_list_item";
      operation: EventOperation;
      shoppingListId: string;
      shoppingListItemIds: string[];
    }
  | { documentType: "cookbook"; operation: EventOperation; cookbookId: string }
  | { documentType: "cookbook"; operation: EventOperation; cookbookIds: string[] }
  | { documentType: "category"; operation: EventOperation; categoryId: string }
  | { documentType: "tag"; operation: EventOperation; tagId: string }
  | {
      documentType: "mealplan";
      operation: EventOperation;
      mealplanId: string | number;
      date: string;
      recipeId: string | null;
      recipeName: string | null;
      recipeSlug: string | null;
    }
  | { documentType: "user"; operation: EventOperation; username: string; email: string }
  | {
      documentType: "mealplan";
      operation: "info";
      webhookStartDt: string;
      webhookEndDt: string;
      webhookBody: unknown[];
    }
  | { documentType: "generic"; operation: EventOperation; [key: string]: unknown };
