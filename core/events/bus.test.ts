import { describe, expect, it, vi } from "vitest";
import { consoleLogger } from "../log/logger.js";
import { EventBus } from "./bus.js";
import { EVENT_TYPES, eventTitle, eventTypeNumber } from "./event-types.js";

const doc = { documentType: "recipe" as const, operation: "create" as const, recipeSlug: "soup" };

describe("event bus", () => {
  it("numbers and titles event types as Mealie does", () => {
    expect(EVENT_TYPES).toHaveLength(22);
    expect(eventTypeNumber("test_message")).toBe(1);
    expect(eventTypeNumber("webhook_task")).toBe(2);
    expect(eventTypeNumber("category_deleted")).toBe(22);
    expect(eventTitle("recipe_created")).toBe("Recipe Created");
  });

  it("delivers after the publishing turn, only to listeners of that type", async () => {
    const bus = new EventBus(consoleLogger("silent"));
    const all: string[] = [];
    const onlyLists: string[] = [];
    bus.subscribe((e) => void all.push(e.eventType));
    bus.subscribe((e) => void onlyLists.push(e.eventType), { types: ["shopping_list_updated"] });
    const event = bus.publish({
      eventType: "recipe_created",
      groupId: "g",
      householdId: "h",
      documentData: doc,
    });
    expect(all).toEqual([]);
    expect(event.message).toEqual({ title: "Recipe Created", body: "generic" });
    expect(event.integrationId).toBe("generic");
    await bus.idle();
    expect(all).toEqual(["recipe_created"]);
    expect(onlyLists).toEqual([]);
  });

  it("logs a failing listener and still delivers to the others", async () => {
    const error = vi.fn();
    const bus = new EventBus({ info() {}, warn() {}, error });
    const seen: string[] = [];
    bus.subscribe(() => {
      throw new Error("listener broke");
    });
    bus.subscribe(async (e) => void seen.push(e.eventId));
    const unsubscribe = bus.subscribe(() => void seen.push("never"));
    unsubscribe();
    const event = bus.publish({
      eventType: "recipe_deleted",
      groupId: "g",
      householdId: null,
      documentData: doc,
    });
    await bus.idle();
    expect(seen).toEqual([event.eventId]);
    expect(error).toHaveBeenCalledWith(expect.stringContaining("recipe_deleted"), expect.any(Error));
  });
});
