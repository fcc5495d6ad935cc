import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pageLink, pageWindow, paginate, type PaginationParams } from "./paginate.js";

const items = Array.from({ length: 7 }, (_, i) => i + 1);
const params = (p: Partial<PaginationParams>): PaginationParams => ({
  page: 1,
  perPage: 3,
  orderDirection: "desc",
  ...p,
});
const links = { route: "/api/foods" };

describe("paginate", () => {
  it("returns the envelope with snake_case keys in Mealie's order", () => {
    const env = paginate(items, params({}), links);
    expect(Object.keys(env)).toEqual([
      "page",
      "per_page",
      "total",
      "total_pages",
      "items",
      "next",
      "previous",
    ]);
    expect(env).toEqual({
      page: 1,
      per_page: 3,
      total: 7,
      total_pages: 3,
      items: [1, 2, 3],
      next: "/api/foods?page=2&perPage=3&orderDirection=desc",
      previous: null,
    });
  });

  it("serves the middle and last pages with next/previous page ±1", () => {
    const mid = paginate(items, params({ page: 2 }), links);
    expect(mid.items).toEqual([4, 5, 6]);
    expect(mid.next).toContain("page=3");
    expect(mid.previous).toContain("page=1");
    const last = paginate(items, params({ page: 3 }), links);
    expect(last.items).toEqual([7]);
    expect(last.next).toBeNull();
    expect(last.previous).toContain("page=2");
  });

  it("page=-1 means the last page (§14.1 53)", () => {
    const env = paginate(items, params({ page: -1, perPage: 1 }), links);
    expect(env.page).toBe(env.total_pages);
    expect(env.page).toBe(7);
    expect(env.items).toEqual([7]);
    expect(env.next).toBeNull();
    expect(env.previous).not.toBeNull();
  });

  it("clamps page < 1 to 1", () => {
    expect(paginate(items, params({ page: 0 }), links).page).toBe(1);
    expect(paginate(items, params({ page: -5 }), links).items).toEqual([1, 2, 3]);
  });

  it("perPage=-1 returns everything with per_page = total, echoed in links", () => {
    const env = paginate(items, params({ perPage: -1 }), links);
    expect(env).toMatchObject({ page: 1, per_page: 7, total: 7, total_pages: 1, next: null, previous: null });
    expect(env.items).toEqual(items);
    const env2 = paginate(items, params({ perPage: -1, page: 2 }), links);
    expect(env2.items).toEqual([]);
    expect(env2.previous).toBe("/api/foods?page=1&perPage=7&orderDirection=desc");
  });

  it("total_pages is 0 when per_page is 0, and an empty list has page 1 with no links", () => {
    expect(paginate(items, params({ perPage: 0 }), links)).toMatchObject({
      per_page: 0,
      total_pages: 0,
      items: [],
      next: null,
      previous: null,
    });
    expect(paginate([], params({ perPage: -1, page: -1 }), links)).toMatchObject({
      page: 1,
      per_page: 0,
      total: 0,
      total_pages: 0,
      items: [],
    });
    expect(paginate([], params({}), links)).toMatchObject({
      page: 1,
      total_pages: 0,
      next: null,
      previous: null,
    });
  });

  it("a page past the end is empty, has no next and points back", () => {
    const env = paginate(items, params({ page: 9 }), links);
    expect(env.items).toEqual([]);
    expect(env.next).toBeNull();
    expect(env.previous).toContain("page=8");
  });

  it("links echo every camelCase pagination param and the extra request params (recipe style drops nulls)", () => {
    const env = paginate(
      items,
      params({
        orderBy: "name",
        orderByNullPosition: "last",
        queryFilter: 'name LIKE "a%"',
        paginationSeed: null,
      }),
      { route: "/api/recipes", extraParams: { search: "pie", tags: ["t1", "t2"], cookbook: null } },
    );
    const url = new URL(env.next!, "http://x");
    expect(url.pathname).toBe("/api/recipes");
    expect([...url.searchParams.keys()]).toEqual([
      "page",
      "perPage",
      "orderBy",
      "orderByNullPosition",
      "orderDirection",
      "queryFilter",
      "search",
      "tags",
      "tags",
    ]);
    expect(url.searchParams.get("queryFilter")).toBe('name LIKE "a%"');
    expect(url.searchParams.getAll("tags")).toEqual(["t1", "t2"]);
  });

  it("can write nulls as Python's None, as most non-recipe routes do", () => {
    const link = pageLink(params({}), 2, {
      route: "/api/foods",
      nulls: "none",
      extraParams: { search: null },
    });
    expect(link).toBe(
      "/api/foods?page=2&perPage=3&orderBy=None&orderByNullPosition=None&orderDirection=desc&queryFilter=None&paginationSeed=None&search=None",
    );
  });

  it("keeps the route's own query string and lets pagination params win", () => {
    expect(pageLink(params({}), 2, { route: "/api/x?page=9&a=b" })).toBe(
      "/api/x?a=b&page=2&perPage=3&orderDirection=desc",
    );
  });

  it("holds its invariants for any total, page and perPage", () => {
    fc.assert(
      fc.property(
        fc.nat(500),
        fc.integer({ min: -3, max: 60 }),
        fc.integer({ min: -1, max: 60 }),
        (total, page, perPage) => {
          const w = pageWindow(total, page, perPage);
          expect(w.page).toBeGreaterThanOrEqual(1);
          expect(w.totalPages).toBe(w.perPage === 0 ? 0 : Math.ceil(total / w.perPage));
          expect(w.end - w.start).toBeLessThanOrEqual(Math.max(0, w.perPage));
          if (page === -1 && w.totalPages > 0) expect(w.page).toBe(w.totalPages);
          const env = paginate(
            Array.from({ length: total }, (_, i) => i),
            params({ page, perPage }),
            links,
          );
          expect(env.next === null).toBe(env.page >= env.total_pages);
          expect(env.previous === null).toBe(env.page <= 1);
        },
      ),
      { numRuns: 500 },
    );
  });
});
