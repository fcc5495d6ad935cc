/**
 * How fast V8 may grow the heap while `larder serve` answers requests (decision 0178). Under load V8
 * grows the old space by a factor it picks from the collector's speed (up to 4×), so request garbage
 * piles up between full collections: at 10,000 recipes the committed heap reached almost twice the
 * live one. A fixed factor of 1.4 collects sooner (1.1 doubled the read p99 at 50,000 recipes; 1.2, the
 * first choice, made a full collection of the 50,000-recipe heap every 2.5 s under the mixed load, and
 * each one slowed every request in flight: decision 0184). It is
 * set once the folder is open, so the start (a cold scan allocates fast and keeps most of it) keeps
 * V8's own growth, and in the process itself, so every way of starting the server gets it: node
 * refuses the flag in `NODE_OPTIONS`.
 */
import { setFlagsFromString } from "node:v8";

const SERVING_FLAG = "--heap-growing-percent=40";
/** The flag as node accepts it on its command line: dashes or underscores, `=value` or a value after. */
const GIVEN = /^--heap[-_]growing[-_]percent(=|$)/;

/**
 * Sets the serving growth factor unless node was started with one of its own (an operator's choice
 * wins). Returns the flag it set, or null.
 */
export function useServingHeapGrowth(execArgv: readonly string[] = process.execArgv): string | null {
  if (execArgv.some((a) => GIVEN.test(a))) return null;
  setFlagsFromString(SERVING_FLAG);
  return SERVING_FLAG;
}
