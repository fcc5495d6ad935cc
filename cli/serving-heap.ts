/**
 * How fast V8 may grow the heap while `larder serve` answers requests (decision 0178). Under load V8
 * grows the old space by a factor it picks from the collector's speed (up to 4×), so request garbage
 * piles up between full collections: at 10,000 recipes the committed heap reached almost twice the
 * live one. A fixed factor of 1.2 collects sooner (1.1 cost reads at 50,000 recipes twice the p99; decision 0178). It is set once the folder is open, so the start
 * (a cold scan allocates fast and keeps most of it) keeps V8's own growth, and in the process itself,
 * so every way of starting the server gets it: node refuses the flag in `NODE_OPTIONS`.
 */
import { setFlagsFromString } from "node:v8";

export const SERVING_HEAP_GROWING_PERCENT = 20;
const FLAG = "--heap-growing-percent";

/**
 * Sets the serving growth factor unless node was started with one of its own (an operator's choice
 * wins). Returns the flag it set, or null.
 */
export function useServingHeapGrowth(execArgv: readonly string[] = process.execArgv): string | null {
  if (execArgv.some((a) => a === FLAG || a.startsWith(`${FLAG}=`) || a.startsWith("--heap_growing_percent")))
    return null;
  const flag = `${FLAG}=${SERVING_HEAP_GROWING_PERCENT}`;
  setFlagsFromString(flag);
  return flag;
}
