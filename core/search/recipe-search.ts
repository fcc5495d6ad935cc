/**
 * The recipe search index (ARCHITECTURE §4): incremental (add, update, remove by id), accent- and
 * case-insensitive, over name, description, ingredients, tags, categories, tools and foods.
 *
 * How a query matches (Mealie ORs its tokens, mealie-api-notes §16; Larder keeps that and ranks):
 * - Each query word matches index terms exactly, by prefix ("ratat" → "ratatouille"), inside a word
 *   when it has 3+ letters ("ein" → "steinbock", "salat" → "kartoffelsalat", as Mealie's `LIKE %q%`
 *   would), and, when
 *   the word is no term's prefix (a likely typo), within 1 edit (4–7 letters) or 2 (8+): "choclate".
 * - A quoted phrase is one token: it matches where the field contains it as written (folded).
 * - Stop words ("and", "with", ...) are dropped from multi-word queries.
 * Ranking, most significant first: the name equals the whole query; the name contains the whole query
 * at a word start; every query word matches in the name (any order); how many query words match
 * anywhere; how many match in the name; then a relevance score (field weight × match quality × idf).
 *
 * Own index rather than MiniSearch: infix matching and per-word coverage need access to the term
 * dictionary that MiniSearch does not expose, and a trigram dictionary keeps fuzzy lookup a few ms.
 */
import type { SearchRanker } from "../query/list.js";
import { parseSearchQuery, significantTerms, tokenize } from "./fold.js";
import { Regions, type PackedLists } from "./regions.js";
import { fieldHoldsPhrase, fieldTexts, type SearchableRecipe } from "./searchable.js";

export type { SearchableRecipe } from "./searchable.js";
import {
  boundedDistance,
  gramsMayAllDiffer,
  innerTrigrams,
  maxEdits,
  minSharedGrams,
  paddedTrigrams,
  transpositionVariants,
} from "./fuzzy.js";

export interface SearchHit {
  id: string;
  score: number;
}

// Field bits, in the order of FIELD_WEIGHTS and of fieldTexts().
const NAME = 1;
const FIELD_WEIGHTS = [10, 1, 1.5, 3, 3, 2, 2.5]; // name, description, ingredients, tags, categories, tools, foods
const MASK_WEIGHT = new Float64Array(1 << FIELD_WEIGHTS.length);
for (let m = 1; m < MASK_WEIGHT.length; m++) {
  MASK_WEIGHT[m] = Math.max(...FIELD_WEIGHTS.filter((_, i) => m & (1 << i)));
}

/**
 * A term of the dictionary. Its postings (document numbers and field masks, unordered; a removal moves
 * the last posting into the hole) are the index's `postings` region keyed by its id, so scoring walks
 * two shared typed arrays with no per-posting or per-term array object.
 */
interface Term {
  id: number;
  text: string;
  /** While a recipe is being added: its doc number and the fields seen so far (no Map per add). */
  addingDoc: number;
  addingMask: number;
  /** Postings counted for the recipes added since the last flush. */
  pending: number;
}
type Expansion = { term: Term; quality: number };
type Group =
  | { kind: "word"; expansions: Expansion[] }
  | { kind: "phrase"; phrase: string; candidates: Map<number, number> };

const NO_IDS = new Int32Array(0);

/**
 * An index as plain data, for saving it (search/index-file.ts): the dictionary's terms and grams by
 * number, each document's id, folded name and stamp, the terms holding each gram and each term's
 * postings. Free numbers are null. Each document's terms are the postings turned around, made again
 * when the image is taken up.
 */
export interface SearchIndexImage {
  terms: (string | null)[];
  grams: string[];
  docIds: (string | null)[];
  docNames: string[];
  /** Per document: the stamp it was added with (RecipeSearchIndex.add). */
  docStamps: Float64Array;
  gramTerms: PackedLists;
  postings: PackedLists;
}

/** Finds the recipe an index restored from an image holds under an id (it keeps ids, not recipes). */
export type SourceResolver = (id: string) => SearchableRecipe | undefined;
const SECOND_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789$";

