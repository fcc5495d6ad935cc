/**
 * Matching parsed food and unit text against a group's foods and units, as Mealie does
 * (mealie-api-notes §13 "DB matching"): keys are the normalised (transliterated, lower-case, trimmed)
 * name, plural name, abbreviation, plural abbreviation and aliases; an exact key wins, otherwise the best
 * fuzzy `ratio` at or above the threshold (85 for foods, 70 for units) among the keys that begin with the
 * text's first letter. Mealie scores every key; a letter more or less at the front then turns one real
 * word into another ("ale" into kale, "inch" into pinch, "ice" into rice), while misspellings and
 * abbreviations keep their first letter ("tablspoon", "tsp" for tbsp). Decision 0225.
 *
 * A food of several words is matched fuzzily only to a name made of its words, misspelt or in another
 * ending (sameWords): "celery salt" is 87 to the alias "celery stalk", "smoked almonds" 89 to "smoked
 * salmon", yet a word swapped for another is another food, not a misspelling (decision 0231).
 */
import anyAscii from "any-ascii";
import type { ParserFood, ParserUnit, ParserVocabulary, VocabularyMatcher } from "../plugins/kinds.js";

export const FOOD_THRESHOLD = 85;
export const UNIT_THRESHOLD = 70;
/** Fuzzy matching compares at most this many characters: longer text is no name anyway. */
const MAX_FUZZY = 64;

type Food = ParserFood;
type Unit = ParserUnit;

const ASCII = /^[\x20-\x7e]*$/;
export function normaliseKey(s: string): string {
  return (ASCII.test(s) ? s : anyAscii(s)).toLowerCase().trim().replace(/\s+/g, " ");
}

/**
 * rapidfuzz's `ratio`: 100 · (1 − Indel distance / (|a| + |b|)), i.e. 200 · LCS / (|a| + |b|).
 */
export function ratio(a: string, b: string): number {
  if (a.length === 0 && b.length === 0) return 100;
  if (a.length === 0 || b.length === 0) return 0;
  const n = b.length;
  const row = new Uint16Array(n + 1);
  for (let i = 0; i < a.length; i++) {
    let diag = 0;
    const ca = a.charCodeAt(i);
    for (let j = 1; j <= n; j++) {
      const up = row[j];
      row[j] = ca === b.charCodeAt(j - 1) ? diag + 1 : Math.max(up, row[j - 1]);
      diag = up;
    }
  }
  return (200 * row[n]) / (a.length + b.length);
}

/**
 * A key prepared for fast fuzzy scoring: keys of up to 31 characters use the bit-parallel LCS of
 * Allison–Dix/Hyyrö (one pass over the text, a few integer operations per character) instead of the DP.
 */
interface PreparedKey {
  key: string;
  /** The key's distinct ASCII characters and how often each occurs: LCS ≤ Σ min(counts), a cheap bound. */
  chars: Int32Array;
  counts: Int32Array;
  /** Character code (keys are ASCII once normalised) → bit mask of its positions in the key. */
  masks: Int32Array | null;
}

function prepare(key: string): PreparedKey {
  const histogram = new Map<number, number>();
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    histogram.set(c, (histogram.get(c) ?? 0) + 1);
  }
  const chars = Int32Array.from(histogram.keys());
  const counts = Int32Array.from(histogram.values());
  if (key.length > 31 || chars.some((c) => c >= 128)) return { key, chars, counts, masks: null };
  const masks = new Int32Array(128);
  for (let i = 0; i < key.length; i++) masks[key.charCodeAt(i)] |= 1 << i;
  return { key, chars, counts, masks };
}

/** Σ over the key's characters of min(count in key, count in text): an upper bound on their LCS. */
function sharedCharacters(p: PreparedKey, textCounts: Int32Array): number {
  let shared = 0;
  for (let j = 0; j < p.chars.length; j++) {
    const c = p.chars[j];
    if (c < 128) shared += Math.min(p.counts[j], textCounts[c]);
    else shared += p.counts[j];
  }
  return shared;
}

function lcsLength(p: PreparedKey, text: string): number {
  if (!p.masks) return (ratio(p.key, text) * (p.key.length + text.length)) / 200;
  const n = p.key.length;
  const all = n === 31 ? 0x7fffffff : (1 << n) - 1;
  let v = all;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const u = c < 128 ? v & p.masks[c] : 0;
    v = ((v + u) | (v - u)) & all;
  }
  let zeros = 0;
  for (let x = ~v & all; x !== 0; x &= x - 1) zeros++;
  return zeros;
}

const WORD_SPLIT = /[\s-]+/;

