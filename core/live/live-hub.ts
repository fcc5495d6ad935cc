/**
 * The live channel's source (issue 14): every change to a shopping list, an item or a meal plan entry,
 * with the changed wire objects, for the clients of one household. The event bus carries Mealie's
 * documentData (ids only); this carries the objects, so an open list can redraw without asking again.
 * Delivery is synchronous and cheap: a subscriber only queues a write to its connection.
 */

export type LiveKind = "shopping-list" | "shopping-item" | "mealplan";
export type LiveOperation = "create" | "update" | "delete";

export interface LiveChange {
  groupId: string;
  householdId: string;
  kind: LiveKind;
  operation: LiveOperation;
  /** The changed objects in their wire shape (the deleted ones for `delete`). */
  data: unknown[];
}

export type LiveListener = (change: LiveChange) => void;

export class LiveHub {
  #byHousehold = new Map<string, Set<LiveListener>>();

  /** Listen to one household's changes; returns the unsubscribe function. */
  subscribe(householdId: string, fn: LiveListener): () => void {
    let set = this.#byHousehold.get(householdId);
    if (!set) {
      set = new Set();
      this.#byHousehold.set(householdId, set);
    }
    set.add(fn);
    return () => {
      const s = this.#byHousehold.get(householdId);
      if (!s) return;
      s.delete(fn);
      if (s.size === 0) this.#byHousehold.delete(householdId);
    };
  }

  publish(change: LiveChange): void {
    if (change.data.length === 0) return;
    for (const fn of this.#byHousehold.get(change.householdId) ?? []) {
      try {
        fn(change);
      } catch {
        // One broken connection must not keep the others from hearing about the change.
      }
    }
  }

  /** Open subscriptions (tests, the admin's view). */
  size(): number {
    let n = 0;
    for (const s of this.#byHousehold.values()) n += s.size;
    return n;
  }
}
