/**
 * `orderBy`, `orderDirection`, `orderByNullPosition` and `orderBy=random` (mealie-api-notes §3).
 *
 * - `orderBy` is a comma-separated list of `attr` or `attr:asc|desc`; a per-item direction overrides
 *   `orderDirection`. Paths are those of the attribute table (camel or snake, nested with dots).
 * - Strings sort case- and accent-insensitively (Mealie sorts on `lower()`; folding accents as well
 *   keeps "Éclair" beside "eclair" instead of after "z"); exact text breaks ties.
 * - Nulls: `orderByNullPosition` applies to every item; otherwise an override may set its own default
 *   (recipe rating: last), else nulls sort as the smallest value (SQLite's rule: first when ascending,
 *   last when descending).
 * - A to-many path sorts by its smallest value ascending and its largest descending.
 * - Ties keep the input order (the sort is stable), so pages stay consistent between requests.
 */
import { BadRequestError } from "../errors.js";
import { foldText } from "../search/fold.js";
import type { AttributeTable } from "./attribute-table.js";
import { itemComparable, type AttrScalar, type AttrType, type Comparable } from "./values.js";

export type OrderDirection = "asc" | "desc";
export type NullPosition = "first" | "last";

/** A replacement getter for one `orderBy` path (e.g. recipe `rating` from the caller's point of view). */
export interface OrderOverride<T> {
  type: AttrType;
  get(item: T): AttrScalar;
  /** Where nulls go when the request does not say. */
  nullPosition?: NullPosition;
}

export interface OrderTerm<T> {
  /** The item as the client wrote it (for messages). */
  source: string;
  direction: OrderDirection;
  nullPosition?: NullPosition;
  /** Sort key of an item; null sorts by the null rules. */
  key(item: T): Comparable | null;
}

function invalidOrder(orderBy: string, item: string): BadRequestError {
  const text = `Invalid order_by statement "${orderBy}": "${item}" is invalid`;
  return new BadRequestError(text, text);
}

function stringKey(v: Comparable): Comparable {
  // Folded text first, then the original to make the order total and deterministic.
  return typeof v === "string" ? `${foldText(v)}\u0000${v}` : v;
}

/** Parse `orderBy` against a table. Throws 400 `Invalid order_by statement ...` for an unknown path or direction. */
export function parseOrderBy<T>(
  orderBy: string,
  table: AttributeTable<T>,
  defaultDirection: OrderDirection = "desc",
  overrides: Readonly<Record<string, OrderOverride<T>>> = {},
): OrderTerm<T>[] {
  const overrideByKey = new Map<string, OrderOverride<T>>();
  for (const [path, o] of Object.entries(overrides))
    overrideByKey.set(path.replace(/_/g, "").toLowerCase(), o);

  const terms: OrderTerm<T>[] = [];
  for (const rawItem of orderBy.split(",")) {
    const item = rawItem.trim();
    if (!item) continue;
    const [path, dir, extra] = item.split(":").map((s) => s.trim());
    let direction = defaultDirection;
    if (dir !== undefined) {
      const d = dir.toLowerCase();
      if ((d !== "asc" && d !== "desc") || extra !== undefined) throw invalidOrder(orderBy, item);
      direction = d;
    }
    const override = overrideByKey.get(path.replace(/_/g, "").toLowerCase());
    if (override) {
      const { type, get } = override;
      terms.push({
        source: item,
        direction,
        nullPosition: override.nullPosition,
        key: (x) => sortKey(type, get(x)),
      });
      continue;
    }
    const a = table.tryResolve(path);
    if (!a) throw invalidOrder(orderBy, path);
    const { type } = a;
    const keyOf = a.coerced
      ? (v: AttrScalar): Comparable | null =>
          v === null || v === undefined ? null : type === "string" ? stringKey(v as string) : (v as number)
      : (v: AttrScalar): Comparable | null => sortKey(type, v);
    if (a.many) {
      const get = a.get;
      const pickLow = direction === "asc";
      terms.push({
        source: item,
        direction,
        key: (x) => {
          let best: Comparable | null = null;
          for (const raw of get(x)) {
            const k = keyOf(raw);
            if (k !== null && (best === null || (pickLow ? k < best : k > best))) best = k;
          }
          return best;
        },
      });
    } else if (a.orderKey) {
      // Precomputed: a number per item that orders as the sort key does (core/query/columns.ts).
      terms.push({ source: item, direction, key: a.orderKey() });
    } else {
      const get = a.get;
      terms.push({ source: item, direction, key: (x) => keyOf(get(x)) });
    }
  }
  return terms;
}

/** An item's value as it sorts: comparable of its type, strings folded first (exact text breaks ties). */
export function sortKey(type: AttrType, raw: AttrScalar): Comparable | null {
  const v = itemComparable(type, raw);
  return v === null ? null : type === "string" ? stringKey(v) : v;
}