/** Edit distance (insert, delete, replace, swap two neighbours) between two short words. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

/** The plain English ending's stem: enough to tell "tomatoes" from "tomato", "soured" from "sour". */
function stem(word: string): string {
  const w = word.replace(/(?:'s|s'|')$/, "");
  if (w.length > 4 && /(?:ies|ied)$/.test(w)) return w.slice(0, -3) + "y";
  if (w.length > 4 && w.endsWith("ves")) return w.slice(0, -3) + "f";
  if (w.length > 4 && w.endsWith("ed")) return w.slice(0, -2);
  if (w.length > 3 && /(?:oes|ches|shes|sses|xes)$/.test(w)) return w.slice(0, -2);
  if (w.length > 2 && w.endsWith("s") && !w.endsWith("ss")) return w.slice(0, -1);
  return w;
}

/** One word written for another: the same, another ending, or a typo (one slip in 3–7 letters, two from 8). */
function sameWord(a: string, b: string): boolean {
  if (a === b || stem(a) === stem(b)) return true;
  if (a[0] !== b[0]) return false;
  const longest = Math.max(a.length, b.length);
  const allowed = longest >= 8 ? 2 : longest >= 3 ? 1 : 0;
  return allowed > 0 && editDistance(a, b) <= allowed;
}

/**
 * Whether a fuzzy match names the same thing word by word: the name's last word (what the thing is) is
 * the text's last word, and its other words are among the text's other words, in order. Extra words may
 * describe it ("unsalted soft butter" is unsalted butter); a different last word is another food ("celery
 * salt" is no celery stalk, "sesame seed buns" no sesame seed). Single words are left to the ratio.
 */
export function sameWords(text: string, key: string): boolean {
  const tw = text.split(WORD_SPLIT).filter(Boolean);
  const kw = key.split(WORD_SPLIT).filter(Boolean);
  if (tw.length <= 1 && kw.length <= 1) return true;
  // "shao hsing wine", "ginger root": the same letters spaced otherwise.
  if (tw.length !== kw.length && sameWord(tw.join(""), kw.join(""))) return true;
  if (tw.length < kw.length || !sameWord(tw[tw.length - 1], kw[kw.length - 1])) return false;
  let j = 0;
  for (let i = 0; i < tw.length - 1 && j < kw.length - 1; i++) if (sameWord(tw[i], kw[j])) j++;
  return j === kw.length - 1;
}

class KeyIndex<T> {
  readonly #exact = new Map<string, T>();
  readonly #keys: PreparedKey[] = [];
  readonly #memo = new Map<string, T | null>();

  constructor(
    entries: Iterable<[string | null | undefined, T]>,
    private readonly threshold: number,
    /** Foods: a fuzzy match must be the same words (sameWords); units keep Mealie's ratio alone. */
    private readonly wholeWords = false,
  ) {
    for (const [raw, value] of entries) {
      if (!raw) continue;
      const key = normaliseKey(raw);
      if (!key || this.#exact.has(key)) continue;
      this.#exact.set(key, value);
      this.#keys.push(prepare(key));
    }
  }

  exact(text: string): T | null {
    return this.#exact.get(normaliseKey(text)) ?? null;
  }

  find(text: string): T | null {
    const key = normaliseKey(text);
    if (!key) return null;
    const exact = this.#exact.get(key);
    if (exact !== undefined) return exact;
    const memo = this.#memo.get(key);
    if (memo !== undefined) return memo;
    let best: T | null = null;
    let bestScore = this.threshold;
    if (key.length <= MAX_FUZZY) {
      const textCounts = new Int32Array(128);
      for (let i = 0; i < key.length; i++) {
        const c = key.charCodeAt(i);
        if (c < 128) textCounts[c]++;
      }
      // ratio ≤ 200·min/(a+b): skip keys whose length alone rules them out.
      const first = key.charCodeAt(0);
      for (const p of this.#keys) {
        const k = p.key;
        if (k.charCodeAt(0) !== first) continue;
        const lo = Math.min(k.length, key.length);
        if ((200 * lo) / (k.length + key.length) < bestScore) continue;
        if ((200 * sharedCharacters(p, textCounts)) / (k.length + key.length) < bestScore) continue;
        const r = (200 * lcsLength(p, key)) / (k.length + key.length);
        if (r >= bestScore && (best === null || r > bestScore) && (!this.wholeWords || sameWords(key, k))) {
          best = this.#exact.get(k)!;
          bestScore = r;
        }
      }
    }
    if (this.#memo.size > 10_000) this.#memo.clear();
    this.#memo.set(key, best);
    return best;
  }
}

/** Builds the lookup maps once per vocabulary; `food()` and `unit()` are then cheap. */
export function createMatcher(vocabulary: ParserVocabulary): VocabularyMatcher {
  const foods = new KeyIndex<Food>(
    vocabulary.foods.flatMap((f) => [
      [f.name, f] as [string, Food],
      [f.pluralName, f] as [string | null | undefined, Food],
      ...(f.aliases ?? []).map((a) => [a.name, f] as [string, Food]),
    ]),
    FOOD_THRESHOLD,
    true,
  );
  const units = new KeyIndex<Unit>(
    vocabulary.units.flatMap((u) => [
      [u.name, u] as [string, Unit],
      [u.pluralName, u] as [string | null | undefined, Unit],
      [u.abbreviation, u] as [string | null | undefined, Unit],
      [u.pluralAbbreviation, u] as [string | null | undefined, Unit],
      ...(u.aliases ?? []).map((a) => [a.name, u] as [string, Unit]),
    ]),
    UNIT_THRESHOLD,
  );
  const food = (text: string) => foods.find(text);
  const unit = (text: string) => units.find(text);
  return {
    food,
    unit,
    exactFood: (text) => foods.exact(text),
    exactUnit: (text) => units.exact(text),
    ingredient(unitText, foodText) {
      const u = unitText?.trim() ? unit(unitText) : null;
      // Checked before the food alone: "1 red pepper flakes" read as unit "red" and food "pepper flakes"
      // is the food "red pepper flakes" (Mealie's brute cases), even though "pepper flakes" is close to it.
      if (unitText?.trim() && foodText?.trim() && !u) {
        const joined = food(`${unitText.trim()} ${foodText.trim()}`);
        if (joined) return { unit: null, food: { id: joined.id, name: joined.name } };
      }
      const f = foodText?.trim() ? food(foodText) : null;
      return {
        unit: u ? { id: u.id, name: u.name } : unitText?.trim() ? { name: unitText.trim() } : null,
        food: f ? { id: f.id, name: f.name } : foodText?.trim() ? { name: foodText.trim() } : null,
      };
    },
  };
}
