/**
 * Mealie's pagination envelope (mealie-api-notes §3). Its keys are snake_case on the wire while its
 * query parameters are camelCase; `next`/`previous` are relative links that repeat the parameters.
 */

export interface PageEnvelope<T> {
  page: number;
  per_page: number;
  total: number;
  total_pages: number;
  items: T[];
  next: string | null;
  previous: string | null;
}

/** The pagination parameters as parsed from the request (see list.ts). */
export interface PaginationParams {
  page: number;
  perPage: number;
  orderBy?: string | null;
  orderByNullPosition?: "first" | "last" | null;
  orderDirection?: "asc" | "desc";
  queryFilter?: string | null;
  paginationSeed?: string | null;
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

export interface PageWindow {
  page: number;
  perPage: number;
  totalPages: number;
  start: number;
  end: number;
}

/**
 * Resolve the requested page against `total`: perPage < 0 means all (per_page becomes total), page -1
 * the last page, page < 1 the first; total_pages is ceil(total / per_page), or 0 when per_page is 0.
 */
export function pageWindow(total: number, page: number, perPage: number): PageWindow {
  const per = perPage < 0 ? total : perPage;
  const totalPages = per === 0 ? 0 : Math.ceil(total / per);
  let p = page === -1 ? totalPages : page;
  if (p < 1) p = 1;
  const start = Math.min(total, (p - 1) * per);
  return { page: p, perPage: per, totalPages, start, end: Math.min(total, start + per) };
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
export function pageLink(params: PaginationParams, page: number, opts: PageLinkOptions): string {
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

/**
 * Cut one page out of an already filtered and ordered list and wrap it in the envelope. `total` is for
 * callers that ordered only the prefix the page needs: `items` then holds at least the first
 * `page * perPage` items of a list of `total`.
 */
export function paginate<T>(
  items: readonly T[],
  params: PaginationParams,
  links: PageLinkOptions,
  total = items.length,
): PageEnvelope<T> {
  const w = pageWindow(total, params.page, params.perPage);
  // Links echo the resolved values, as Mealie's do (perPage=-1 comes back as the total).
  const resolved: PaginationParams = { ...params, page: w.page, perPage: w.perPage };
  return {
    page: w.page,
    per_page: w.perPage,
    total,
    total_pages: w.totalPages,
    items: items.slice(w.start, w.end),
    next: w.page >= w.totalPages ? null : pageLink(resolved, w.page + 1, links),
    previous: w.page <= 1 ? null : pageLink(resolved, w.page - 1, links),
  };
}
