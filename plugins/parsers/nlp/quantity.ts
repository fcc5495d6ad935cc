/** Reading quantities from tokens: `2`, `1.5`, `1,5`, `1/2`, `1 1/2`, ranges `2-3`, `2 to 3`. */

/** The value of one number token, or null. */
export function numberValue(tok: string): number | null {
  const m = /^(\d+)(?:[.,](\d+))?(?:\/(\d+))?$/.exec(tok);
  if (!m) return null;
  if (m[3] !== undefined) {
    const num = Number(m[2] === undefined ? m[1] : `${m[1]}.${m[2]}`);
    const den = Number(m[3]);
    return den === 0 ? null : num / den;
  }
  return Number(m[2] === undefined ? m[1] : `${m[1]}.${m[2]}`);
}

function isProperFraction(tok: string): boolean {
  const m = /^(\d+)\/(\d+)$/.exec(tok);
  return !!m && Number(m[1]) < Number(m[2]);
}

const RANGE_WORDS = new Set(["-", "to", "or", "–", "—"]);

export interface QuantityReading {
  /** The first amount: an integer merged with a following proper fraction. */
  value: number;
  /** The upper end of a range (`2-3` → 3), if any. */
  max: number | null;
}

/**
 * The quantity of a run of QTY tokens (SOURCE.md "Field level"): the value of the first number, merging
 * an integer with a following proper fraction, stopping at a range separator. Null if there is no number.
 */
export function readQuantity(run: readonly string[]): QuantityReading | null {
  let i = 0;
  while (i < run.length && numberValue(run[i]) === null) i++;
  if (i === run.length) return null;
  const first = readAmount(run, i);
  let j = first.next;
  let max: number | null = null;
  if (j < run.length && RANGE_WORDS.has(run[j].toLowerCase())) {
    j++;
    if (j < run.length && RANGE_WORDS.has(run[j].toLowerCase())) j++;
    if (j < run.length && numberValue(run[j]) !== null) max = readAmount(run, j).value;
  }
  return { value: first.value, max };
}

function readAmount(run: readonly string[], i: number): { value: number; next: number } {
  let value = numberValue(run[i]) ?? 0;
  let next = i + 1;
  if (/^\d+$/.test(run[i]) && next < run.length && isProperFraction(run[next])) {
    value += numberValue(run[next]) ?? 0;
    next++;
  }
  return { value, next };
}
