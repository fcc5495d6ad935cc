/**
 * The recipe timeline's pure logic (spec §3 local preferences: orderDirection asc, types info, system,
 * comment): which event types show and in which order are the browser's own choice, kept in
 * localStorage; a damaged stored value falls back field by field to the defaults.
 */

export const EVENT_TYPES = ["info", "system", "comment"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export type OrderDirection = "asc" | "desc";

export interface TimelinePrefs {
  orderDirection: OrderDirection;
  types: EventType[];
}

export const DEFAULT_TIMELINE_PREFS: Readonly<TimelinePrefs> = Object.freeze({
  orderDirection: "asc",
  types: [...EVENT_TYPES],
});

export const TIMELINE_PREFS_KEY = "larder.timeline-preferences";

export function isEventType(v: unknown): v is EventType {
  return typeof v === "string" && (EVENT_TYPES as readonly string[]).includes(v);
}

export function parseTimelinePrefs(raw: string | null | undefined): TimelinePrefs {
  let v: Record<string, unknown> = {};
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) v = parsed as Record<string, unknown>;
  } catch {
    // A hand-edited or corrupt value: defaults.
  }
  const orderDirection =
    v.orderDirection === "asc" || v.orderDirection === "desc"
      ? v.orderDirection
      : DEFAULT_TIMELINE_PREFS.orderDirection;
  // Known types only, each once, in the canonical order; an empty choice is a real choice (show none).
  const types = Array.isArray(v.types)
    ? EVENT_TYPES.filter((t) => (v.types as unknown[]).includes(t))
    : [...DEFAULT_TIMELINE_PREFS.types];
  return { orderDirection, types };
}

export function loadTimelinePrefs(): TimelinePrefs {
  try {
    return parseTimelinePrefs(window.localStorage.getItem(TIMELINE_PREFS_KEY));
  } catch {
    return { ...DEFAULT_TIMELINE_PREFS, types: [...DEFAULT_TIMELINE_PREFS.types] };
  }
}

export function saveTimelinePrefs(p: TimelinePrefs): void {
  try {
    window.localStorage.setItem(TIMELINE_PREFS_KEY, JSON.stringify(p));
  } catch {
    // Not stored: the choice still applies to this page.
  }
}

/** The events the preferences show, in their order (by timestamp, then id so equal times stay put). */
export function visibleEvents<T extends { eventType: string; timestamp: string; id: string }>(
  events: readonly T[],
  prefs: TimelinePrefs,
): T[] {
  const sign = prefs.orderDirection === "asc" ? 1 : -1;
  const time = (e: T) => {
    const t = Date.parse(e.timestamp);
    return Number.isNaN(t) ? 0 : t;
  };
  return events
    .filter((e) => (prefs.types as string[]).includes(e.eventType))
    .sort((a, b) => sign * (time(a) - time(b) || a.id.localeCompare(b.id)));
}

/**
 * A date and time as `datetime-local` inputs take it ("2026-11-25T14:05"), in the browser's time zone,
 * and back to an ISO instant for the API.
 */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

export function fromLocalInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const d = new Date(value); // no offset: read as local time, as the input showed it
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** The file extension the image upload names ("photo.JPG" → "jpg"); the server checks the bytes anyway. */
export function extensionOf(fileName: string): string {
  const m = /\.([A-Za-z0-9]{1,8})$/.exec(fileName);
  return m ? m[1].toLowerCase() : "";
}
