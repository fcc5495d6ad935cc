/**
 * The in-process event bus (ARCHITECTURE §6). Core publishes a typed event after each write; webhooks,
 * notifiers, reports and the live channel subscribe. Delivery is asynchronous — Mealie dispatches
 * events as background tasks after the response — and a failing subscriber is logged, never rethrown:
 * nothing a listener does can fail or slow the write that published.
 */
import { randomUUID } from "node:crypto";
import type { Logger } from "../log/logger.js";
import { eventTitle, type EventDocument, type EventType } from "./event-types.js";

export interface LarderEvent {
  eventId: string;
  eventType: EventType;
  /** ISO timestamp (UTC). */
  timestamp: string;
  groupId: string;
  /** null for group-wide events (tags, categories): every household of the group receives them. */
  householdId: string | null;
  /** Mealie's `integrationId`: who caused it ("generic" for a person, a client's id otherwise). */
  integrationId: string;
  message: { title: string; body: string };
  documentData: EventDocument;
  /** Who made the change, when a person did (git autocommit names them; never sent on the wire). */
  userId?: string;
}

export interface PublishInput {
  eventType: EventType;
  groupId: string;
  householdId: string | null;
  documentData: EventDocument;
  /** The translated message; Mealie sends "generic" when there is none. */
  body?: string;
  integrationId?: string;
  userId?: string;
}

export type EventListener = (event: LarderEvent) => void | Promise<void>;

export interface Subscription {
  /** Only these event types (default: all). */
  types?: readonly EventType[];
}

export class EventBus {
  #listeners = new Set<{ fn: EventListener; types: ReadonlySet<EventType> | null }>();
  #pending = new Set<Promise<void>>();

  constructor(private readonly log: Logger) {}

  /** Subscribe; returns the unsubscribe function. */
  subscribe(fn: EventListener, opts: Subscription = {}): () => void {
    const entry = { fn, types: opts.types ? new Set(opts.types) : null };
    this.#listeners.add(entry);
    return () => this.#listeners.delete(entry);
  }

  /** Build the event and deliver it to every matching listener after the current turn. */
  publish(input: PublishInput): LarderEvent {
    const event: LarderEvent = {
      eventId: randomUUID(),
      eventType: input.eventType,
      timestamp: new Date().toISOString(),
      groupId: input.groupId,
      householdId: input.householdId,
      integrationId: input.integrationId ?? "generic",
      message: { title: eventTitle(input.eventType), body: input.body || "generic" },
      documentData: input.documentData,
      ...(input.userId ? { userId: input.userId } : {}),
    };
    for (const l of this.#listeners) {
      if (l.types && !l.types.has(event.eventType)) continue;
      const run = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => l.fn(event))
        .catch((err) => this.log.error(`event listener failed on ${event.eventType}`, err))
        .finally(() => this.#pending.delete(run));
      this.#pending.add(run);
    }
    return event;
  }

  /** Resolves when every delivery started so far has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }
}
