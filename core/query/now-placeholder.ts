/**
 * Mealie's `$NOW` placeholder in filter values (`createdAt >= $NOW-7d`, `date <= "$NOW+1m"`): the time
 * of the request, optionally moved by a whole number of years (y), months (m), days (d), hours (H),
 * minutes (M) or seconds (S). Months and years move the calendar and keep the day, clamped to the end
 * of a shorter month (Jan 31 + 1m is Feb 28 or 29), as python-dateutil's relativedelta does. The
 * result is a naive UTC ISO timestamp, which the value's column then reads as any written date.
 */
import { invalidQuery } from "./query-filter.js";

export const NOW = "$NOW";

const UNITS = new Set(["y", "m", "d", "H", "M", "S"]);

/** Whether a filter string may depend on the time it runs at, so its result must not be remembered. */
export function mentionsNow(filter: string): boolean {
  return filter.includes(NOW);
}

/** `value` with a leading `$NOW…` replaced by the timestamp it names; any other value as it is. */
export function resolveNow(value: string, now: Date = new Date()): string {
  if (!value.startsWith(NOW)) return value;
  const rest = value.slice(NOW.length);
  if (rest === "") return naiveIso(now);
  const m = /^([+-])(\d+)(.)$/.exec(rest);
  if (!m || !UNITS.has(m[3]))
    throw invalidQuery(
      `'${value}' is not a valid ${NOW} value (write ${NOW}, or ${NOW} with + or - a whole number and one of y, m, d, H, M, S, e.g. ${NOW}-7d)`,
    );
  const amount = Number(m[2]) * (m[1] === "-" ? -1 : 1);
  if (!Number.isSafeInteger(amount)) throw invalidQuery(`'${value}' moves too far from now`);
  const unit = m[3];
  const t = new Date(now.getTime());
  if (unit === "y" || unit === "m") {
    const months = unit === "y" ? amount * 12 : amount;
    const total = t.getUTCFullYear() * 12 + t.getUTCMonth() + months;
    const year = Math.floor(total / 12);
    const month = total - year * 12;
    const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    t.setUTCFullYear(year, month, Math.min(t.getUTCDate(), lastDay));
  } else {
    const ms = { d: 86_400_000, H: 3_600_000, M: 60_000, S: 1000 }[unit as "d" | "H" | "M" | "S"];
    t.setTime(t.getTime() + amount * ms);
  }
  if (Number.isNaN(t.getTime())) throw invalidQuery(`'${value}' moves too far from now`);
  return naiveIso(t);
}

/** `2026-12-06T22:30:00.123` (no zone): Mealie's naive isoformat, which Larder reads as UTC. */
function naiveIso(t: Date): string {
  return t.toISOString().slice(0, -1);
}
