/**
 * One group's recipes as the list and search requests read them (decisions 0110, 0135): the index
 * entries in store order, their columns, the search's document → position map and the group's
 * remembered searches. A one-recipe change patches them in place (replace, remove or append one
 * position); the first read after a change checks the positions against the store's order and
 * rebuilds on any difference, so a patch can only ever cost speed, never a wrong answer.
 */
import type { RecipeDoc } from "./doc.js";
import type { RecipeIndexEntry } from "../query/attributes.js";
import { recipeAttributes } from "../query/attributes.js";
import type { AttributeTable } from "../query/attribute-table.js";
import { liveColumns, type LiveColumns } from "../query/columns.js";
import { topByScore } from "../search/top-k.js";

/**
 * A search's matches within one group, as typed arrays over the group's positions (decision 0110):
 * no Map and no object per match.
 */
export interface SearchMatches {
  /** Positions in the group's items of the matching recipes, ascending. */
  at: Int32Array;
  /** The score of each match, beside `at`. */
  score: Float64Array;
  /** Every match ranked (indices into `at`): kept once a search is asked again. */
  ranked?: Int32Array;
  /** How many requests have asked for these matches. */
  asked: number;
}

/** The first `end` matches by relevance, best first, ties in the group's order. */
export function rankedPrefix(m: SearchMatches, end: number): Int32Array {
  if (m.ranked) return m.ranked.subarray(0, end);
  // Asked again (the next page, the search box once more): rank all of it once and keep it.
  if (m.asked > 1) return (m.ranked = topByScore(m.score, m.at, m.at.length, m.at.length)).subarray(0, end);
  return topByScore(m.score, m.at, m.at.length, end);
}

/** Searches remembered per group (their matches; see RecipeLister.matchesIn). */
const REMEMBERED_SEARCHES = 32;
/** Storage of searches the group forgot, kept for the next searches' matches (decision 0177). */
const SPARE_BUFFERS = 8;
/** Bytes per match: its score (8) and its position (4), in one buffer. */
const MATCH_BYTES = 12;

export class GroupListing {
  /** Index entries in the store's order of the group; positions are indices into it. */
  readonly items: RecipeIndexEntry[];
  /** The store document each entry was made from, beside `items`: what `matches` compares. */
  private readonly docs: RecipeDoc[];
  /** Search document number → position in `items` (-1: another group's); built by the first search. */
  docPos: Int32Array | null = null;
  /** All zero between searches: one score per position while a search's matches are placed. */
  private scratchScores: Float64Array | null = null;
  private readonly searches = new Map<string, SearchMatches>();
  private readonly spare: ArrayBuffer[] = [];
  /** queryFilter → the positions passing it, ascending: remembered as searches are. */
  private readonly filters = new Map<string, Int32Array>();
  private allPositions: Int32Array | null = null;
  private live: LiveColumns | null = null;
  /** Patched since the last check against the store's order. */
  patched = false;

  constructor(
    items: RecipeIndexEntry[],
    docs: RecipeDoc[],
    /** The columns of the listing this one replaces: ranks start from their order. */
    private previous: AttributeTable<number> | null = null,
  ) {
    this.items = items;
    this.docs = docs;
  }

  /** 0 … items.length-1: every row of the listing. */
  positions(): Int32Array {
    if (this.allPositions?.length !== this.items.length)
      this.allPositions = Int32Array.from(this.items, (_, at) => at);
    return this.allPositions;
  }

  /** The group's attribute columns, over positions. */
  columns(): AttributeTable<number> {
    if (!this.live) {
      this.live = liveColumns(recipeAttributes, this.items, this.previous);
      this.previous = null;
    }
    return this.live.table;
  }

  /** See LiveColumns.orderedPrefix: null when the attribute has no rank. */
  orderedPrefix(
    path: string,
    direction: "asc" | "desc",
    nullsFirst: boolean,
    end: number,
    start = 0,
  ): number[] | null {
    this.columns();
    return this.live!.orderedPrefix(path, direction, nullsFirst, end, start);
  }

  /** The columns if built (else those they would start from): for a listing that replaces this one. */
  builtColumns(): AttributeTable<number> | null {
    return this.live?.table ?? this.previous;
  }

  scratch(): Float64Array {
    if (this.scratchScores?.length !== this.items.length)
      this.scratchScores = new Float64Array(this.items.length);
    return this.scratchScores;
  }

  /** Whether the listing holds exactly these store entries' documents, in this order. */
  matches(entries: readonly { doc: RecipeDoc }[]): boolean {
    if (entries.length !== this.docs.length) return false;
    for (let i = 0; i < entries.length; i++) if (entries[i].doc !== this.docs[i]) return false;
    return true;
  }

