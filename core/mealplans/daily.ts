/**
 * The household week's daily jobs (mealie-api-notes §7, §8, §9), run once a day at or after
 * DAILY_SCHEDULE_TIME (local time, default 23:45): today's planned recipes are marked as made, and each
 * shopping list keeps its 100 most recently checked items. The scheduler asks every few minutes; the day
 * a run happened is remembered, and both jobs are idempotent, so a restart late in the day is harmless.
 */
import type { Parts } from "../parts.js";

/** Jobs are the site's own: they run against the whole Larder, as it is after any reload. */
type Deps = Parts;

const lastRun = new WeakMap<Deps, string>();

function localDay(d: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** Whether the daily jobs are due at `now` (local time past the schedule time, not yet run that local day). */
export function dailyDue(larder: Deps, now: Date): boolean {
  const [h, m] = (larder.config.dailyScheduleTime ?? "23:45").split(":").map(Number);
  const minutes = now.getHours() * 60 + now.getMinutes();
  return minutes >= h * 60 + m && lastRun.get(larder) !== localDay(now);
}

export async function runDailyWeekJobs(
  larder: Deps,
  now = new Date(),
): Promise<{ marked: number; trimmed: number } | null> {
  if (!dailyDue(larder, now)) return null;
  lastRun.set(larder, localDay(now));
  const marked = await larder.mealplans.markTodayMade(now);
  const trimmed = await larder.shopping.trimChecked();
  if (marked || trimmed)
    larder.log.info(`daily: ${marked} planned recipe(s) marked as made, ${trimmed} checked item(s) trimmed`);
  return { marked, trimmed };
}
