/**
 * A listing's attributes as columns (decision 0110): an attribute table over the positions
 * `0 … n-1` of an array of items, whose values are read from the items and coerced once, on first
 * use, and whose sortable attributes carry a precomputed rank. A `queryFilter` compiled against it
 * compares comparables already in an array, and an `orderBy` compares numbers: reading, coercing
 * (dates parsed, text folded) and comparing every item's value on every request was most of a
 * filtered, ordered list at 10,000 recipes.
 *
 * The columns follow their array through one-item changes (decision 0135): the owner replaces,
 * removes or appends an item in the array and says so, and each built column patches that position
 * (a value, or a rank: the item leaves and re-enters the sorted order by binary search, and the
 * ranks are renumbered in one pass), instead of the whole table being read and sorted again.
 */
import { AttributeTable, type AttributeSpec, type ResolvedAttribute } from "./attribute-table.js";
import { sortKey } from "./order.js";
import { itemComparable, type AttrScalar, type Comparable } from "./values.js";

/** A column table and how to keep it current with its array of items. */
export interface LiveColumns {
  readonly table: AttributeTable<number>;
  /** `items[at]` was replaced by another item. */
  replaced(at: number): void;
  /** The item at `at` was spliced out of the array: later positions moved down by one. */
  removed(at: number): void;
  /** An item was pushed onto the end of the array. */
  appended(): void;
  /**
   * The positions from place `start` to place `end` of the order by one ranked attribute, as
   * `sortItems` orders all positions by it (ties and nulls by position), read off the kept sorted
   * order: a page of a list ordered by name or date without a key per item, and without an array of
   * every place before it (a client paging through 50,000 recipes asked for arrays of up to all of
   * them). Null when the attribute has no rank.
   */
  orderedPrefix(
    path: string,
    direction: "asc" | "desc",
    nullsFirst: boolean,
    end: number,
    start?: number,
  ): number[] | null;
}

interface Column {
  spec: AttributeSpec<number>;
  replaced(at: number): void;
  removed(at: number): void;
  appended(): void;
  /** The items in this column's sorted order, if it was ranked (for a next table's sort). */
  sorted(): readonly unknown[] | undefined;
  /** See LiveColumns.orderedPrefix. */
  orderedPrefix?(direction: "asc" | "desc", nullsFirst: boolean, end: number, start: number): number[];
}

/** Per column table: its columns, for the next table's sort. */
const columnsOf = new WeakMap<AttributeTable<number>, Map<string, Column>>();

/**
 * The column table of `items`. With the table of the listing before a change (`previous`), a rank
 * starts from the previous sorted order: the array sort is adaptive, so after a change of a few
 * items it costs about one comparison per item instead of a full sort.
 */
export function columnTable<T>(
  table: AttributeTable<T>,
  items: readonly T[],
  previous?: AttributeTable<number> | null,
): AttributeTable<number> {
  return liveColumns(table, items, previous).table;
}

/** The column table of `items`, patchable as the array changes one item at a time. */
export function liveColumns<T>(
  table: AttributeTable<T>,
  items: readonly T[],
  previous?: AttributeTable<number> | null,
): LiveColumns {
  const before = previous ? columnsOf.get(previous) : undefined;
  let position: Map<T, number> | null = null;
  const positionOf = () => (position ??= new Map(items.map((item, at) => [item, at])));
  const columns = new Map<string, Column>();
  const specs: Record<string, AttributeSpec<number>> = {};
  for (const a of table.attributes()) {
    const c = a.many
      ? manyColumn(a, items)
      : scalarColumn(a, items, {
          before: () => before?.get(a.path)?.sorted() as readonly T[] | undefined,
          positionOf,
        });
    columns.set(a.path, c);
    specs[a.path] = c.spec;
  }
  const out = new AttributeTable<number>(table.entity, specs);
  columnsOf.set(out, columns);
  return {
    table: out,
    replaced: (at) => columns.forEach((c) => c.replaced(at)),
    removed: (at) => columns.forEach((c) => c.removed(at)),
    appended: () => columns.forEach((c) => c.appended()),
    orderedPrefix: (path, direction, nullsFirst, end, start = 0) => {
      const a = out.tryResolve(path);
      const c = a ? columns.get(a.path) : undefined;
      return c?.orderedPrefix ? c.orderedPrefix(direction, nullsFirst, end, start) : null;
    },
  };
}

function manyColumn<T>(a: ResolvedAttribute<T>, items: readonly T[]): Column {
  const { type } = a;
  const get = a.get as (item: T) => readonly AttrScalar[];
  const valueOf = (item: T) => get(item).map((v) => itemComparable(type, v));
  let values: (Comparable | null)[][] | null = null;
  const read = () => (values ??= items.map(valueOf));
  return {
    spec: { type, many: true, coerced: true, get: (at) => read()[at] },
    replaced: (at) => {
      if (values) values[at] = valueOf(items[at]);
    },
    removed: (at) => void values?.splice(at, 1),
    appended: () => void values?.push(valueOf(items[items.length - 1])),
    sorted: () => undefined,
  };
}