export class RecipeSearchIndex {
  private readonly terms = new Map<string, Term>();
  private readonly termById: (Term | undefined)[] = [];
  private readonly freeTermIds: number[] = [];
  /**
   * Padded trigram → its number, and per number the ids of the terms holding it, in the order they
   * came (a region each: a Set per gram cost ~30 bytes an entry, 21 MB at 50,000 recipes in ten groups).
   */
  private readonly gramIds = new Map<string, number>();
  private gramTerms = new Regions();
  /** Per term id: its postings (document number, field mask). */
  private postings = new Regions();
  // Per document number: its id, the term ids it holds with their field masks (`docTerms`, read by a
  // removal and by the flush that writes postings), its normalised name (compared whole against the
  // query) and the recipe as indexed. The recipe's other fields are normalised on demand by phrase
  // matching, for candidates only: keeping them all cost about 2 KB a recipe (decision 0007).
  private readonly docIds: (string | undefined)[] = [];
  private docTerms = new Regions();
  private readonly docNames: string[] = [];
  /** Per document: what the caller said the recipe was indexed from (add's `stamp`), 0 if nothing. */
  private docStamps = new Float64Array(64);
  private readonly docSources: (SearchableRecipe | undefined)[] = [];
  /** For an index restored from an image: the recipe of a document that was not added since. */
  private resolveSource: SourceResolver | null = null;
  private readonly docByKey = new Map<string, number>();
  private readonly freeDocs: number[] = [];
  /**
   * Documents added whose postings are not written yet. Adding records a recipe's terms only; the
   * postings of every recipe added since are written together before the next search or removal:
   * counted first, then each term's region sized once and filled (decision 0169). A build of the
   * whole folder thus packs every term's postings exactly, with no copy left behind by growth.
   */
  private pendingDocs: number[] = [];
  private readonly seen: Term[] = [];
  private counts = new Int32Array(0);

  /** Build an index over `recipes`. */
  static from(recipes: Iterable<SearchableRecipe>): RecipeSearchIndex {
    const index = new RecipeSearchIndex();
    for (const r of recipes) index.add(r);
    return index;
  }

  get size(): number {
    return this.docByKey.size;
  }

  /** One more than the highest document number in use: the length a per-document array needs. */
  get capacity(): number {
    return this.docIds.length;
  }

  has(id: string): boolean {
    return this.docByKey.has(id);
  }

  /** The document number of an indexed recipe id, or -1. */
  docOf(id: string): number {
    return this.docByKey.get(id) ?? -1;
  }

  /** The recipe indexed under a document number. */
  sourceOf(doc: number): SearchableRecipe | undefined {
    let source = this.docSources[doc];
    if (source === undefined && this.resolveSource) {
      const id = this.docIds[doc];
      if (id !== undefined) this.docSources[doc] = source = this.resolveSource(id);
    }
    return source;
  }

  /** The stamp a document was added with. */
  stampOf(doc: number): number {
    return this.docStamps[doc] ?? 0;
  }

  /** The ids of the indexed recipes with their document numbers. */
  *documents(): IterableIterator<[id: string, doc: number]> {
    yield* this.docByKey;
  }

  /** The index as plain data (SearchIndexImage), every added recipe's postings written. */
  image(): SearchIndexImage {
    this.flush();
    const terms = this.termById.map((t) => t?.text ?? null);
    const grams = new Array<string>(this.gramIds.size);
    for (const [g, id] of this.gramIds) grams[id] = g;
    return {
      terms,
      grams,
      docIds: this.docIds.map((id) => id ?? null),
      docNames: this.docNames.slice(0, this.docIds.length),
      docStamps: this.docStamps.slice(0, this.docIds.length),
      gramTerms: this.gramTerms.pack(grams.length),
      postings: this.postings.pack(terms.length),
    };
  }

