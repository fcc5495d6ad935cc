/**
 * One list request over an in-memory collection: parameters → filter → search → order → page.
 * Routes bring their scoping and route-specific filters as `where`, their search as a ranker, and
 * get Mealie's envelope back (mealie-api-notes §3, §4.6).
 */
import { z } from "zod";
import { ValidationError } from "../errors.js";
import type { AttributeTable } from "./attribute-table.js";
import { compileQueryFilter, type Predicate } from "./filter-eval.js";
import { parseOrderBy, randomOrder, sortItems, type OrderOverride } from "./order.js";
import {
  pageWindow,
  paginate,
  type PageEnvelope,
  type PaginationParams,
  type QueryRecord,
  type QueryValue,
} from "./paginate.js";

/**
 * A search over the collection: given the query, a scorer that says how well an item matches
 * (higher is better) or undefined when it does not match at all.
 */
export type SearchRanker<T> = (query: string) => (item: T) => number | undefined;

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

export const ListParamsSchema = z.object({
  page: int(1),
  perPage: int(50),
  orderBy: optText,
  orderDirection: choice(["asc", "desc"]).default("desc"),
  orderByNullPosition: choice(["first", "last"]).nullish(),
  queryFilter: optText,
  paginationSeed: optText,
  search: optText,
});
export type ListParams = z.output<typeof ListParamsSchema>;
// The parsed parameters must stay usable wherever pagination parameters are expected.
const _fits: (p: ListParams) => PaginationParams = (p) => p;

const PARAM_KEYS = new Set([
  "page",
  "perPage",
  "orderBy",
  "orderDirection",
  "orderByNullPosition",
  "queryFilter",
  "paginationSeed",
  "search",
]);

/** Query keys as the list expects them: snake_case spellings (`per_page`) are accepted too. */
function camelQuery(query: QueryRecord): Record<string, QueryValue> {
  const out: Record<string, QueryValue> = {};
  for (const [k, v] of Object.entries(query)) {
    const ck = k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    if (PARAM_KEYS.has(ck)) {
      if (!(ck in out) || ck === k) out[ck] = v;
    } else {
      out[k] = v;
    }
  }
  return out;
}

/** Parse list parameters from a query-string record. Throws ValidationError (422) for bad values. */
export function parseListParams(query: QueryRecord): ListParams {
  const r = ListParamsSchema.safeParse(camelQuery(query));
  if (!r.success) {
    throw new ValidationError(
      r.error.issues.map((i) => ({
        loc: ["query", ...i.path.map((p) => (typeof p === "symbol" ? String(p) : p))],
        msg: i.message,
        type: i.code,
      })),
    );
  }
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
  return p;
}

export interface ListOptions<T> {
  /** Route path for `next`/`previous`, e.g. `/api/recipes`. */
  route: string;
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
  /** Parameters other than pagination to repeat in links; default: every non-pagination key of the query. */
  extraParams?: QueryRecord;
  /** How null parameters appear in links: `drop` (recipe lists, default) or the literal `None`. */
  nullsInLinks?: "drop" | "none";
}

/** Run a list request: parse `query`, then filter, search, order and paginate `items`. */
export function listQuery<T>(
  items: Iterable<T>,
  query: QueryRecord,
  table: AttributeTable<T>,
  opts: ListOptions<T>,
): PageEnvelope<T> {
  const params = parseListParams(query);
  let extraParams = opts.extraParams;
  if (!extraParams) {
    const camel = camelQuery(query);
    extraParams = Object.fromEntries(
      Object.entries(camel).filter(([k]) => !PARAM_KEYS.has(k) || k === "search"),
    );
  }
  return runListQuery(items, params, table, { ...opts, extraParams });
}

/**
 * Mealie's envelope for a list ordered elsewhere (a search ranked by the index, decision 0110):
 * `prefix(end)` gives the first `end` items in order, `total` how many there are in all.
 */
export function pageOfOrdered<T>(
  query: QueryRecord,
  total: number,
  prefix: (end: number) => T[],
  opts: Pick<ListOptions<T>, "route" | "nullsInLinks">,
): PageEnvelope<T> {
  const params = parseListParams(query);
  const camel = camelQuery(query);
  const extraParams = Object.fromEntries(
    Object.entries(camel).filter(([k]) => !PARAM_KEYS.has(k) || k === "search"),
  );
  const window = pageWindow(total, params.page, params.perPage);
  return paginate(
    prefix(window.end),
    params,
    { route: opts.route, extraParams, nulls: opts.nullsInLinks ?? "drop" },
    total,
  );
}

/** `listQuery` for parameters that are already parsed. */
export function runListQuery<T>(
  items: Iterable<T>,
  params: ListParams,
  table: AttributeTable<T>,
  opts: ListOptions<T>,
): PageEnvelope<T> {
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
  return paginate(
    ordered,
    params,
    { route: opts.route, extraParams: opts.extraParams, nulls: opts.nullsInLinks ?? "drop" },
    rows.length,
  );
}

function idGetter<T>(table: AttributeTable<T>): (item: T) => string {
  const a = table.tryResolve("id");
  if (!a || a.many) throw new Error(`orderBy=random needs an id attribute on ${table.entity}`);
  const get = a.get;
  return (item) => String(get(item));
}
