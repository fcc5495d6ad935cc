/** Reading quantities from tokens: `2`, `1.5`, `1,5`, `1/2`, `1 1/2`, ranges `2-3`, `2 to 3`. */

/** Amounts people write out; the tagger marks them as quantities ("two eggs", "half a lemon"). */
const WORD_NUMBERS: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  dozen: 12,
  couple: 2,
  half: 0.5,
  quarter: 0.25,
};

/** The value of one number token, or null. */
export function numberValue(tok: string): number | null {
  const m = /^(\d+)(?:[.,](\d+))?(?:\/(\d+))?$/.exec(tok);
  if (!m) return Object.hasOwn(WORD_NUMBERS, tok.toLowerCase()) ? WORD_NUMBERS[tok.toLowerCase()] : null;
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
  const r = readRun(run);
  return r && { value: r.value, max: r.max };
}

/** readQuantity, and where in the run the amount (with its range) ends. */
function readRun(run: readonly string[]): (QuantityReading & { end: number }) | null {
  let i = 0;
  while (i < run.length && numberValue(run[i]) === null) i++;
  if (i === run.length) return null;
  const first = readAmount(run, i);
  let j = first.next;
  let max: number | null = null;
  if (j < run.length && RANGE_WORDS.has(run[j].toLowerCase())) {
    let k = j + 1;
    if (k < run.length && RANGE_WORDS.has(run[k].toLowerCase())) k++;
    if (k < run.length && numberValue(run[k]) !== null) {
      const upper = readAmount(run, k);
      // "1-1/2 cups" is one and a half: a range does not end below where it starts.
      if (run[j] === "-" && /^\d+$/.test(run[i]) && isProperFraction(run[k]) && upper.next === k + 1)
        return { value: first.value + upper.value, max: null, end: upper.next };
      max = upper.value;
      j = upper.next;
    }
  }
  // "half a dozen", "2-3 dozen": the amount counts dozens.
  let dozen = j;
  if (dozen < run.length && /^an?$/i.test(run[dozen])) dozen++;
  if (dozen < run.length && /^dozens?$/i.test(run[dozen]) && !/^dozens?$/i.test(run[i]))
    return { value: first.value * 12, max: max === null ? null : max * 12, end: dozen + 1 };
  return { value: first.value, max, end: j };
}

const TIMES = new Set(["x", "×", "*"]);

/**
 * Where a pack's size starts in a run of QTY tokens, or -1: "2 x 400" (g tins), "1 400" (g can),
 * "1 12" (-ounce bag) count packs first and then say how large each is. A second number only counts
 * when it cannot be part of the first amount (a fraction or a range is read by readQuantity).
 */
export function packSizeAt(run: readonly string[]): number {
  const r = readRun(run);
  if (!r || r.end >= run.length) return -1;
  let at = r.end;
  if (TIMES.has(run[at].toLowerCase())) at++;
  return at < run.length && numberValue(run[at]) !== null ? at : -1;
}

function readAmount(run: readonly string[], i: number): { value: number; next: number } {
  let value = numberValue(run[i]) ?? 0;
  let next = i + 1;
  // "1 1/2", and "1 and 1/2" as people write it out.
  const and = next < run.length && run[next].toLowerCase() === "and" ? 1 : 0;
  if (/^\d+$/.test(run[i]) && next + and < run.length && isProperFraction(run[next + and])) {
    value += numberValue(run[next + and]) ?? 0;
    next += and + 1;
  }
  return { value, next };
}
