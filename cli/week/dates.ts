/** Days as the plan and list commands take them: YYYY-MM-DD, today (UTC) by default, weeks from the household's first day. */
import { CliError, EXIT } from "../output.js";
import type { WeekCalls } from "./types.js";
import { addDays, isRealDate, todayUtc } from "../../core/mealplans/dates.js";

export function checkDate(d: string | undefined): string {
  const date = d ?? todayUtc();
  if (!isRealDate(date)) throw new CliError(`Not a date: ${date} (use YYYY-MM-DD)`, EXIT.invalid);
  return date;
}

/** The week containing `date`, starting on the household's first day of the week. */
export async function weekOf(week: WeekCalls, date: string): Promise<{ start: string; end: string }> {
  const first = await week.firstDayOfWeek();
  const dow = new Date(`${date}T00:00:00Z`).getUTCDay();
  const start = addDays(date, -((dow - first + 7) % 7));
  return { start, end: addDays(start, 6) };
}
