/**
 * A list route in one call: parse the request's `ListQuery`, let core answer a `Page`, and wrap it in
 * Mealie's envelope with links to the route's canonical path (not an alias the request came by).
 */
import type { ListQuery, Page, ResolvedListQuery } from "../../core/query/list-query.js";
import type { ApiContext } from "./context.js";
import { linkParams, parseListQuery, queryRecord } from "./list-query.js";
import { envelope, type PageEnvelope } from "./page-links.js";
import { JsonBytes } from "./reply.js";

export interface LinkStyle {
  /** `none` (most routes, default): null parameters are written `None`; `drop`: the recipe lists. */
  nulls?: "drop" | "none";
  /** Route parameters the links leave out (the meal plans' date range). */
  omit?: readonly string[];
}

/** Core's page in Mealie's envelope, its links repeating the request's own parameters. */
export function answerPage<T>(
  ctx: ApiContext,
  route: string,
  query: ListQuery,
  page: Page<T>,
  style: LinkStyle = {},
): PageEnvelope<T> {
  return envelope(page, query, {
    route,
    extraParams: linkParams(queryRecord(ctx.query), style.omit),
    nulls: style.nulls ?? "none",
  });
}

/** Where the envelope's items go in its JSON: `"items":[]` is a key, never inside a link's string. */
const ITEMS = '"items":[';

/**
 * `answerPage` as JSON bytes, byte for byte what `JSON.stringify` of the envelope gives, with each item's
 * JSON from `itemBytes` (the recipe summaries' kept bytes, core/recipes/wire-bytes.ts) spliced in:
 * only the envelope's few fields are turned into text per request.
 */
export function answerPageBytes<T>(
  ctx: ApiContext,
  route: string,
  query: ListQuery,
  page: Page<T>,
  itemBytes: (item: T) => Buffer,
  style: LinkStyle = {},
): JsonBytes {
  const text = JSON.stringify(answerPage(ctx, route, query, { ...page, items: [] }, style));
  const at = text.indexOf(ITEMS) + ITEMS.length;
  const parts: Buffer[] = [Buffer.from(text.slice(0, at))];
  const items = page.items;
  for (let i = 0; i < items.length; i++) {
    if (i > 0) parts.push(COMMA);
    parts.push(itemBytes(items[i]));
  }
  parts.push(Buffer.from(text.slice(at)));
  return new JsonBytes(Buffer.concat(parts));
}
const COMMA = Buffer.from(",");

export function listed<T>(
  ctx: ApiContext,
  route: string,
  run: (q: ResolvedListQuery) => Page<T>,
  style?: LinkStyle,
): PageEnvelope<T>;
export function listed<T>(
  ctx: ApiContext,
  route: string,
  run: (q: ResolvedListQuery) => Promise<Page<T>>,
  style?: LinkStyle,
): Promise<PageEnvelope<T>>;
export function listed<T>(
  ctx: ApiContext,
  route: string,
  run: (q: ResolvedListQuery) => Page<T> | Promise<Page<T>>,
  style: LinkStyle = {},
): PageEnvelope<T> | Promise<PageEnvelope<T>> {
  const query = parseListQuery(queryRecord(ctx.query));
  const page = run(query);
  return page instanceof Promise
    ? page.then((p) => answerPage(ctx, route, query, p, style))
    : answerPage(ctx, route, query, page, style);
}
