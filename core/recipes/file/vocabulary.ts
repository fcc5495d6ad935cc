/**
 * A group's units and foods compiled into lookup tables for the ingredient-line grammar. Compiling is done
 * once per Vocabulary object (cached weakly), so reading thousands of recipes costs one map lookup per
 * candidate word boundary. Treat a Vocabulary as immutable: build a new object when foods or units change.
 */
import type { Vocabulary, VocabularyFood, VocabularyUnit } from "../doc.js";

export interface TermTable<T> {
  /** Lower-cased, space-collapsed term → entry. */
  byTerm: Map<string, T>;
  /** Every start of a term that ends where a word ends: matching stops as soon as text leaves them. */
  prefixes: Set<string>;
}

export interface CompiledVocabulary {
  units: TermTable<VocabularyUnit>;
  foods: TermTable<VocabularyFood>;
  /** By canonical name (exact first, then any case). */
  unit(name: string): VocabularyUnit | null;
  food(name: string): VocabularyFood | null;
}

const cache = new WeakMap<Vocabulary, CompiledVocabulary>();

export function termKey(s: string): string {
  return s.trim().replace(/\s+/g, " ").toLowerCase();
}

/** English plurals for names the group gave no plural (`onion` → `onions`, `berry` → `berries`). */
function derivedPlurals(name: string): string[] {
  const n = name.trim();
  if (n.length < 2 || !/\p{L}$/u.test(n)) return [];
  const out = [`${n}s`, `${n}es`];
  if (/[^aeiou]y$/i.test(n)) out.push(`${n.slice(0, -1)}ies`);
  return out;
}

function buildTable<T>(
  items: readonly T[],
  explicit: (t: T) => (string | null)[],
  derived: (t: T) => string[],
): TermTable<T> {
  const byTerm = new Map<string, T>();
  const prefixes = new Set<string>();
  const add = (term: string | null, item: T): void => {
    if (!term) return;
    const key = termKey(term);
    if (!key || byTerm.has(key)) return;
    byTerm.set(key, item);
    for (let i = 1; i < key.length; i++) if (isWordEnd(key[i])) prefixes.add(termKey(key.slice(0, i)));
  };
  // Names the group wrote win over guessed plurals; earlier entries win over later ones.
  for (const item of items) for (const t of explicit(item)) add(t, item);
  for (const item of items) for (const t of derived(item)) add(t, item);
  return { byTerm, prefixes };
}

function byName<T extends { name: string }>(items: readonly T[]): (name: string) => T | null {
  const exact = new Map<string, T>();
  const folded = new Map<string, T>();
  for (const item of items) {
    if (!exact.has(item.name)) exact.set(item.name, item);
    const k = termKey(item.name);
    if (!folded.has(k)) folded.set(k, item);
  }
  return (name) => exact.get(name) ?? folded.get(termKey(name)) ?? null;
}

/** The lookup tables for one vocabulary (cached per object). */
export function compileVocabulary(vocab: Vocabulary): CompiledVocabulary {
  const hit = cache.get(vocab);
  if (hit) return hit;
  const compiled: CompiledVocabulary = {
    units: buildTable(
      vocab.units,
      (u) => [u.name, u.pluralName, u.abbreviation, u.pluralAbbreviation, ...u.aliases],
      (u) => derivedPlurals(u.name),
    ),
    foods: buildTable(
      vocab.foods,
      (f) => [f.name, f.pluralName, ...f.aliases],
      (f) => derivedPlurals(f.name),
    ),
    unit: byName(vocab.units),
    food: byName(vocab.foods),
  };
  cache.set(vocab, compiled);
  return compiled;
}

/** `/\s/.test(c)` for one character, without the regular expression for ASCII. */
export const isSpace = (c: string): boolean => {
  const code = c.charCodeAt(0);
  return code === 32 || (code < 32 ? code >= 9 && code <= 13 : code > 127 && /\s/.test(c));
};
const isWordEnd = (c: string): boolean => c === "," || c === "." || isSpace(c);

/**
 * The longest term of `table` starting at `start` in `s` (case-insensitive) whose end satisfies
 * `endsOk` (what may follow it), or null. Walks word by word and stops when the text read so far starts
 * no term, so the cost is a few lookups whatever the size of the vocabulary.
 */
export function matchTerm<T>(
  table: TermTable<T>,
  s: string,
  start: number,
  endsOk: (s: string, end: number) => boolean,
): { item: T; end: number } | null {
  let best: { item: T; end: number } | null = null;
  // Plain text (single spaces only) needs just lower-casing; anything else goes through termKey.
  let plain = !isSpace(s[start] ?? " ");
  for (let end = start + 1; end <= s.length; end++) {
    const c = s[end - 1];
    if (isSpace(c)) {
      if (c !== " " || (end - 2 >= start && isSpace(s[end - 2]))) plain = false;
      continue;
    }
    if (end < s.length && !isWordEnd(s[end])) continue;
    const slice = s.slice(start, end);
    const key = plain ? slice.toLowerCase() : termKey(slice);
    const item = table.byTerm.get(key);
    if (item !== undefined && endsOk(s, end)) best = { item, end };
    if (!table.prefixes.has(key)) break;
  }
  return best;
}
