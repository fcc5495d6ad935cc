/**
 * Pages of a list (mealie-api-notes §3): which slice a page is, and the page itself. The envelope with
 * its snake_case keys and `next`/`previous` links is the API's (web/api/page-links.ts).
 */
import type { Page } from "./list-query.js";

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

/**
 * Cut one page out of an already filtered and ordered list. `total` is for callers that ordered only
 * the prefix the page needs: `items` then holds at least the first `page * perPage` items of a list
 * of `total`.
 */
export function pageOf<T>(
  items: readonly T[],
  query: { page: number; perPage: number },
  total = items.length,
): Page<T> {
  const w = pageWindow(total, query.page, query.perPage);
  return pageIn(w, items.slice(w.start, w.end), total);
}

/** The page `w` of a list of `total` items, around `items`: the window's own items, in order. */
export function pageIn<T>(w: PageWindow, items: T[], total: number): Page<T> {
  return { items, total, page: w.page, perPage: w.perPage, totalPages: w.totalPages };
}