interface RankHints<T> {
  /** The items in the previous table's order for this attribute, if it was ranked. */
  before(): readonly T[] | undefined;
  positionOf(): Map<T, number>;
}

const compareKeys = (kx: Comparable, ky: Comparable): number => (kx < ky ? -1 : kx > ky ? 1 : 0);

function scalarColumn<T>(a: ResolvedAttribute<T>, items: readonly T[], hints: RankHints<T>): Column {
  const { type } = a;
  const get = a.get as (item: T) => AttrScalar;
  const valueOf = (item: T) => itemComparable(type, get(item));
  const keyOf = (item: T) => sortKey(type, get(item));
  let values: (Comparable | null)[] | null = null;
  const read = () => (values ??= items.map(valueOf));

  // Built on the first orderBy: each position's sort key, the non-null positions in key order, and
  // the dense rank of each position (equal keys share a number, so ties stay ties and the caller's
  // stable order breaks them; NaN marks null).
  let ranked: { keys: (Comparable | null)[]; order: number[]; rank: Float64Array } | null = null;

  const renumber = (): void => {
    const r = ranked!;
    const { keys, order } = r;
    if (r.rank.length !== keys.length) r.rank = new Float64Array(keys.length);
    const rank = r.rank.fill(NaN);
    let n = 0;
    for (let i = 0; i < order.length; i++) {
      if (i > 0 && keys[order[i]] !== keys[order[i - 1]]) n++;
      rank[order[i]] = n;
    }
  };
  /** Place position `at` (its key already in `keys`) into the sorted order: by key, then position. */
  const place = (at: number): void => {
    const { keys, order } = ranked!;
    const k = keys[at];
    if (k === null) return;
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const c = compareKeys(keys[order[mid]]!, k) || order[mid] - at;
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    order.splice(lo, 0, at);
  };
  const unplace = (at: number): void => {
    const { order } = ranked!;
    const i = order.indexOf(at);
    if (i >= 0) order.splice(i, 1);
  };

  const build = (): Float64Array => {
    if (ranked) return ranked.rank;
    const keys = items.map(keyOf);
    let start: number[];
    const before = hints.before();
    if (before) {
      // The previous order first (items still here), then the new ones: nearly sorted already.
      const pos = hints.positionOf();
      const seen = new Uint8Array(items.length);
      start = [];
      for (const item of before) {
        const at = pos.get(item);
        if (at !== undefined && !seen[at]) {
          seen[at] = 1;
          start.push(at);
        }
      }
      for (let at = 0; at < items.length; at++) if (!seen[at]) start.push(at);
    } else start = keys.map((_, i) => i);
    const order = start.filter((i) => keys[i] !== null);
    // Ties by position: the order a stable sort of positions gives, which orderedPrefix reads.
    order.sort((x, y) => compareKeys(keys[x]!, keys[y]!) || x - y);
    ranked = { keys, order, rank: new Float64Array(0) };
    renumber();
    return ranked.rank;
  };

  return {
    spec: {
      type,
      coerced: true,
      get: (at) => read()[at],
      orderKey: () => {
        const r = build();
        return (at) => (Number.isNaN(r[at]) ? null : r[at]);
      },
    },
    replaced: (at) => {
      const item = items[at];
      if (values) values[at] = valueOf(item);
      if (!ranked) return;
      const k = keyOf(item);
      if (k === ranked.keys[at]) return;
      unplace(at);
      ranked.keys[at] = k;
      place(at);
      renumber();
    },
    removed: (at) => {
      values?.splice(at, 1);
      if (!ranked) return;
      unplace(at);
      ranked.keys.splice(at, 1);
      const { order } = ranked;
      for (let i = 0; i < order.length; i++) if (order[i] > at) order[i]--;
      renumber();
    },
    appended: () => {
      const item = items[items.length - 1];
      values?.push(valueOf(item));
      if (!ranked) return;
      ranked.keys.push(keyOf(item));
      place(items.length - 1);
      renumber();
    },
    sorted: () => (ranked ? ranked.order.map((at) => items[at]) : undefined),
    orderedPrefix: (direction, nullsFirst, end, start) => {
      const rank = build();
      const { order } = ranked!;
      const out: number[] = [];
      // Places before `start` are counted, not kept.
      let placed = 0;
      const take = (at: number): void => {
        if (placed++ >= start) out.push(at);
      };
      const nulls = (): void => {
        for (let at = 0; at < rank.length && placed < end; at++) if (Number.isNaN(rank[at])) take(at);
      };
      if (nullsFirst) nulls();
      if (direction === "asc") {
        for (let i = 0; i < order.length && placed < end; i++) take(order[i]);
      } else {
        // Highest rank first; equal keys keep position order, as the stable sort does.
        let hi = order.length;
        while (hi > 0 && placed < end) {
          let lo = hi - 1;
          while (lo > 0 && rank[order[lo - 1]] === rank[order[hi - 1]]) lo--;
          for (let i = lo; i < hi && placed < end; i++) take(order[i]);
          hi = lo;
        }
      }
      if (!nullsFirst) nulls();
      return out;
    },
  };
}