  /**
   * The index an image describes. It holds ids, not recipes: phrase matching and `matches` ask
   * `resolve` for a recipe the first time they need it. Throws on an image that does not hold together.
   */
  static fromImage(img: SearchIndexImage, resolve: SourceResolver): RecipeSearchIndex {
    const index = new RecipeSearchIndex();
    const nTerms = img.terms.length;
    const nDocs = img.docIds.length;
    if (
      img.postings.len.length !== nTerms ||
      img.gramTerms.len.length !== img.grams.length ||
      img.docNames.length !== nDocs ||
      img.docStamps.length !== nDocs
    )
      throw new Error("search index file: its parts disagree in size");
    const liveDocs = new Uint8Array(nDocs);
    for (let d = 0; d < nDocs; d++) liveDocs[d] = img.docIds[d] === null ? 0 : 1;
    const liveTerms = new Uint8Array(nTerms);
    for (let t = 0; t < nTerms; t++) liveTerms[t] = img.terms[t] === null ? 0 : 1;
    const within = (ints: Int32Array, live: Uint8Array) => {
      for (let i = 0; i < ints.length; i++) {
        const v = ints[i];
        if (v < 0 || v >= live.length || live[v] === 0)
          throw new Error("search index file: a list names a missing term or document");
      }
    };
    within(img.postings.ints, liveDocs);
    within(img.gramTerms.ints, liveTerms);
    for (let id = 0; id < nTerms; id++) {
      const text = img.terms[id];
      if (text === null) {
        index.termById[id] = undefined;
        index.freeTermIds.push(id);
        continue;
      }
      const term: Term = { id, text, addingDoc: -1, addingMask: 0, pending: 0 };
      index.terms.set(text, term);
      index.termById[id] = term;
    }
    img.grams.forEach((g, id) => index.gramIds.set(g, id));
    for (let doc = 0; doc < nDocs; doc++) {
      const id = img.docIds[doc];
      index.docNames[doc] = img.docNames[doc];
      index.docSources[doc] = undefined;
      if (id === null) {
        index.docIds[doc] = undefined;
        index.freeDocs.push(doc);
      } else {
        if (index.docByKey.has(id)) throw new Error("search index file: an id is indexed twice");
        index.docIds[doc] = id;
        index.docByKey.set(id, doc);
      }
    }
    index.docStamps = grownStamps(img.docStamps, nDocs);
    // Taken last: a throw above leaves nothing half-restored behind.
    index.gramTerms = Regions.unpack(img.gramTerms);
    index.postings = Regions.unpack(img.postings);
    index.docTerms = Regions.unpack(transposed(img.postings, nDocs));
    index.resolveSource = resolve;
    return index;
  }

  /**
   * Add a recipe, or replace it when its id is already indexed. `stamp`: a number the caller derives
   * from what the recipe was indexed from, kept with it (stampOf) and saved with the index, so that
   * an index taken up again can tell which recipes changed since.
   */
  add(recipe: SearchableRecipe, stamp = 0): void {
    this.remove(recipe.id);
    const num = this.freeDocs.pop() ?? this.docIds.length;
    // The fields of each term are collected on the term itself: one dictionary lookup per token and
    // one postings write per distinct term (a Map of masks per add was most of the build time).
    const seen = this.seen;
    const fields = fieldTexts(recipe);
    let name = "";
    for (let f = 0; f < fields.length; f++) {
      const bit = 1 << f;
      for (const item of fields[f]) {
        const toks = tokenize(item);
        if (f === 0 && toks.length) name = name ? `${name} | ${toks.join(" ")}` : toks.join(" ");
        for (const t of toks) {
          const term = this.terms.get(t) ?? this.createTerm(t);
          if (term.addingDoc !== num) {
            term.addingDoc = num;
            term.addingMask = bit;
            seen.push(term);
          } else term.addingMask |= bit;
        }
      }
    }
    const { docTerms } = this;
    docTerms.ensureKeys(num + 1);
    docTerms.reserve(num, seen.length, true);
    for (const term of seen) {
      docTerms.push(num, term.id, term.addingMask);
      term.addingDoc = -1;
    }
    seen.length = 0;
    this.pendingDocs.push(num);
    this.docIds[num] = recipe.id;
    this.docNames[num] = name;
    if (num >= this.docStamps.length) this.docStamps = grownStamps(this.docStamps, num + 1);
    this.docStamps[num] = stamp;
    this.docSources[num] = recipe;
    this.docByKey.set(recipe.id, num);
  }

