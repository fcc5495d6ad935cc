/**
 * How fast V8 may grow the heap while `larder serve` answers requests (decisions 0178, 0184). Under
 * load V8 grows the old space by a factor it picks from the collector's speed (up to 4×), so request
 * garbage piles up between full collections: at 10,000 recipes the committed heap reached almost twice
 * the live one. A fixed factor collects sooner: 1.2 (1.1 doubled the read p99 at 50,000 recipes), and
 * 1.4 for a folder of 25,000 recipes or more, whose full collection (about 300 MB live at 50,000) slows
 * every request in flight for a few hundred ms — at 1.2 that came every 2.5 s under the mixed load. It
 * is set once the folder is open, so the start (a cold scan allocates fast and keeps most of it) keeps
 * V8's own growth, and in the process itself, so every way of starting the server gets it: node
 * refuses the flag in `NODE_OPTIONS`. Set through `useV8Flag`, so that a worker thread started later
 * (a sign-in's bcrypt, the disk thread) does not put V8's own growth back (decision 0188).
 */
import { useV8Flag } from "../core/util/v8-flags.js";

/** From this many recipes, the larger growth factor. */
export const LARGE_FOLDER_RECIPES = 25_000;
/** The flag as node accepts it on its command line: dashes or underscores, `=value` or a value after. */
const GIVEN = /^--heap[-_]growing[-_]percent(=|$)/;

/** The growth flag for a folder of `recipes` recipes. */
export function servingHeapFlag(recipes: number): string {
  return `--heap-growing-percent=${recipes >= LARGE_FOLDER_RECIPES ? 40 : 20}`;
}

/**
 * Sets the serving growth factor for a folder of `recipes` recipes unless node was started with one
 * of its own (an operator's choice wins). Returns the flag it set, or null.
 */
export function useServingHeapGrowth(
  recipes: number,
  execArgv: readonly string[] = process.execArgv,
): string | null {
  if (execArgv.some((a) => GIVEN.test(a))) return null;
  const flag = servingHeapFlag(recipes);
  useV8Flag(flag);
  return flag;
}
