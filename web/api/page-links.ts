/**
 * Mealie's pagination envelope (mealie-api-notes §3), built at the edge from core's `Page`. Its keys
 * are snake_case on the wire while its query parameters are camelCase; `next`/`previous` are relative
 * links that repeat the parameters.
 */
import type { ListQuery, Page } from "../../core/query/list-query.js";

export interface PageEnvelope<T> {
  page: number;
  per_page: number;
  total: number;
  total_pages: number;
  items: T[];
  next: string | null;
  previous: string | null;
}

export type QueryValue = string | readonly string[] | null | undefined;
export type QueryRecord = Readonly<Record<string, QueryValue>>;

export interface PageLinkOptions {
  /** Route path the links point at, e.g. `/api/recipes`. */
  route: string;
  /** Other request parameters to repeat in the links (`search`, `tags`, ...). */
  extraParams?: QueryRecord;
  /**
   * `drop` (the recipe list routes): null parameters are left out. `none` (most other routes):
   * they are written as the literal `None`, as Python's urlencode of a dict holding None does.
   */
  nulls?: "drop" | "none";
}

const PARAM_ORDER = [
  "page",
  "perPage",
  "orderBy",
  "orderByNullPosition",
  "orderDirection",
  "queryFilter",
  "paginationSeed",
] as const;

/** A relative link: route + pagination params (page replaced) + extra params. */
export function pageLink(params: ListQuery, page: number, opts: PageLinkOptions): string {
  const [path, existing] = opts.route.split("?", 2);
  const q = new URLSearchParams(existing ?? "");
  const set = (k: string, v: QueryValue | number): void => {
    q.delete(k);
    if (v === null || v === undefined) {
      if (opts.nulls === "none") q.append(k, "None");
    } else if (Array.isArray(v)) {
      for (const item of v) q.append(k, item);
    } else {
      q.append(k, String(v));
    }
  };
  const values: Record<(typeof PARAM_ORDER)[number], QueryValue | number> = {
    page,
    perPage: params.perPage,
    orderBy: params.orderBy,
    orderByNullPosition: params.orderByNullPosition,
    orderDirection: params.orderDirection ?? "desc",
    queryFilter: params.queryFilter,
    paginationSeed: params.paginationSeed,
  };
  for (const k of PARAM_ORDER) set(k, values[k]);
  for (const [k, v] of Object.entries(opts.extraParams ?? {})) {
    if ((PARAM_ORDER as readonly string[]).includes(k)) continue;
    if (v === null || v === undefined) {
      if (opts.nulls === "none") set(k, v);
      continue;
    }
    set(k, v);
  }
  const qs = q.toString();
  return qs ? `${path}?${qs}` : path;
}

/** A page in Mealie's envelope. Links echo the resolved values, as Mealie's do (perPage=-1 comes back as the total). */
export function envelope<T>(page: Page<T>, query: ListQuery, links: PageLinkOptions): PageEnvelope<T> {
  const resolved: ListQuery = { ...query, page: page.page, perPage: page.perPage };
  return {
    page: page.page,
    per_page: page.perPage,
    total: page.total,
    total_pages: page.totalPages,
    items: page.items,
    next: page.page >= page.totalPages ? null : pageLink(resolved, page.page + 1, links),
    previous: page.page <= 1 ? null : pageLink(resolved, page.page - 1, links),
  };
}
