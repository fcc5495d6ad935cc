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
 * (a sign-in's bcrypt, the disk thread) does not put V8's own growth back (decisions 0188, 0189).
 *
 * The young generation (decision 0189): `npm start` and `npm run larder` start node with semi-spaces of
 * 4 MB and a ceiling of 16 MB (`--min-semi-space-size=4 --max-semi-space-size=16`), and the CLI holds
 * them at 4 MB first thing. Once a folder of 25,000 recipes or more is open, V8 may grow them: under the mixed load a
 * request lives for tens of milliseconds, longer than 4 MB of allocation takes, so what it allocated
 * was promoted and filled the old space, whose full collections (the load's slowest requests) came
 * every five seconds. Below that size a 10,000-recipe cold start would take the larger young
 * generation (V8 grows it while most of what is allocated survives) past its memory target; the hold
 * lasts through the worker threads a cold scan starts because each sets the flags again as the first
 * thing it runs (decision 0189).
 */
import { useV8Flag } from "../core/util/v8-flags.js";

/** From this many recipes, the larger growth factor. */
export const LARGE_FOLDER_RECIPES = 25_000;
/** The flag as node accepts it on its command line: dashes or underscores, `=value` or a value after. */
const GIVEN = /^--heap[-_]growing[-_]percent(=|$)/;

const GROWTH = /^--semi[-_]space[-_]growth[-_]factor(=|$)/;
let held = false;

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

/**
 * Holds the young generation at the size node started it with (`--min-semi-space-size`), as the start
 * scripts ask. V8 reads its growth factor each time it would grow, so setting it here takes effect from
 * here on (given on node's command line it did not hold, Node 22; `NODE_OPTIONS` refuses it). A factor
 * the operator gave is left alone; without a start size there is nothing to hold (V8 would stay at its
 * own 1 MB). Returns whether it held.
 */
export function holdYoungGeneration(execArgv: readonly string[] = process.execArgv): boolean {
  if (!execArgv.some((a) => /^--min[-_]semi[-_]space[-_]size(=|$)/.test(a))) return false;
  if (execArgv.some((a) => GROWTH.test(a))) return false;
  useV8Flag("--semi-space-growth-factor=1");
  held = true;
  return true;
}

/**
 * Lets a held young generation grow to node's ceiling (`--max-semi-space-size`; V8's own growth
 * factor, 2) for a folder of 25,000 recipes or more. Returns the flag it set, or null.
 */
export function useServingYoungGeneration(recipes: number): string | null {
  if (!held || recipes < LARGE_FOLDER_RECIPES) return null;
  const flag = "--semi-space-growth-factor=2";
  useV8Flag(flag);
  held = false;
  return flag;
}