  /** Same as add: the index keys recipes by id. */
  update(recipe: SearchableRecipe): void {
    this.add(recipe);
  }

  /** Remove a recipe; false when it was not indexed. */
  remove(id: string): boolean {
    const num = this.docByKey.get(id);
    if (num === undefined) return false;
    this.flush();
    const { docTerms, postings } = this;
    const end = docTerms.start[num] + docTerms.len[num];
    for (let at = docTerms.start[num]; at < end; at++) {
      const tid = docTerms.ints[at];
      this.dropPosting(tid, num);
      if (postings.len[tid] === 0) this.dropTerm(this.termById[tid]!);
    }
    docTerms.free(num);
    this.docIds[num] = undefined;
    this.docNames[num] = "";
    this.docSources[num] = undefined;
    this.docByKey.delete(id);
    this.freeDocs.push(num);
    return true;
  }

  /** Write the postings of the recipes added since the last flush: count, size each term once, fill. */
  private flush(): void {
    const pending = this.pendingDocs;
    if (!pending.length) return;
    const { docTerms, postings, termById } = this;
    const touched: Term[] = [];
    for (const doc of pending) {
      const end = docTerms.start[doc] + docTerms.len[doc];
      for (let at = docTerms.start[doc]; at < end; at++) {
        const term = termById[docTerms.ints[at]]!;
        if (term.pending++ === 0) touched.push(term);
      }
    }
    postings.ensureKeys(termById.length);
    // Room for all at once (one growth of the shared arrays), then each term's region: exact for a
    // term new since the last flush, with room to spare for one that grows again.
    let room = 0;
    for (const term of touched) {
      const need = postings.len[term.id] + term.pending;
      const cap = postings.cap[term.id];
      if (need > cap) room += cap === 0 ? need : Math.max(need, cap + (cap >> 1), 4);
    }
    postings.makeRoom(room);
    for (const term of touched) {
      postings.reserve(term.id, postings.len[term.id] + term.pending, false);
      term.pending = 0;
    }
    for (const doc of pending) {
      const end = docTerms.start[doc] + docTerms.len[doc];
      for (let at = docTerms.start[doc]; at < end; at++)
        postings.push(docTerms.ints[at], doc, docTerms.bytes[at]);
    }
    this.pendingDocs = [];
  }

  private dropPosting(tid: number, doc: number): void {
    const { postings } = this;
    const base = postings.start[tid];
    const n = postings.len[tid];
    for (let i = 0; i < n; i++) {
      if (postings.ints[base + i] !== doc) continue;
      postings.removeAt(tid, i);
      return;
    }
  }

  clear(): void {
    for (const id of [...this.docByKey.keys()]) this.remove(id);
  }

  private createTerm(text: string): Term {
    const id = this.freeTermIds.pop() ?? this.termById.length;
    const term: Term = { id, text, addingDoc: -1, addingMask: 0, pending: 0 };
    this.terms.set(text, term);
    this.termById[id] = term;
    const { gramIds, gramTerms } = this;
    for (const g of paddedTrigrams(text)) {
      let gid = gramIds.get(g);
      if (gid === undefined) {
        gramIds.set(g, (gid = gramIds.size));
        gramTerms.ensureKeys(gid + 1);
      }
      gramTerms.reserve(gid, gramTerms.len[gid] + 1, false);
      gramTerms.push(gid, id, 0);
    }
    return term;
  }

  private dropTerm(term: Term): void {
    this.postings.free(term.id);
    this.terms.delete(term.text);
    this.termById[term.id] = undefined;
    this.freeTermIds.push(term.id);
    const { gramTerms } = this;
    for (const g of paddedTrigrams(term.text)) {
      const gid = this.gramIds.get(g);
      if (gid === undefined) continue;
      const i = gramTerms.intsOf(gid).indexOf(term.id);
      if (i >= 0) gramTerms.removeInOrder(gid, i);
    }
  }

