/**
 * Ingredient quantities: read the forms people write (`2`, `0.5`, `1/2`, `1 1/2`, `½`, `1½`, ranges
 * `2-3`, `2–3`, `2 to 3`) and write the one form Larder uses. Quantities are kept rounded to 3 decimals,
 * as Mealie stores them (mealie-api-notes §5.3), so that a written quantity reads back to the same number.
 */

export const UNICODE_FRACTIONS: Readonly<Record<string, number>> = {
  "½": 1 / 2,
  "⅓": 1 / 3,
  "⅔": 2 / 3,
  "¼": 1 / 4,
  "¾": 3 / 4,
  "⅕": 1 / 5,
  "⅖": 2 / 5,
  "⅗": 3 / 5,
  "⅘": 4 / 5,
  "⅙": 1 / 6,
  "⅚": 5 / 6,
  "⅐": 1 / 7,
  "⅛": 1 / 8,
  "⅜": 3 / 8,
  "⅝": 5 / 8,
  "⅞": 7 / 8,
  "⅑": 1 / 9,
  "⅒": 1 / 10,
};
const FRACTION_CHARS = Object.keys(UNICODE_FRACTIONS).join("");

export interface QuantityMatch {
  quantity: number;
  /** Upper bound of a range, else null. */
  quantityMax: number | null;
  /** Index just past the quantity text. */
  end: number;
}

/** Rounds to 3 decimals (never -0). */
export function roundQuantity(n: number): number {
  return Math.round(n * 1000) / 1000 || 0;
}

// Sticky patterns, tried in this order at one position; the first that fits wins.
const MIXED = /(\d+)[ \t]+(\d+)[ \t]*[/⁄][ \t]*(\d+)/y;
const INT_UNICODE = new RegExp(`(\\d+)[ \\t]*([${FRACTION_CHARS}])`, "y");
const FRACTION = /(\d+)[ \t]*[/⁄][ \t]*(\d+)/y;
const DECIMAL = /\d*\.\d+/y;
const INTEGER = /\d+/y;
const UNICODE_ALONE = new RegExp(`[${FRACTION_CHARS}]`, "y");
const RANGE_SEPARATOR = /[ \t]*[-–—][ \t]*|[ \t]+to[ \t]+/iy;

interface NumberMatch {
  value: number;
  end: number;
  /** A bare `n/d` below 1: lets `1-1/2` read as the mixed number it usually means. */
  properFraction: boolean;
}

function readNumber(s: string, at: number): NumberMatch | null {
  const attempt = (re: RegExp): RegExpExecArray | null => {
    re.lastIndex = at;
    return re.exec(s);
  };
  let m = attempt(MIXED);
  if (m && Number(m[3]) > 0) {
    return {
      value: Number(m[1]) + Number(m[2]) / Number(m[3]),
      end: at + m[0].length,
      properFraction: false,
    };
  }
  m = attempt(INT_UNICODE);
  if (m)
    return { value: Number(m[1]) + UNICODE_FRACTIONS[m[2]], end: at + m[0].length, properFraction: false };
  m = attempt(FRACTION);
  if (m && Number(m[2]) > 0) {
    const value = Number(m[1]) / Number(m[2]);
    return { value, end: at + m[0].length, properFraction: value < 1 };
  }
  m = attempt(DECIMAL);
  if (m) return { value: Number(m[0]), end: at + m[0].length, properFraction: false };
  m = attempt(INTEGER);
  if (m) return { value: Number(m[0]), end: at + m[0].length, properFraction: false };
  m = attempt(UNICODE_ALONE);
  if (m) return { value: UNICODE_FRACTIONS[m[0]], end: at + m[0].length, properFraction: false };
  return null;
}

/**
 * What may follow a quantity: the end, a space, a comma, a bracket or a letter (`100g`). Anything else
 * (`3/4-inch`, `1.5.2`, `2%`) means the text does not start with a quantity.
 */
function endsCleanly(s: string, at: number): boolean {
  if (at >= s.length) return true;
  return /[\s,(\p{L}]/u.test(s[at]);
}

/** Reads a quantity or range at the start of `s` (from `at`); null when there is none. */
export function matchQuantity(s: string, at = 0): QuantityMatch | null {
  const first = readNumber(s, at);
  if (!first || !Number.isFinite(first.value)) return null;
  RANGE_SEPARATOR.lastIndex = first.end;
  const sep = RANGE_SEPARATOR.exec(s);
  if (sep) {
    const afterSep = first.end + sep[0].length;
    const second = readNumber(s, afterSep);
    if (second && Number.isFinite(second.value) && endsCleanly(s, second.end)) {
      // "1-1/2 cups" is the hyphenated mixed number 1½, not a range that ends below where it starts.
      if (sep[0] === "-" && second.properFraction && Number.isInteger(first.value)) {
        return { quantity: roundQuantity(first.value + second.value), quantityMax: null, end: second.end };
      }
      return {
        quantity: roundQuantity(first.value),
        quantityMax: roundQuantity(second.value),
        end: second.end,
      };
    }
  }
  if (!endsCleanly(s, first.end)) return null;
  return { quantity: roundQuantity(first.value), quantityMax: null, end: first.end };
}

/** Parses a whole string as a quantity or range (surrounding spaces allowed); null when it is not one. */
export function parseQuantity(text: string): { quantity: number; quantityMax: number | null } | null {
  const s = text.trim();
  const m = matchQuantity(s);
  if (!m || m.end !== s.length) return null;
  return { quantity: m.quantity, quantityMax: m.quantityMax };
}

// Kitchen fractions only: 1/5 or 3/10 read better as 0.2 and 0.3.
const FILE_DENOMINATORS = [2, 3, 4, 6, 8];
// Made when first needed: building an Intl format loads ICU's locale data, about 20 ms of every server
// start (decision 0139), and only quantities of 1e15 and above ever get here.
let decimalFormat: Intl.NumberFormat | null = null;

/** Decimal text with at most 3 places and no trailing zeros; never exponent notation. */
export function formatDecimal(q: number): string {
  const v = roundQuantity(q);
  if (Number.isInteger(v) && Math.abs(v) < 1e21) return String(v);
  if (Math.abs(v) < 1e15) return v.toFixed(3).replace(/\.?0+$/, "");
  decimalFormat ??= new Intl.NumberFormat("en-US", { useGrouping: false, maximumFractionDigits: 3 });
  return decimalFormat.format(v);
}

/**
 * The quantity as Larder writes it: a whole number, a simple fraction (`1/2`, `1 1/2`) when one reads back
 * to the same 3-decimal value, else a decimal. `fraction: false` (a unit that prefers decimals) always
 * writes the decimal.
 */
export function formatQuantity(q: number, opts: { fraction?: boolean } = {}): string {
  const value = roundQuantity(q);
  if (opts.fraction === false || value < 0 || Number.isInteger(value)) return formatDecimal(value);
  const whole = Math.floor(value);
  const rest = value - whole;
  for (const d of FILE_DENOMINATORS) {
    const n = Math.round(rest * d);
    if (n <= 0 || n >= d || roundQuantity(whole + n / d) !== value) continue;
    return whole > 0 ? `${whole} ${n}/${d}` : `${n}/${d}`;
  }
  return formatDecimal(value);
}

/** A quantity or a range (`2-3`), as written in a file. */
export function formatQuantityRange(
  q: number,
  max: number | null,
  opts: { fraction?: boolean } = {},
): string {
  const low = formatQuantity(q, opts);
  return max === null ? low : `${low}-${formatQuantity(max, opts)}`;
}
