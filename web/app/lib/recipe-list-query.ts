/**
 * The group home's filters as a query string (spec §2: "recipe list filtered by query parameters"), read
 * and written in one place so the page URL, the form and the core list call agree. Organizers are given
 * by slug (households by slug, foods by id): the lister accepts either, and slugs make readable URLs.
 */
import type { RecipeListQuery } from "../../../core/recipes/list-query.js";

/** Spec §9: recipe page size 30. */
export const RECIPE_PAGE_SIZE = 30;

export const ORDER_BY = ["name", "createdAt", "updatedAt", "lastMade", "rating", "random"] as const;
export type OrderBy = (typeof ORDER_BY)[number];
export type OrderDirection = "asc" | "desc";

export const FILTER_KEYS = ["categories", "tags", "tools", "foods", "households"] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

/** The require-all switch of each filter that has one (households match any, as in Mealie). */
export const REQUIRE_ALL = {
  categories: "requireAllCategories",
  tags: "requireAllTags",
  tools: "requireAllTools",
  foods: "requireAllFoods",
} as const satisfies Partial<Record<FilterKey, string>>;
export type RequireAllKey = keyof typeof REQUIRE_ALL;

/** What the group home shows, as its page URL says it. */
export interface HomeQuery {
  search: string;
  filters: Record<FilterKey, string[]>;
  requireAll: Record<RequireAllKey, boolean>;
  /** null: the default (name, or relevance while searching). */
  orderBy: OrderBy | null;
  orderDirection: OrderDirection;
  /** The shuffle of orderBy=random, so paging through a random order is stable. */
  seed: string | null;
  cookbook: string | null;
  page: number;
}

const TRUE = /^(1|true|on|yes)$/i;

/** Reads a page URL's query; repeated and comma-separated values both work (forms send either). */
export function parseHomeQuery(sp: URLSearchParams): HomeQuery {
  const list = (k: string) =>
    [
      ...new Set(
        sp
          .getAll(k)
          .flatMap((v) => v.split(","))
          .map((v) => v.trim())
          .filter(Boolean),
      ),
    ].slice(0, 50);
  const orderBy = sp.get("orderBy");
  const page = Number.parseInt(sp.get("page") ?? "1", 10);
  return {
    search: (sp.get("search") ?? "").trim().slice(0, 200),
    filters: Object.fromEntries(FILTER_KEYS.map((k) => [k, list(k)])) as Record<FilterKey, string[]>,
    requireAll: Object.fromEntries(
      Object.entries(REQUIRE_ALL).map(([k, param]) => [k, TRUE.test(sp.get(param) ?? "")]),
    ) as Record<RequireAllKey, boolean>,
    orderBy: (ORDER_BY as readonly string[]).includes(orderBy ?? "") ? (orderBy as OrderBy) : null,
    orderDirection: sp.get("orderDirection") === "desc" ? "desc" : "asc",
    seed: /^[\w-]{1,40}$/.test(sp.get("seed") ?? "") ? sp.get("seed") : null,
    cookbook: sp.get("cookbook")?.trim() || null,
    page: Number.isFinite(page) && page > 1 ? Math.min(page, 100_000) : 1,
  };
}

/** The canonical page query (what links and the filter form navigate to); page 1 is left out. */
export function toSearchParams(q: HomeQuery, page = q.page): URLSearchParams {
  const sp = new URLSearchParams();
  if (q.search) sp.set("search", q.search);
  if (q.cookbook) sp.set("cookbook", q.cookbook);
  for (const k of FILTER_KEYS) {
    if (q.filters[k].length) sp.set(k, q.filters[k].join(","));
    const all = REQUIRE_ALL[k as RequireAllKey];
    if (all && q.requireAll[k as RequireAllKey] && q.filters[k].length) sp.set(all, "true");
  }
  if (q.orderBy) {
    sp.set("orderBy", q.orderBy);
    if (q.orderBy !== "random") sp.set("orderDirection", q.orderDirection);
    else if (q.seed) sp.set("seed", q.seed);
  }
  if (page > 1) sp.set("page", String(page));
  return sp;
}

export function hasFilters(q: HomeQuery): boolean {
  return Boolean(q.search || q.cookbook || FILTER_KEYS.some((k) => q.filters[k].length));
}

/** Core's recipe list query (Mealie's GET /api/recipes, mealie-api-notes §4.6). */
export function toRecipeListQuery(q: HomeQuery, perPage = RECIPE_PAGE_SIZE): RecipeListQuery {
  const out: RecipeListQuery = {
    page: q.page,
    perPage,
    search: q.search || null,
    cookbook: q.cookbook,
    ...q.filters,
    requireAllCategories: q.requireAll.categories,
    requireAllTags: q.requireAll.tags,
    requireAllTools: q.requireAll.tools,
    requireAllFoods: q.requireAll.foods,
  };
  // Searching without an explicit order keeps relevance; otherwise the default is name ascending.
  const orderBy = q.orderBy ?? (q.search ? null : "name");
  if (orderBy === "random") return { ...out, orderBy, paginationSeed: q.seed ?? "0" };
  return orderBy ? { ...out, orderBy, orderDirection: q.orderDirection } : out;
}