  /** The ids of the terms holding a padded trigram (a view, valid until the dictionary changes). */
  private termsWith(gram: string): Int32Array {
    const gid = this.gramIds.get(gram);
    return gid === undefined ? NO_IDS : this.gramTerms.intsOf(gid);
  }

  /** The smallest of the gram sets that every candidate must appear in; empty when one is missing. */
  private rarest(grams: readonly string[]): Int32Array {
    let best: Int32Array | undefined;
    for (const g of grams) {
      const ids = this.termsWith(g);
      if (!ids.length) return NO_IDS;
      if (!best || ids.length < best.length) best = ids;
    }
    return best ?? NO_IDS;
  }

  /** Index terms a query word matches, with a quality in (0, 1]. */
  private expand(word: string): Expansion[] {
    const L = word.length;
    const out: Expansion[] = [];
    let known = false;
    const consider = (term: Term): void => {
      if (term.text === word) {
        out.push({ term, quality: 1 });
        known = true;
      } else if (term.text.startsWith(word)) {
        out.push({ term, quality: 0.7 + (0.2 * L) / term.text.length });
        known = true;
      } else if (L >= 3 && term.text.includes(word)) {
        out.push({ term, quality: 0.4 + (0.1 * L) / term.text.length });
        known = true;
      }
    };
    if (L === 1) {
      for (const c of SECOND_CHARS)
        for (const id of this.termsWith(`^${word}${c}`)) consider(this.termById[id]!);
    } else if (L === 2) {
      for (const id of this.termsWith(`^${word}`)) consider(this.termById[id]!);
    } else {
      // A 3-letter word is its own single gram: every term containing it, at the start or inside.
      const grams = innerTrigrams(word);
      for (const id of this.rarest(grams)) consider(this.termById[id]!);
    }
    if (!known && maxEdits(L) > 0) out.push(...this.fuzzy(word));
    return out;
  }

  /** Terms within `maxEdits` of a word that no term contains (a likely typo). */
  private fuzzy(word: string): Expansion[] {
    const k = maxEdits(word.length);
    const qgrams = paddedTrigrams(word);
    const need = minSharedGrams(qgrams.length, k);
    if (this.counts.length < this.termById.length) this.counts = new Int32Array(this.termById.length * 2);
    const counts = this.counts;
    const touched: number[] = [];
    for (const g of qgrams) {
      for (const id of this.termsWith(g)) {
        if (counts[id]++ === 0) touched.push(id);
      }
    }
    const out: Expansion[] = [];
    for (const id of touched) {
      if (counts[id] >= need) {
        const term = this.termById[id]!;
        const d = boundedDistance(word, term.text, k);
        if (d > 0 && d <= k) out.push({ term, quality: d === 1 ? 0.6 : 0.45 });
      }
      counts[id] = 0;
    }
    if (gramsMayAllDiffer(word.length, k)) {
      const found = new Set(out.map((e) => e.term));
      for (const variant of transpositionVariants(word, k)) {
        const term = this.terms.get(variant);
        if (!term || found.has(term)) continue;
        const d = boundedDistance(word, term.text, k);
        if (d > 0 && d <= k) out.push({ term, quality: d === 1 ? 0.6 : 0.45 });
      }
    }
    return out;
  }

  /**
   * Documents that may contain a phrase, with the fields worth checking: every word of the phrase must
   * occur inside some term of the same field (the first and last words may be cut: substring match).
   */
  private phraseCandidates(phrase: string): Map<number, number> {
    let result: Map<number, number> | null = null;
    const words = [...new Set(phrase.split(" "))].sort((a, b) => b.length - a.length);
    for (const word of words) {
      const ids = word.length >= 3 ? this.rarest(innerTrigrams(word)) : this.termsWith(`^${word}`);
      const docs = new Map<number, number>();
      const { postings } = this;
      for (const id of ids) {
        const term = this.termById[id]!;
        if (!term.text.includes(word)) continue;
        const end = postings.start[id] + postings.len[id];
        for (let i = postings.start[id]; i < end; i++) {
          const doc = postings.ints[i];
          if (!result || result.has(doc)) docs.set(doc, (docs.get(doc) ?? 0) | postings.bytes[i]);
        }
      }
      if (result) {
        const prev: Map<number, number> = result;
        docs.forEach((mask, doc) => {
          const both = mask & prev.get(doc)!;
          if (both) docs.set(doc, both);
          else docs.delete(doc);
        });
      }
      result = docs;
      if (!result.size) break;
    }
    return result ?? new Map();
  }

