/**
 * The list edge (issue 12): a request's query string becomes a typed `ListQuery` here, with Mealie's
 * 422s for bad values, so core never sees a URL. What a list answers goes back out through
 * `page-links.ts`.
 */
import { z } from "zod";
import { ValidationError } from "../../core/errors.js";
import { validationDetail } from "../../core/wire/validation-detail.js";
import { LIST_DEFAULTS, type ResolvedListQuery } from "../../core/query/list-query.js";
import type { RecipeListQuery } from "../../core/recipes/list-query.js";
import type { SuggestionQuery } from "../../core/suggestions/suggestions-service.js";
import type { QueryRecord, QueryValue } from "./page-links.js";

/** Query parameters as a record: repeated keys become lists. */
export function queryRecord(q: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const k of new Set(q.keys())) {
    const all = q.getAll(k);
    out[k] = all.length > 1 ? all : all[0];
  }
  return out;
}

const last = (v: unknown): unknown => (Array.isArray(v) ? v[v.length - 1] : v);
// An empty string means "not given" for optional text parameters (Mealie treats them as falsy).
const optText = z.preprocess((v) => {
  const x = last(v);
  return x === "" ? null : x;
}, z.string().nullish());
const int = (def: number) =>
  z.preprocess(
    (v) => {
      const x = last(v);
      return typeof x === "string" && /^\s*[-+]?\d+\s*$/.test(x) ? Number(x) : x;
    },
    z
      .number({ error: "Input should be a valid integer" })
      .int({ error: "Input should be a valid integer" })
      .default(def),
  );
const choice = <V extends string>(values: readonly [V, ...V[]]) =>
  z.preprocess(
    (v) => {
      const x = last(v);
      return typeof x === "string" ? x.toLowerCase() : x;
    },
    z.enum(values, { error: `Input should be ${values.map((v) => `'${v}'`).join(" or ")}` }),
  );
// FastAPI's boolean query values.
const bool = z.preprocess(
  (v) => {
    const x = last(v);
    if (typeof x !== "string") return x;
    const s = x.toLowerCase();
    return ["true", "1", "yes", "on", "t", "y"].includes(s)
      ? true
      : ["false", "0", "no", "off", "f", "n"].includes(s)
        ? false
        : x;
  },
  z.boolean({ error: "Input should be a valid boolean" }).optional(),
);
/** Repeated values, each possibly comma-separated (`tags=a&tags=b,c`). */
const values = z.preprocess(
  (v) =>
    (v == null ? [] : Array.isArray(v) ? v : [v])
      .flatMap((x: unknown) => (typeof x === "string" ? x.split(",") : [x]))
      .map((x: unknown) => (typeof x === "string" ? x.trim() : x))
      .filter((x: unknown) => x !== ""),
  z.array(z.string()),
);

const ListQuerySchema = z.object({
  page: int(LIST_DEFAULTS.page),
  perPage: int(LIST_DEFAULTS.perPage),
  orderBy: optText,
  orderDirection: choice(["asc", "desc"]).default(LIST_DEFAULTS.orderDirection),
  orderByNullPosition: choice(["first", "last"]).nullish(),
  queryFilter: optText,
  paginationSeed: optText,
  search: optText,
});

/** The pagination parameters' names; everything else in a query is the route's own. */
export const PAGINATION_KEYS = new Set(Object.keys(ListQuerySchema.shape));

/** Query keys as the list expects them: snake_case spellings (`per_page`) are accepted too. */
function camelQuery(query: QueryRecord): Record<string, QueryValue> {
  const out: Record<string, QueryValue> = {};
  for (const [k, v] of Object.entries(query)) {
    const ck = k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    if (PAGINATION_KEYS.has(ck)) {
      if (!(ck in out) || ck === k) out[ck] = v;
    } else {
      out[k] = v;
    }
  }
  return out;
}

/** Zod's issues as Mealie's 422 on query parameters. */
function queryError(error: z.ZodError, query: Record<string, unknown>): ValidationError {
  return new ValidationError(validationDetail(error, "query", { value: query }));
}

