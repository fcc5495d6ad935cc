/**
 * A listing's attributes as columns (decision 0110): an attribute table over the positions
 * `0 … n-1` of a fixed array of items, whose values are read from the items and coerced once, on
 * first use, and whose sortable attributes carry a precomputed rank. A `queryFilter` compiled
 * against it compares comparables already in an array, and an `orderBy` compares numbers: reading,
 * coercing (dates parsed, text folded) and comparing every item's value on every request was most of
 * a filtered, ordered list at 10,000 recipes.
 *
 * The table belongs to one array of items: a listing that changes builds a new one.
 */
import { AttributeTable, type AttributeSpec, type ResolvedAttribute } from "./attribute-table.js";
import { sortKey } from "./order.js";
import { itemComparable, type AttrScalar, type Comparable } from "./values.js";

/** Per column table: each ranked attribute's items in sorted order, for the next table's sort. */
const sortedItems = new WeakMap<AttributeTable<number>, Map<string, readonly unknown[]>>();

/**
 * The column table of `items`. With the table of the listing before a change (`previous`), a rank
 * starts from the previous sorted order: the array sort is adaptive, so after a change of a few
 * recipes it costs about one comparison per item instead of a full sort (a write to a group is
 * followed by a rebuild of its columns on the next ordered list).
 */
export function columnTable<T>(
  table: AttributeTable<T>,
  items: readonly T[],
  previous?: AttributeTable<number> | null,
): AttributeTable<number> {
  const before = previous ? sortedItems.get(previous) : undefined;
  const mine = new Map<string, readonly unknown[]>();
  let position: Map<T, number> | null = null;
  const positionOf = () => (position ??= new Map(items.map((item, at) => [item, at])));
  const specs: Record<string, AttributeSpec<number>> = {};
  for (const a of table.attributes())
    specs[a.path] = column(a, items, {
      before: before?.get(a.path) as readonly T[] | undefined,
      positionOf,
      keep: (sorted) => mine.set(a.path, sorted),
    });
  const out = new AttributeTable<number>(table.entity, specs);
  sortedItems.set(out, mine);
  return out;
}

interface RankHints<T> {
  /** The items in the previous table's order for this attribute, if it was ranked. */
  before?: readonly T[];
  positionOf(): Map<T, number>;
  keep(sorted: readonly T[]): void;
}

function column<T>(a: ResolvedAttribute<T>, items: readonly T[], hints: RankHints<T>): AttributeSpec<number> {
  const { type } = a;
  if (a.many) {
    const get = a.get;
    let values: (Comparable | null)[][] | null = null;
    const read = () => (values ??= items.map((item) => get(item).map((v) => itemComparable(type, v))));
    return { type, many: true, coerced: true, get: (at) => read()[at] };
  }
  const get = a.get;
  let values: (Comparable | null)[] | null = null;
  const read = () => (values ??= items.map((item) => itemComparable(type, get(item))));
  let rank: Float64Array | null = null;
  const ranks = (): Float64Array => {
    if (rank) return rank;
    // Dense rank of each item's sort key: equal keys share a number, so ties stay ties and the
    // caller's stable order breaks them as before. NaN marks null.
    const keys = items.map((item) => sortKey(type, get(item) as AttrScalar));
    let start: number[];
    if (hints.before) {
      // The previous order first (items still here), then the new ones: nearly sorted already.
      const pos = hints.positionOf();
      const seen = new Uint8Array(items.length);
      start = [];
      for (const item of hints.before) {
        const at = pos.get(item);
        if (at !== undefined && !seen[at]) {
          seen[at] = 1;
          start.push(at);
        }
      }
      for (let at = 0; at < items.length; at++) if (!seen[at]) start.push(at);
    } else start = keys.map((_, i) => i);
    const order = start.filter((i) => keys[i] !== null);
    order.sort((x, y) => {
      const kx = keys[x]!;
      const ky = keys[y]!;
      return kx < ky ? -1 : kx > ky ? 1 : 0;
    });
    rank = new Float64Array(items.length).fill(NaN);
    let r = 0;
    for (let i = 0; i < order.length; i++) {
      if (i > 0 && keys[order[i]] !== keys[order[i - 1]]) r++;
      rank[order[i]] = r;
    }
    hints.keep(order.map((at) => items[at]));
    return rank;
  };
  return {
    type,
    coerced: true,
    get: (at) => read()[at],
    orderKey: () => {
      const r = ranks();
      return (at) => (Number.isNaN(r[at]) ? null : r[at]);
    },
  };
}