  /**
   * The position of a recipe id, or -1. `doc`, the recipe's search document number if known, finds it
   * without walking the listing (a walk was most of a write's bookkeeping at 5,000 recipes a group).
   */
  find(id: string, doc = -1): number {
    const { items, docPos } = this;
    if (docPos && doc >= 0 && doc < docPos.length) {
      const at = docPos[doc];
      if (at >= 0 && items[at]?.id === id) return at;
    }
    for (let at = 0; at < items.length; at++) if (items[at].id === id) return at;
    return -1;
  }

  remembered(query: string): SearchMatches | undefined {
    const known = this.searches.get(query);
    if (known) {
      known.asked++;
      this.searches.delete(query); // most recently used last
      this.searches.set(query, known);
    }
    return known;
  }

  remember(query: string, m: SearchMatches): void {
    this.searches.set(query, m);
    if (this.searches.size > REMEMBERED_SEARCHES) {
      const [oldest, dropped] = this.searches.entries().next().value!;
      this.searches.delete(oldest);
      // Nothing else holds a search's matches past the request that made or read them (lists are
      // answered synchronously), so its buffer can take the next search's.
      if (dropped.at.buffer === dropped.score.buffer && this.spare.length < SPARE_BUFFERS)
        this.spare.push(dropped.score.buffer as ArrayBuffer);
    }
  }

  /**
   * Room for a search's `n` matches: `score` and `at` over one buffer, a forgotten search's when one is
   * large enough. Every search allocating its own pair left the dropped ones to the old generation's
   * collection, which V8 lets run 64 MB of such external memory behind (decision 0177). The contents
   * are stale: the caller writes all `n` of each.
   */
  matchArrays(n: number): { at: Int32Array; score: Float64Array } {
    if (n === 0) return { at: new Int32Array(0), score: new Float64Array(0) };
    let pick = -1;
    for (let i = 0; i < this.spare.length; i++) {
      const len = this.spare[i].byteLength;
      if (len >= n * MATCH_BYTES && (pick < 0 || len < this.spare[pick].byteLength)) pick = i;
    }
    let buffer: ArrayBuffer;
    if (pick >= 0) buffer = this.spare.splice(pick, 1)[0];
    else {
      // Rounded up, so that a buffer serves later searches of about the same size; never past the group.
      let cap = 64;
      while (cap < n) cap *= 2;
      buffer = new ArrayBuffer(Math.min(cap, Math.max(n, this.items.length)) * MATCH_BYTES);
    }
    const cap = buffer.byteLength / MATCH_BYTES;
    return { score: new Float64Array(buffer, 0, n), at: new Int32Array(buffer, cap * 8, n) };
  }

  /** A recipe's text changed (or it came or went): every remembered search may answer differently. */
  forgetSearches(): void {
    this.searches.clear();
  }

  /** The positions passing a queryFilter, remembered until the group's next change. */
  filtered(filter: string, compute: () => Int32Array): Int32Array {
    let passing = this.filters.get(filter);
    if (passing) {
      this.filters.delete(filter); // most recently used last
    } else {
      passing = compute();
      if (this.filters.size >= REMEMBERED_SEARCHES) this.filters.delete(this.filters.keys().next().value!);
    }
    this.filters.set(filter, passing);
    return passing;
  }

  /** Any value of a recipe changed (a rating too): every remembered filter may answer differently. */
  forgetFilters(): void {
    this.filters.clear();
  }

  /** The entry at `at` is now `entry` (same recipe, same place in the store's order). */
  replace(at: number, entry: RecipeIndexEntry, doc: RecipeDoc): void {
    this.items[at] = entry;
    this.docs[at] = doc;
    this.live?.replaced(at);
    this.patched = true;
  }

  /** The recipe at `at` left the group (or moved to the end of the store's order). */
  remove(at: number): void {
    this.items.splice(at, 1);
    this.docs.splice(at, 1);
    this.live?.removed(at);
    const { docPos } = this;
    if (docPos)
      for (let d = 0; d < docPos.length; d++) {
        if (docPos[d] === at) docPos[d] = -1;
        else if (docPos[d] > at) docPos[d]--;
      }
    this.patched = true;
  }

  /** A recipe joined the group: the store lists it last. Returns its position. */
  append(entry: RecipeIndexEntry, doc: RecipeDoc): number {
    this.items.push(entry);
    this.docs.push(doc);
    this.live?.appended();
    this.patched = true;
    return this.items.length - 1;
  }

  /** A search document number no longer names a recipe of this listing. */
  unmapDoc(doc: number): void {
    if (this.docPos && doc >= 0 && doc < this.docPos.length) this.docPos[doc] = -1;
  }

  /** The search index numbers the recipe at `at` `doc`. */
  mapDoc(doc: number, at: number): void {
    let { docPos } = this;
    if (!docPos || doc < 0) return;
    if (doc >= docPos.length) {
      // Grown by doubling, so a run of creations does not copy the map each time; a document past
      // the end reads as another group's (see RecipeLister.matchesIn).
      const grown = new Int32Array(Math.max(doc + 1, docPos.length * 2)).fill(-1);
      grown.set(docPos);
      this.docPos = docPos = grown;
    }
    docPos[doc] = at;
  }
}
