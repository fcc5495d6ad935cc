/**
 * Typed values for filtering and ordering. Every column type maps to a comparable primitive:
 * strings stay strings, uuids become lowercase canonical strings, numbers and booleans (0/1) numbers,
 * dates a day number, datetimes microseconds since the epoch (so `createdAt >= <exact timestamp>`
 * distinguishes rows created in the same millisecond, as Mealie's microsecond columns do).
 */
export type AttrType = "string" | "uuid" | "date" | "datetime" | "number" | "boolean";
export type AttrScalar = string | number | boolean | null | undefined;
export type Comparable = string | number;

/** Days since 1970-01-01 for a proleptic Gregorian date (Hinnant's days-from-civil). */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const mp = (m + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(m) ? 30 : 31;
}

export interface ParsedDateTime {
  /** Microseconds since the epoch, UTC (naive input is taken as UTC, as Mealie stores naive UTC). */
  micros: number;
  /** The literal date part as days since the epoch: a Date column compares on this. */
  day: number;
}

// ISO-like forms accepted by a lenient date parser: `2024-02-25`, `2024/02/25`, `20240225`,
// `2024-02-25T10:00`, `2024-02-25 10:00:00.123456`, with `Z`, `UTC` or `±HH[:MM]`.
const DATE_RE =
  /^(\d{4})(?:([-/.])(\d{1,2})\2(\d{1,2})|(\d{2})(\d{2}))(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?$/i;

const ZERO = 48;

/** The decimal value of `n` digits of `s` from `at`, or -1 when one of them is not a digit. */
function digits(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const c = s.charCodeAt(i) - ZERO;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/**
 * The forms Larder itself writes (`2024-02-25`, `2024-02-25T10:00:00Z`, with a fraction or a `±HH:MM`
 * offset) read without the regular expression: a list ordered by date reads one per recipe, and the
 * expression made that tens of milliseconds at 10,000 recipes. Undefined for anything else, which
 * parseDateTime then reads as before; the same value either way.
 */
function parseIso(s: string): ParsedDateTime | null | undefined {
  const n = s.length;
  if (n < 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return undefined;
  const y = digits(s, 0, 4);
  const mo = digits(s, 5, 2);
  const d = digits(s, 8, 2);
  if (y < 0 || mo < 0 || d < 0) return undefined;
  let h = 0;
  let mi = 0;
  let sec = 0;
  let frac = 0;
  let offsetMin = 0;
  if (n > 10) {
    if (n < 19 || s[10] !== "T" || s[13] !== ":" || s[16] !== ":") return undefined;
    h = digits(s, 11, 2);
    mi = digits(s, 14, 2);
    sec = digits(s, 17, 2);
    if (h < 0 || mi < 0 || sec < 0) return undefined;
    let at = 19;
    if (s[at] === ".") {
      let end = at + 1;
      while (end < n && end - at <= 9 && digits(s, end, 1) >= 0) end++;
      if (end === at + 1) return undefined;
      frac = digits(s.slice(at + 1, Math.min(end, at + 7)).padEnd(6, "0"), 0, 6);
      at = end;
    }
    if (at === n - 1 && s[at] === "Z") at = n;
    else if (at === n - 6 && (s[at] === "+" || s[at] === "-") && s[at + 3] === ":") {
      const oh = digits(s, at + 1, 2);
      const om = digits(s, at + 4, 2);
      if (oh < 0 || om < 0) return undefined;
      offsetMin = (oh * 60 + om) * (s[at] === "-" ? -1 : 1);
      at = n;
    }
    if (at !== n) return undefined;
  }
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || sec > 59) return null;
  const day = daysFromCivil(y, mo, d);
  const seconds = day * 86400 + h * 3600 + mi * 60 + sec - offsetMin * 60;
  return { micros: seconds * 1e6 + frac, day };
}

/** Parse a date or datetime leniently; null when it is not one. */
export function parseDateTime(input: string): ParsedDateTime | null {
  const iso = parseIso(input);
  if (iso !== undefined) return iso;
  const m = DATE_RE.exec(input.trim());
  if (!m) return null;
  const y = +m[1];
  const mo = +(m[3] ?? m[5]);
  const d = +(m[4] ?? m[6]);
  const h = m[7] ? +m[7] : 0;
  const mi = m[8] ? +m[8] : 0;
  const s = m[9] ? +m[9] : 0;
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) return null;
  const frac = m[10] ? +m[10].slice(0, 6).padEnd(6, "0") : 0;
  let offsetMin = 0;
  const tz = m[11];
  if (tz && /^[+-]/.test(tz)) {
    const digits = tz.slice(1).replace(":", "");
    offsetMin = (+digits.slice(0, 2) * 60 + +(digits.slice(2) || "0")) * (tz[0] === "-" ? -1 : 1);
  }
  const day = daysFromCivil(y, mo, d);
  const seconds = day * 86400 + h * 3600 + mi * 60 + s - offsetMin * 60;
  return { micros: seconds * 1e6 + frac, day };
}

/**
 * Item timestamps repeat across queries; parsing each on every list request would dominate the cost.
 * Each string's parse is kept as numbers in typed arrays at a slot of its own: an object and a number
 * object per timestamp were some 200,000 objects at 50,000 recipes for every full collection to mark
 * (decision 0207).
 */
const MEMO_MAX = 200_000;
const memoSlot = new Map<string, number>();
let memoMicros = new Float64Array(1024);
let memoDay = new Int32Array(1024);
/** A string that is not a date or datetime. */
const NOT_A_DATE = -1;

function parsedSlot(s: string): number {
  let at = memoSlot.get(s);
  if (at !== undefined) return at;
  if (memoSlot.size >= MEMO_MAX) memoSlot.clear();
  const v = parseDateTime(s);
  if (v === null) at = NOT_A_DATE;
  else {
    at = memoSlot.size;
    if (at === memoMicros.length) {
      const micros = new Float64Array(at * 2);
      micros.set(memoMicros);
      memoMicros = micros;
      const day = new Int32Array(at * 2);
      day.set(memoDay);
      memoDay = day;
    }
    memoMicros[at] = v.micros;
    memoDay[at] = v.day;
  }
  memoSlot.set(s, at);
  return at;
}

function dayOf(s: string): number | null {
  const at = parsedSlot(s);
  return at === NOT_A_DATE ? null : memoDay[at];
}

function microsOf(s: string): number | null {
  const at = parsedSlot(s);
  return at === NOT_A_DATE ? null : memoMicros[at];
}

const UUID_HEX =
  /^(?:urn:uuid:)?\{?([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})\}?$/i;

/** Canonical lowercase UUID, or null (accepts Python's forms: no hyphens, braces, `urn:uuid:`). */
export function parseUuid(input: string): string | null {
  const m = UUID_HEX.exec(input.trim());
  return m ? `${m[1]}-${m[2]}-${m[3]}-${m[4]}-${m[5]}`.toLowerCase() : null;
}

/** Mealie's rule: true when the value starts with `t` or `y` (any case) or is exactly `1`. */
export function parseBooleanLiteral(input: string): boolean {
  const v = input.trim().toLowerCase();
  return v.startsWith("t") || v.startsWith("y") || v === "1";
}

/** A filter value as a comparable of its column type, or why it does not fit (for the 400 message). */
export function coerceFilterValue(type: AttrType, raw: string): Comparable | { error: string } {
  switch (type) {
    case "string":
      return raw;
    case "uuid":
      return parseUuid(raw) ?? { error: `'${raw}' is not a valid UUID` };
    case "number": {
      const n = raw.trim() === "" ? NaN : Number(raw);
      return Number.isFinite(n) ? n : { error: `'${raw}' is not a valid number` };
    }
    case "boolean":
      return parseBooleanLiteral(raw) ? 1 : 0;
    case "date": {
      const p = parseDateTime(raw);
      return p ? p.day : { error: `'${raw}' is not a valid date` };
    }
    case "datetime": {
      const p = parseDateTime(raw);
      return p ? p.micros : { error: `'${raw}' is not a valid datetime` };
    }
  }
}

type Coercer = (v: AttrScalar) => Comparable | null;

const toNumber: Coercer = (v) => {
  if (v === null || v === undefined) return null;
  const n = typeof v === "number" ? v : Number(v);
  return Number.isFinite(n) ? n : null;
};
const COERCERS: Record<AttrType, Coercer> = {
  string: (v) => (v === null || v === undefined ? null : typeof v === "string" ? v : String(v)),
  // Stored ids are lowercase already; only mixed-case input pays for lowercasing.
  uuid: (v) => {
    if (v === null || v === undefined) return null;
    const s = String(v);
    return /[A-F]/.test(s) ? s.toLowerCase() : s;
  },
  number: toNumber,
  boolean: (v) =>
    v === null || v === undefined
      ? null
      : typeof v === "boolean"
        ? v
          ? 1
          : 0
        : parseBooleanLiteral(String(v))
          ? 1
          : 0,
  date: (v) => (typeof v === "string" ? dayOf(v) : null),
  datetime: (v) => (typeof v === "string" ? microsOf(v) : null),
};

/**
 * The function turning an item's stored value into a comparable of its column type (null when absent
 * or unreadable). Chosen once per compiled filter or order term, so the per-item path has no dispatch.
 */
export function itemCoercer(type: AttrType): Coercer {
  return COERCERS[type];
}

/** An item's stored value as a comparable of its column type; null when absent or unreadable. */
export function itemComparable(type: AttrType, v: AttrScalar): Comparable | null {
  return COERCERS[type](v);
}