  /** Ranked matches for a query, best first. An empty query matches nothing. */
  search(query: string, limit = Infinity): SearchHit[] {
    const n = this.run(query);
    const hits: SearchHit[] = new Array(n);
    for (let i = 0; i < n; i++) hits[i] = { id: this.docIds[this.hitDocs[i]]!, score: this.hitScores[i] };
    hits.sort((a, b) => b.score - a.score);
    return limit < hits.length ? hits.slice(0, limit) : hits;
  }

  /** Score per matching recipe id (higher is better), unordered: for callers that rank themselves. */
  scores(query: string): Map<string, number> {
    const out = new Map<string, number>();
    const n = this.run(query);
    for (let i = 0; i < n; i++) out.set(this.docIds[this.hitDocs[i]]!, this.hitScores[i]);
    return out;
  }

  /**
   * Score per matching recipe, keyed by the object that was indexed (not its id): a caller holding
   * those objects looks its matches up without reading every recipe it has (docs/decisions/0007).
   */
  matches(query: string): Map<SearchableRecipe, number> {
    const out = new Map<SearchableRecipe, number>();
    const n = this.run(query);
    for (let i = 0; i < n; i++) {
      const source = this.sourceOf(this.hitDocs[i]);
      if (source) out.set(source, this.hitScores[i]);
    }
    return out;
  }

  /** A ranker for `listQuery` over items that carry the indexed ids. */
  ranker<T extends { id: string }>(): SearchRanker<T> {
    return (query) => {
      const m = this.scores(query);
      return (item) => m.get(item.id);
    };
  }

  /**
   * The matches of the last `run`, by position `0 … run()-1`: document number and score. These are
   * the index's own buffers, valid until the next run; a caller that ranks or pages reads them without
   * a Map or an object per match (decision 0110).
   */
  hitDocs = new Int32Array(64);
  hitScores = new Float64Array(64);