/**
 * Items sorted by the terms (stable); keys are computed once per item. With `limit`, only the first
 * `limit` items in order are returned: a list page needs a prefix, and selecting it with a bounded
 * heap costs about one comparison per item instead of a full sort.
 */
export function sortItems<T>(
  items: readonly T[],
  terms: readonly OrderTerm<T>[],
  nullPosition?: NullPosition | null,
  limit = Infinity,
): T[] {
  const n = items.length;
  const k = Math.max(0, Math.min(n, limit));
  if (terms.length === 0 || n < 2) return items.slice(0, k);
  const keys = terms.map((t) => {
    const col = new Array<Comparable | null>(n);
    for (let i = 0; i < n; i++) col[i] = t.key(items[i]);
    return col;
  });
  const sign = terms.map((t) => (t.direction === "asc" ? 1 : -1));
  // Null placement as an absolute position, independent of direction.
  const nullsFirst = terms.map((t) => {
    const pos = nullPosition ?? t.nullPosition;
    return pos ? pos === "first" : t.direction === "asc";
  });
  const fast = terms.length === 1 ? numericColumn(keys[0], sign[0], nullsFirst[0]) : null;
  const cmp = fast
    ? (a: number, b: number): number => fast[a] - fast[b] || a - b
    : (a: number, b: number): number => {
        for (let j = 0; j < keys.length; j++) {
          const ka = keys[j][a];
          const kb = keys[j][b];
          if (ka === kb) continue;
          if (ka === null) return nullsFirst[j] ? -1 : 1;
          if (kb === null) return nullsFirst[j] ? 1 : -1;
          return (ka < kb ? -1 : 1) * sign[j];
        }
        return a - b;
      };
  const order = k * 4 < n ? topK(n, k, cmp) : fullSort(n, cmp).slice(0, k);
  return order.map((i) => items[i]);
}

/**
 * One numeric sort column as a typed array already in final order (direction applied, nulls as ±∞),
 * so the comparator is a subtraction; null when the column holds strings.
 */
function numericColumn(
  col: readonly (Comparable | null)[],
  sign: number,
  nullsFirst: boolean,
): Float64Array | null {
  const out = new Float64Array(col.length);
  for (let i = 0; i < col.length; i++) {
    const v = col[i];
    if (v === null) out[i] = nullsFirst ? -Infinity : Infinity;
    else if (typeof v === "number" && Number.isFinite(v)) out[i] = v * sign;
    else return null;
  }
  return out;
}

function fullSort(n: number, cmp: (a: number, b: number) => number): number[] {
  const idx = new Array<number>(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  return idx.sort(cmp);
}

/** The k smallest indices under `cmp` (a total order), in order, via a max-heap of size k. */
function topK(n: number, k: number, cmp: (a: number, b: number) => number): number[] {
  if (k === 0) return [];
  const heap: number[] = [];
  const siftDown = (): void => {
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && cmp(heap[l], heap[m]) > 0) m = l;
      if (r < heap.length && cmp(heap[r], heap[m]) > 0) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  };
  for (let i = 0; i < n; i++) {
    if (heap.length < k) {
      heap.push(i);
      let c = heap.length - 1;
      while (c > 0) {
        const p = (c - 1) >> 1;
        if (cmp(heap[c], heap[p]) <= 0) break;
        [heap[c], heap[p]] = [heap[p], heap[c]];
        c = p;
      }
    } else if (cmp(i, heap[0]) < 0) {
      heap[0] = i;
      siftDown();
    }
  }
  return heap.sort(cmp);
}

// ---- orderBy=random -------------------------------------------------------------------------

/**
 * A 53-bit hash of (seed, id): two FNV-1a lanes with different offsets, fed the seed then the id
 * without building a joined string, each finished with an avalanche so close ids land far apart.
 */
function seededKey(seed: string, id: string): number {
  // Plain loops over locals: a helper closure mutating captured lanes is several times slower.
  let a = 0x811c9dc5;
  let b = 0x2c1b3c6d;
  for (let i = 0; i < seed.length; i++) {
    const c = seed.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193);
  }
  a = Math.imul(a ^ 0xff, 0x01000193); // separator: ("ab","c") and ("a","bc") must differ
  b = Math.imul(b ^ 0xff, 0x01000193);
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193);
  }
  return avalanche(a) * 2097152 + (avalanche(b) >>> 11);
}

function avalanche(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * `orderBy=random` as an order term: a seeded shuffle keyed on each item's id. The same seed gives
 * the same order on every page and request, another seed another order. Keying on ids rather than
 * positions keeps an item's place when unrelated items are added or removed between page requests.
 */
export function randomOrder<T>(seed: string, idOf: (item: T) => string): OrderTerm<T> {
  return { source: "random", direction: "asc", key: (item) => seededKey(seed, idOf(item)) };
}

/** The seeded shuffle on its own (see randomOrder). */
export function seededShuffle<T>(items: readonly T[], seed: string, idOf: (item: T) => string): T[] {
  return sortItems(items, [randomOrder(seed, idOf)]);
}