/** Mealie's `PaginationQuery` from a query record. Throws ValidationError (422) for bad values. */
export function parseListQuery(query: QueryRecord): ResolvedListQuery {
  const camel = camelQuery(query);
  const r = ListQuerySchema.safeParse(camel);
  if (!r.success) throw queryError(r.error, camel);
  const p = r.data;
  if (p.orderBy?.trim().toLowerCase() === "random" && !p.paginationSeed) {
    throw new ValidationError([
      {
        loc: ["query", "paginationSeed"],
        msg: "paginationSeed is required when orderBy is random",
        type: "value_error",
      },
    ]);
  }
  return {
    page: p.page,
    perPage: p.perPage,
    orderBy: p.orderBy ?? null,
    orderDirection: p.orderDirection,
    orderByNullPosition: p.orderByNullPosition ?? null,
    queryFilter: p.queryFilter ?? null,
    paginationSeed: p.paginationSeed ?? null,
    search: p.search ?? null,
  };
}

const RecipeFiltersSchema = z.object({
  categories: values,
  tags: values,
  tools: values,
  foods: values,
  households: values,
  requireAllCategories: bool,
  requireAllTags: bool,
  requireAllTools: bool,
  requireAllFoods: bool,
  cookbook: optText,
});

/** GET /recipes and the explore recipe list (mealie-api-notes §4.6): pagination plus the organizer filters. */
export function parseRecipeListQuery(query: QueryRecord): RecipeListQuery & ResolvedListQuery {
  return plainRecipeListQuery(query) ?? parseRecipeListQueryWithSchemas(query);
}

/** `parseRecipeListQuery` by the schemas alone: every 422, and the spellings the quick reading leaves. */
export function parseRecipeListQueryWithSchemas(query: QueryRecord): RecipeListQuery & ResolvedListQuery {
  const list = parseListQuery(query);
  const r = RecipeFiltersSchema.safeParse(query);
  if (!r.success) throw queryError(r.error, query);
  const f = r.data;
  return {
    ...list,
    categories: f.categories,
    tags: f.tags,
    tools: f.tools,
    foods: f.foods,
    households: f.households,
    requireAllCategories: f.requireAllCategories ?? false,
    requireAllTags: f.requireAllTags ?? false,
    requireAllTools: f.requireAllTools ?? false,
    requireAllFoods: f.requireAllFoods ?? false,
    cookbook: f.cookbook ?? null,
  };
}

/** The parameters the quick reading knows; anything else is left to the schemas. */
const PLAIN_KEYS = new Set([
  ...PAGINATION_KEYS,
  ...["categories", "tags", "tools", "foods", "households", "cookbook"],
  ...["requireAllCategories", "requireAllTags", "requireAllTools", "requireAllFoods"],
]);
const PLAIN_INT = /^\s*[-+]?\d{1,15}\s*$/;
const TRUE = new Set(["true", "1", "yes", "on", "t", "y"]);
const FALSE = new Set(["false", "0", "no", "off", "f", "n"]);

/**
 * The list query as the schemas read it, for the usual request (issue 21: zod's parse of two objects
 * of preprocessed fields was a tenth of a served search): every key camelCase and known, each given
 * once, every value valid. Anything else — a repeated or snake_case key, a value the schemas would
 * refuse, a `random` order — returns null and goes through the schemas, which answer it as before;
 * web/api/list-query.test.ts holds both readings equal.
 */