  /**
   * Score a query: fills `hitDocs`/`hitScores` with every match (unordered) and returns how many.
   * Scoring is term at a time into per-document accumulators (typed arrays reused across queries),
   * so a search allocates little beyond its expansions whatever the number of matches.
   */
  run(query: string): number {
    this.flush();
    const q = parseSearchQuery(query);
    const groups: Group[] = significantTerms(q.terms).map((w) => ({
      kind: "word",
      expansions: this.expand(w),
    }));
    for (const phrase of q.phrases)
      groups.push({ kind: "phrase", phrase, candidates: this.phraseCandidates(phrase) });
    if (!groups.length) return 0;

    const { total, cover, nameHits, best, inName, touched, groupTouched } = this.accumulators();
    let nTouched = 0;
    const n = Math.max(1, this.size);

    for (const group of groups) {
      let nGroup = 0;
      if (group.kind === "word") {
        const { ints: docs, bytes: masks, start, len } = this.postings;
        for (const { term, quality } of group.expansions) {
          const base = quality * Math.log(1 + n / len[term.id]);
          const end = start[term.id] + len[term.id];
          for (let i = start[term.id]; i < end; i++) {
            const doc = docs[i];
            const mask = masks[i];
            const s = base * MASK_WEIGHT[mask];
            if (best[doc] === 0) groupTouched[nGroup++] = doc;
            if (s > best[doc]) best[doc] = s;
            if (mask & NAME) inName[doc] = 1;
          }
        }
      } else {
        const matches: [number, number][] = [];
        const { phrase } = group;
        const probe = phrase.split(" ").reduce((a, b) => (b.length > a.length ? b : a));
        group.candidates.forEach((fields, doc) => {
          const source = this.sourceOf(doc);
          if (!source) return;
          let mask = 0;
          for (let f = 0; f < FIELD_WEIGHTS.length; f++)
            if (fields & (1 << f) && fieldHoldsPhrase(source, f, phrase, probe)) mask |= 1 << f;
          if (mask) matches.push([doc, mask]);
        });
        const words = group.phrase.split(" ").length;
        const base = words * Math.log(1 + n / Math.max(1, matches.length));
        for (const [doc, mask] of matches) {
          const s = base * MASK_WEIGHT[mask];
          if (best[doc] === 0) groupTouched[nGroup++] = doc;
          if (s > best[doc]) best[doc] = s;
          if (mask & NAME) inName[doc] = 1;
        }
      }
      for (let i = 0; i < nGroup; i++) {
        const doc = groupTouched[i];
        if (total[doc] === 0) touched[nTouched++] = doc;
        total[doc] += best[doc];
        cover[doc]++;
        nameHits[doc] += inName[doc];
        best[doc] = 0;
        inName[doc] = 0;
      }
    }

    if (this.hitDocs.length < nTouched) {
      this.hitDocs = new Int32Array(touched.length);
      this.hitScores = new Float64Array(touched.length);
    }
    const { hitDocs, hitScores } = this;
    const whole = q.normalized;
    const nGroups = groups.length;
    for (let i = 0; i < nTouched; i++) {
      const doc = touched[i];
      let tier = nameHits[doc] === nGroups ? 1e11 : 0;
      // Only a name that matched some word can hold the whole query.
      if (nameHits[doc] && whole) {
        const name = this.docNames[doc];
        if (name === whole) tier += 1e13 + 1e12;
        else if (name.startsWith(whole) || name.includes(` ${whole}`)) tier += 1e12;
      }
      hitDocs[i] = doc;
      hitScores[i] = tier + cover[doc] * 1e9 + nameHits[doc] * 1e7 + Math.min(total[doc], 9.99e6);
      total[doc] = 0;
      cover[doc] = 0;
      nameHits[doc] = 0;
    }
    return nTouched;
  }

  // Per-document accumulators, reused across queries (all zero between queries): allocating and
  // zeroing arrays of the index's size for every search was garbage the server kept collecting.
  private acc: {
    total: Float64Array;
    cover: Uint16Array;
    nameHits: Uint16Array;
    best: Float64Array;
    inName: Uint8Array;
    touched: Int32Array;
    groupTouched: Int32Array;
  } | null = null;

  private accumulators() {
    const cap = this.docIds.length;
    if (!this.acc || this.acc.total.length < cap) {
      const size = Math.max(64, cap * 2);
      this.acc = {
        total: new Float64Array(size),
        cover: new Uint16Array(size),
        nameHits: new Uint16Array(size),
        best: new Float64Array(size),
        inName: new Uint8Array(size),
        touched: new Int32Array(size),
        groupTouched: new Int32Array(size),
      };
    }
    return this.acc;
  }
}

function grownStamps(a: Float64Array, need: number): Float64Array<ArrayBuffer> {
  const b = new Float64Array(Math.max(64, need + (need >> 1)));
  b.set(a.subarray(0, Math.min(a.length, need)));
  return b;
}

/** Lists keyed by term (document, mask) turned into lists keyed by document (term, mask). */
function transposed(byTerm: PackedLists, keys: number): PackedLists {
  const len = new Int32Array(keys);
  for (let i = 0; i < byTerm.ints.length; i++) len[byTerm.ints[i]]++;
  const next = new Int32Array(keys);
  for (let k = 1; k < keys; k++) next[k] = next[k - 1] + len[k - 1];
  const ints = new Int32Array(byTerm.ints.length);
  const bytes = new Uint8Array(byTerm.ints.length);
  let at = 0;
  for (let term = 0; term < byTerm.len.length; term++) {
    for (const end = at + byTerm.len[term]; at < end; at++) {
      const slot = next[byTerm.ints[at]]++;
      ints[slot] = term;
      bytes[slot] = byTerm.bytes[at];
    }
  }
  return { len, ints, bytes };
}
