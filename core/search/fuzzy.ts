/**
 * Building blocks for typo-tolerant term lookup: padded trigrams (candidate generation) and a bounded
 * edit distance (verification).
 */

/**
 * Trigrams of `^term$`. Padding gives short words boundary grams. One insertion, deletion or
 * substitution changes at most three of a word's grams and a transposition at most four, so a term
 * within k edits of a query shares at least `grams(query) - 4k` grams with it (see minSharedGrams).
 */
export function paddedTrigrams(term: string): string[] {
  const s = `^${term}$`;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= s.length; i++) out.add(s.slice(i, i + 3));
  return [...out];
}

/** Unpadded trigrams: every gram a string containing `term` must also contain. */
export function innerTrigrams(term: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i + 3 <= term.length; i++) out.add(term.slice(i, i + 3));
  return [...out];
}

/** Candidate filter for fuzzy lookup: the fewest grams a term within `edits` of the query can share. */
export function minSharedGrams(queryGrams: number, edits: number): number {
  return Math.max(1, queryGrams - 4 * edits);
}

/**
 * Words reachable from `word` by up to `edits` swaps of neighbouring letters. A swap can change four
 * grams, so when a word has no more than 4·edits gram positions (4 letters with one typo, 8 with two)
 * a transposed term may share no gram with it; the caller looks these up directly instead.
 */
export function transpositionVariants(word: string, edits: number): Set<string> {
  const out = new Set<string>();
  let frontier = [word];
  for (let e = 0; e < edits; e++) {
    const next: string[] = [];
    for (const w of frontier) {
      for (let i = 0; i + 1 < w.length; i++) {
        if (w[i] === w[i + 1]) continue;
        const v = w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
        if (v !== word && !out.has(v)) {
          out.add(v);
          next.push(v);
        }
      }
    }
    frontier = next;
  }
  return out;
}

/** Whether a term within `edits` of a word this long may share no padded trigram with it. */
export function gramsMayAllDiffer(length: number, edits: number): boolean {
  return length - 4 * edits < 1;
}

/** How many typos a query word of this length tolerates. Short words none: too many false friends. */
export function maxEdits(length: number): number {
  return length >= 8 ? 2 : length >= 4 ? 1 : 0;
}

let prev2 = new Int32Array(64);
let prev = new Int32Array(64);
let cur = new Int32Array(64);

/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transpositions, so "chciken" is one typo
 * from "chicken"), giving up as soon as it must exceed `max`: returns `max + 1` then.
 */
export function boundedDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  const n = b.length;
  if (cur.length <= n) {
    prev2 = new Int32Array(n + 1);
    prev = new Int32Array(n + 1);
    cur = new Int32Array(n + 1);
  }
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const cb = b.charCodeAt(j - 1);
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca === cb ? 0 : 1));
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb)
        v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  return Math.min(prev[n], max + 1);
}