export function plainRecipeListQuery(query: QueryRecord): (RecipeListQuery & ResolvedListQuery) | null {
  const text = (k: string): string | null | false => {
    const v = query[k];
    if (v === undefined) return null;
    return typeof v === "string" ? (v === "" ? null : v) : false;
  };
  const int = (k: string, def: number): number | false => {
    const v = query[k];
    if (v === undefined) return def;
    return typeof v === "string" && PLAIN_INT.test(v) ? Number(v) : false;
  };
  const choice = (k: string, values: readonly string[]): string | null | false => {
    const v = query[k];
    if (v === undefined) return null;
    if (typeof v !== "string") return false;
    const x = v.toLowerCase();
    return values.includes(x) ? x : false;
  };
  const list = (k: string): string[] | false => {
    const v = query[k];
    if (v === undefined) return [];
    if (typeof v !== "string") return false;
    return v
      .split(",")
      .map((x) => x.trim())
      .filter((x) => x !== "");
  };
  const flag = (k: string): boolean | false | null => {
    const v = query[k];
    if (v === undefined) return false;
    if (typeof v !== "string") return null;
    const x = v.toLowerCase();
    return TRUE.has(x) ? true : FALSE.has(x) ? false : null;
  };
  for (const k in query) if (!PLAIN_KEYS.has(k)) return null;
  const page = int("page", LIST_DEFAULTS.page);
  const perPage = int("perPage", LIST_DEFAULTS.perPage);
  const orderBy = text("orderBy");
  const orderDirection = choice("orderDirection", ["asc", "desc"]);
  const orderByNullPosition = choice("orderByNullPosition", ["first", "last"]);
  const queryFilter = text("queryFilter");
  const paginationSeed = text("paginationSeed");
  const search = text("search");
  const cookbook = text("cookbook");
  const categories = list("categories");
  const tags = list("tags");
  const tools = list("tools");
  const foods = list("foods");
  const households = list("households");
  const requireAllCategories = flag("requireAllCategories");
  const requireAllTags = flag("requireAllTags");
  const requireAllTools = flag("requireAllTools");
  const requireAllFoods = flag("requireAllFoods");
  if (
    page === false ||
    perPage === false ||
    orderBy === false ||
    orderDirection === false ||
    orderByNullPosition === false ||
    queryFilter === false ||
    paginationSeed === false ||
    search === false ||
    cookbook === false ||
    categories === false ||
    tags === false ||
    tools === false ||
    foods === false ||
    households === false ||
    requireAllCategories === null ||
    requireAllTags === null ||
    requireAllTools === null ||
    requireAllFoods === null ||
    orderBy?.trim().toLowerCase() === "random"
  )
    return null;
  return {
    page,
    perPage,
    orderBy,
    orderDirection: (orderDirection ?? LIST_DEFAULTS.orderDirection) as "asc" | "desc",
    orderByNullPosition: orderByNullPosition as "first" | "last" | null,
    queryFilter,
    paginationSeed,
    search,
    categories,
    tags,
    tools,
    foods,
    households,
    requireAllCategories,
    requireAllTags,
    requireAllTools,
    requireAllFoods,
    cookbook,
  };
}

const count = z.preprocess(
  (v) => (typeof v === "string" && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v),
  z.number().int({ error: "Input should be a valid integer" }).min(0).optional(),
);
const ids = z.preprocess((v) => (v == null ? [] : Array.isArray(v) ? v : [v]), z.array(z.string()));

const SuggestionSchema = z.object({
  foods: ids,
  tools: ids,
  limit: count,
  maxMissingFoods: count,
  maxMissingTools: count,
  includeFoodsOnHand: bool,
  includeToolsOnHand: bool,
});

/** GET /recipes/suggestions: the list's filter and order, the foods and tools at hand, the limits. */
export function parseSuggestionQuery(query: QueryRecord): SuggestionQuery {
  const list = parseListQuery(query);
  const src: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query))
    src[k.replace(/\[\]$/, "").replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] = v;
  const r = SuggestionSchema.safeParse(src);
  if (!r.success) throw queryError(r.error, src);
  return { ...list, ...r.data };
}

/**
 * The request's own parameters to repeat in `next`/`previous`: every key but pagination's (`search`
 * stays), camelCased as the list read them, less `omit`.
 */
export function linkParams(query: QueryRecord, omit: readonly string[] = []): QueryRecord {
  return Object.fromEntries(
    Object.entries(camelQuery(query)).filter(
      ([k]) => (!PAGINATION_KEYS.has(k) || k === "search") && !omit.includes(k),
    ),
  );
}
