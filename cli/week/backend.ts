/** `plan` and `list` over the week calls, answered by the live server's API or by core under our own lock. */
import { withCalls } from "../calls.js";
import { weekCalls } from "./calls.js";
import type { WeekCalls } from "./types.js";

export function withWeek<T>(dataDir: string, fn: (week: WeekCalls) => Promise<T>): Promise<T> {
  return withCalls(dataDir, weekCalls, (calls) => fn(calls));
}
