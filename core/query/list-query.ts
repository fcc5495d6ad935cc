/**
 * What a list asks and what it answers, typed (issue 12): core never sees a URL. The API parses a
 * `ListQuery` from the request (web/api/lists.ts, with Mealie's 422s) and wraps the `Page` in Mealie's
 * envelope, building `next`/`previous` itself; a screen or a command passes a `ListQuery` literal.
 */
import type { NullPosition, OrderDirection } from "./order.js";

/** Mealie's `PaginationQuery` plus `search` (mealie-api-notes §3). A missing field takes its default. */
export interface ListQuery {
  /** Default 1; -1 is the last page, below 1 the first. */
  page?: number;
  /** Default 50; -1 is everything. */
  perPage?: number;
  /** Comma-separated `attr` or `attr:asc|desc`; `random` needs `paginationSeed`. */
  orderBy?: string | null;
  /** Default desc. */
  orderDirection?: OrderDirection;
  orderByNullPosition?: NullPosition | null;
  queryFilter?: string | null;
  paginationSeed?: string | null;
  search?: string | null;
  /**
   * A URL is not a list query (it has `search` too, so it would otherwise fit this all-optional type):
   * parse it at the edge (web/api/list-query.ts).
   */
  href?: never;
}

/** A `ListQuery` with every default filled in. */
export type ResolvedListQuery = Required<Omit<ListQuery, "href">>;

export const LIST_DEFAULTS: ResolvedListQuery = {
  page: 1,
  perPage: 50,
  orderBy: null,
  orderDirection: "desc",
  orderByNullPosition: null,
  queryFilter: null,
  paginationSeed: null,
  search: null,
};

export function resolveListQuery(q: ListQuery): ResolvedListQuery {
  return {
    page: q.page ?? LIST_DEFAULTS.page,
    perPage: q.perPage ?? LIST_DEFAULTS.perPage,
    orderBy: q.orderBy ?? null,
    orderDirection: q.orderDirection ?? LIST_DEFAULTS.orderDirection,
    orderByNullPosition: q.orderByNullPosition ?? null,
    queryFilter: q.queryFilter ?? null,
    paginationSeed: q.paginationSeed ?? null,
    search: q.search ?? null,
  };
}

/** One page of a list: the page and page size as resolved (perPage -1 becomes the total). */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  perPage: number;
  totalPages: number;
}

/** The same page with other items (presented, or stripped of what only the list needed). */
export function mapPage<T, U>(page: Page<T>, f: (item: T) => U): Page<U> {
  return { ...page, items: page.items.map(f) };
}
