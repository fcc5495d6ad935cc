/**
 * Events of services that know nothing of the bus themselves: organizer writes become Mealie's
 * tag_* and category_* events, group-wide (household null: every household of the group hears them).
 */
import type { Parts } from "../parts.js";
import type { EventType } from "./event-types.js";

/** The parts of the Larder this module uses. */
type Deps = Pick<Parts, "events" | "organizers">;

export function connectEventPublishers(larder: Deps): void {
  larder.organizers.onWrite(({ group, kind, operation, record }) => {
    if (kind === "tools") return;
    const noun = kind === "tags" ? "tag" : "category";
    const suffix = operation === "create" ? "created" : operation === "update" ? "updated" : "deleted";
    const eventType = `${noun}_${suffix}` as EventType;
    larder.events.publish({
      eventType,
      groupId: group.doc.data.id,
      householdId: null,
      documentData:
        noun === "tag"
          ? { documentType: "tag", operation, tagId: record.id }
          : { documentType: "category", operation, categoryId: record.id },
    });
  });
}
