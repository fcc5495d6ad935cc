/**
 * The meal planner's pure logic (spec §3, §9): plan dates are `yyyy-MM-dd` calendar days, the week starts
 * on the household's first day of week (0 = Sunday), and how many days the planner shows is the
 * browser's own preference (default 7). Shared by the planner's loader and its components.
 */

/** Mealie's seven entry types, in its order (mealie-api-notes: the four of the spec plus three more). */
export const ENTRY_TYPES = ["breakfast", "lunch", "dinner", "side", "snack", "drink", "dessert"] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];
/** Spec §9: default dinner. */
export const DEFAULT_ENTRY_TYPE: EntryType = "dinner";

/** Rules add "unset" (any day, any type); days are English weekday names as the API takes them. */
export const RULE_DAYS = [
  "unset",
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
] as const;
export type RuleDay = (typeof RULE_DAYS)[number];
export const RULE_TYPES = ["unset", ...ENTRY_TYPES] as const;
export type RuleType = (typeof RULE_TYPES)[number];

/** Spec §3 local preferences: numberOfDays 7. */
export const DEFAULT_DAYS = 7;
export const MAX_DAYS = 31;
export const DAYS_PREF_KEY = "larder.mealplan-number-of-days";

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isEntryType(v: unknown): v is EntryType {
  return typeof v === "string" && (ENTRY_TYPES as readonly string[]).includes(v);
}

/** A real calendar day in `yyyy-MM-dd` (2024-02-30 is not one). */
export function isPlanDate(s: unknown): s is string {
  if (typeof s !== "string") return false;
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/** Plan dates are days, not instants: the arithmetic runs in UTC so no time zone shifts a day. */
export function addDays(date: string, days: number): string {
  const t = new Date(`${date}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + days);
  return t.toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

/** The English weekday name of a date, as rules name days ("2023-02-25" → "saturday"). */
export function ruleDayOf(date: string): Exclude<RuleDay, "unset"> {
  const names = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;
  return names[weekdayOf(date)];
}

/** The calendar day a clock shows in the browser's own time zone (not UTC: "today" is the reader's). */
export function localDate(now: Date = new Date()): string {
  const y = now.getFullYear();
  const m = String(now.getMonth() + 1).padStart(2, "0");
  const d = String(now.getDate()).padStart(2, "0");
  return `${y}-${m}-${d}`;
}

/** A first day of week as the household stores it: an integer 0..6, anything else is Sunday. */
export function normaliseFirstDay(v: unknown): number {
  return typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 6 ? v : 0;
}

/** The last `firstDayOfWeek` on or before `date`: where the week holding `date` begins. */
export function startOfWeek(date: string, firstDayOfWeek: number): string {
  const back = (weekdayOf(date) - normaliseFirstDay(firstDayOfWeek) + 7) % 7;
  return addDays(date, -back);
}

/** `count` consecutive days from `start`. */
export function planDays(start: string, count: number): string[] {
  return Array.from({ length: clampDays(count) }, (_, i) => addDays(start, i));
}

/** A day count the planner accepts: 1..31, whole; anything else is the default 7. */
export function clampDays(v: unknown): number {
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  if (typeof n !== "number" || !Number.isFinite(n)) return DEFAULT_DAYS;
  const whole = Math.floor(n);
  if (whole < 1) return DEFAULT_DAYS;
  return Math.min(whole, MAX_DAYS);
}

/**
 * Where the previous or next page of the planner starts: a whole week back or on when it shows a week
 * or less (so each page still starts on the first day of week), else as many days as it shows.
 */
export function shiftStart(start: string, days: number, direction: -1 | 1): string {
  const step = clampDays(days) <= 7 ? 7 : clampDays(days);
  return addDays(start, direction * step);
}

/** Entries sorted into their days, each day by entry type order then id (the planner's columns). */
export function byDay<T extends { date: string; entryType: string; id: number }>(
  days: string[],
  entries: T[],
): Map<string, T[]> {
  const out = new Map<string, T[]>(days.map((d) => [d, []]));
  for (const e of entries) out.get(e.date)?.push(e);
  const order = (t: string) => {
    const i = (ENTRY_TYPES as readonly string[]).indexOf(t);
    return i < 0 ? ENTRY_TYPES.length : i;
  };
  for (const list of out.values())
    list.sort((a, b) => order(a.entryType) - order(b.entryType) || a.id - b.id);
  return out;
}

/** The stored day count, or the default when none is stored or it is damaged. */
export function parseDaysPref(raw: string | null | undefined): number {
  return raw == null ? DEFAULT_DAYS : clampDays(raw);
}

export function loadDaysPref(): number {
  try {
    return parseDaysPref(window.localStorage.getItem(DAYS_PREF_KEY));
  } catch {
    return DEFAULT_DAYS; // storage blocked (private mode, a policy): the default
  }
}

export function saveDaysPref(days: number): void {
  try {
    window.localStorage.setItem(DAYS_PREF_KEY, String(clampDays(days)));
  } catch {
    // Not stored: the choice still applies to this page.
  }
}

/**
 * A plan date (or a range of them) in the reader's language. Plan dates are days, so UTC; and every
 * kind of space becomes a plain one, because Node's ICU puts thin spaces where Chromium's puts plain
 * ones, and the server's text must match the browser's when the page hydrates.
 */
export function formatPlanDate(date: string, lang: string, opts: Intl.DateTimeFormatOptions): string {
  return new Intl.DateTimeFormat(lang, { timeZone: "UTC", ...opts })
    .format(new Date(`${date}T00:00:00Z`))
    .replace(/\s/g, " ");
}

export function formatPlanRange(
  start: string,
  end: string,
  lang: string,
  opts: Intl.DateTimeFormatOptions,
): string {
  return new Intl.DateTimeFormat(lang, { timeZone: "UTC", ...opts })
    .formatRange(new Date(`${start}T00:00:00Z`), new Date(`${end}T00:00:00Z`))
    .replace(/\s/g, " ");
}
