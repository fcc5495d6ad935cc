/**
 * One empty list and one empty record for every value kept for long that has none (a recipe's tags, a
 * list entry's foods): at 50,000 recipes, hundreds of thousands of objects fewer for the collector to
 * mark (decision 0207). Frozen, a change made in place by mistake throws instead of reaching every
 * holder.
 */
export const EMPTY_LIST: readonly never[] = Object.freeze([]);
export const EMPTY_RECORD: Readonly<Record<string, never>> = Object.freeze({});

/** EMPTY_LIST typed as a list of `T`, for types that say the list is mutable (it never is changed). */
export function emptyList<T>(): T[] {
  return EMPTY_LIST as never[];
}
