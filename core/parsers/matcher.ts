/**
 * Matching parsed food and unit text against a group's foods and units, as Mealie does
 * (mealie-api-notes §13 "DB matching"): keys are the normalised (transliterated, lower-case, trimmed)
 * name, plural name, abbreviation, plural abbreviation and aliases; an exact key wins, otherwise the best
 * fuzzy `ratio` at or above the threshold (85 for foods, 70 for units).
 */
import anyAscii from "any-ascii";
import type { ParserFood, ParserUnit, ParserVocabulary, VocabularyMatcher } from "../plugins/kinds.js";

export const FOOD_THRESHOLD = 85;
export const UNIT_THRESHOLD = 70;
/** Fuzzy matching compares at most this many characters: longer text is no name anyway. */
const MAX_FUZZY = 64;

type Food = ParserFood;
type Unit = ParserUnit;

export function normaliseKey(s: string): string {
  return anyAscii(s).toLowerCase().trim().replace(/\s+/g, " ");
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

class KeyIndex<T> {
  readonly #exact = new Map<string, T>();
  readonly #keys: string[] = [];
  readonly #memo = new Map<string, T | null>();

  constructor(
    entries: Iterable<[string | null | undefined, T]>,
    private readonly threshold: number,
  ) {
    for (const [raw, value] of entries) {
      if (!raw) continue;
      const key = normaliseKey(raw);
      if (!key || this.#exact.has(key)) continue;
      this.#exact.set(key, value);
      this.#keys.push(key);
    }
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
      // ratio ≤ 200·min/(a+b): skip keys whose length alone rules them out.
      for (const k of this.#keys) {
        const lo = Math.min(k.length, key.length);
        if ((200 * lo) / (k.length + key.length) < bestScore) continue;
        const r = ratio(key, k);
        if (r >= bestScore && (best === null || r > bestScore)) {
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
