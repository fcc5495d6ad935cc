/**
 * Search for short lists (foods, units, organizers, users): every item is scanned, so there is no
 * index to keep. Mealie's semantics: a query word or quoted phrase matches when it occurs anywhere in
 * a searched field (substring, after accent and case folding), words are ORed, and items whose name
 * contains the whole query come first.
 */
import type { SearchRanker } from "../query/list.js";
import { normalizeText, parseSearchQuery } from "./fold.js";

/** A searched field of an item: one text or several (aliases). The first field is the name. */
export type TextField<T> = (item: T) => string | null | undefined | readonly (string | null | undefined)[];

function fieldText<T>(item: T, field: TextField<T>): string {
  const v = field(item);
  if (v == null) return "";
  if (typeof v === "string") return normalizeText(v);
  return v
    .map((x) => normalizeText(x))
    .filter(Boolean)
    .join(" | ");
}

/** A scorer for one query: undefined for a non-match, else higher is better. */
export function textScorer<T>(
  query: string,
  fields: readonly TextField<T>[],
): (item: T) => number | undefined {
  const q = parseSearchQuery(query);
  const tokens = [...q.terms, ...q.phrases];
  const whole = q.normalized;
  return (item) => {
    if (!tokens.length) return undefined;
    const texts = fields.map((f) => fieldText(item, f));
    let matched = 0;
    let inName = 0;
    for (const t of tokens) {
      if (texts[0]?.includes(t)) {
        matched++;
        inName++;
      } else if (texts.some((x) => x.includes(t))) {
        matched++;
      }
    }
    if (!matched) return undefined;
    const name = texts[0] ?? "";
    const tier = name === whole ? 4 : name.startsWith(whole) ? 3 : name.includes(whole) ? 2 : 0;
    return tier * 1e6 + matched * 1e3 + inName;
  };
}

/** Items matching `query` in any of `fields`, best first (stable among equals). Blank query: all items. */
export function searchByText<T>(items: readonly T[], query: string, fields: readonly TextField<T>[]): T[] {
  if (!query.trim()) return [...items];
  const score = textScorer(query, fields);
  return items
    .map((item, i) => ({ item, i, s: score(item) }))
    .filter((x): x is { item: T; i: number; s: number } => x.s !== undefined)
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.item);
}

/** `searchByText` as a ranker for `listQuery`. */
export function textRanker<T>(fields: readonly TextField<T>[]): SearchRanker<T> {
  return (query) => textScorer(query, fields);
}
