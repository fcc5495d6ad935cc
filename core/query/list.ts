/**
 * One list request over an in-memory collection: query → filter → search → order → page.
 * Services bring their scoping and route-specific filters as `where`, their search as a ranker, and
 * get a `Page` back; the API wraps it in Mealie's envelope (mealie-api-notes §3, §4.6).
 */
import type { AttributeTable } from "./attribute-table.js";
import { compileQueryFilter, type Predicate } from "./filter-eval.js";
import { resolveListQuery, type ListQuery, type Page, type ResolvedListQuery } from "./list-query.js";
import { parseOrderBy, randomOrder, sortItems, type OrderOverride } from "./order.js";
import { pageIn, pageOf, pageWindow } from "./paginate.js";

/**
 * A search over the collection: given the query, a scorer that says how well an item matches
 * (higher is better) or undefined when it does not match at all.
 */
export type SearchRanker<T> = (query: string) => (item: T) => number | undefined;

export interface ListOptions<T> {
  /** Applied before `queryFilter`: scoping and route-specific filters (tags[], households[], cookbook). */
  where?: Predicate<T>;
  /** Ranker used when `search` is given; without one, `search` is ignored. */
  search?: SearchRanker<T>;
  /** Replacement getters for `orderBy` paths (recipe `rating`). */
  orderOverrides?: Readonly<Record<string, OrderOverride<T>>>;
  /** Order when neither `orderBy` nor `search` is given; default `createdAt` (in `orderDirection`, default desc). */
  defaultOrderBy?: string | null;
  /** Id for `orderBy=random`; default the table's `id` attribute. */
  idOf?: (item: T) => string;
}

/** Run a list request: filter, search, order and page `items` as `query` asks. */
export function listQuery<T>(
  items: Iterable<T>,
  query: ListQuery,
  table: AttributeTable<T>,
  opts: ListOptions<T> = {},
): Page<T> {
  return runListQuery(items, resolveListQuery(query), table, opts);
}

/**
 * A page of a list ordered elsewhere (a search ranked by the index, decision 0110): `window(start,
 * end)` gives the items from place `start` to place `end` in order, `total` how many there are in
 * all. Only the page's items are asked for, so a deep page holds no array of every item before it.
 */
export function pageOfOrdered<T>(
  query: ListQuery,
  total: number,
  window: (start: number, end: number) => T[],
): Page<T> {
  const q = resolveListQuery(query);
  const w = pageWindow(total, q.page, q.perPage);
  return pageIn(w, window(w.start, w.end), total);
}

function runListQuery<T>(
  items: Iterable<T>,
  params: ResolvedListQuery,
  table: AttributeTable<T>,
  opts: ListOptions<T>,
): Page<T> {
  // Compile before touching items so that a bad filter or orderBy is a 400 even on an empty list.
  const predicate = compileQueryFilter(params.queryFilter, table);
  const random = params.orderBy?.trim().toLowerCase() === "random";
  const search = params.search?.trim() ? params.search : null;
  let orderBy = random ? null : params.orderBy;
  if (!orderBy && !search && !random) {
    const def = opts.defaultOrderBy === undefined ? "createdAt" : opts.defaultOrderBy;
    orderBy = def && table.tryResolve(def) ? def : null;
  }
  const terms = orderBy ? parseOrderBy(orderBy, table, params.orderDirection, opts.orderOverrides) : [];

  const where = opts.where;
  let rows: T[] = [];
  for (const item of items) {
    if (where && !where(item)) continue;
    if (predicate && !predicate(item)) continue;
    rows.push(item);
  }

  if (search && opts.search) {
    const score = opts.search(search);
    const scores = new Map<T, number>();
    for (const item of rows) {
      const s = score(item);
      if (s !== undefined) scores.set(item, s);
    }
    rows = [...scores.keys()];
    // Relevance comes first when searching (as in Mealie); the requested order only breaks ties.
    terms.unshift({ source: "search", direction: "desc", key: (item) => scores.get(item) ?? 0 });
  }
  if (random) terms.unshift(randomOrder(params.paginationSeed ?? "", opts.idOf ?? idGetter(table)));

  const window = pageWindow(rows.length, params.page, params.perPage);
  const ordered = sortItems(rows, terms, params.orderByNullPosition, window.end);
  return pageOf(ordered, params, rows.length);
}

function idGetter<T>(table: AttributeTable<T>): (item: T) => string {
  const a = table.tryResolve("id");
  if (!a || a.many) throw new Error(`orderBy=random needs an id attribute on ${table.entity}`);
  const get = a.get;
  return (item) => String(get(item));
}
