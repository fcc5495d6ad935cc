/**
 * The hostile values the input fuzz sends, and the seeded generator that picks among them. Everything
 * here is deterministic: the same seed gives the same requests on every run, so a failure replays.
 */

import { mulberry32 } from "../../../core/util/seeded-random.js";

/** A seeded PRNG, enough to pick variants reproducibly. */
export const seeded = mulberry32;

/** A seed from a text (FNV-1a), so each operation gets its own fixed sequence whatever runs before it. */
export function seedOf(text: string, base = 0x5eed): number {
  let h = 0x811c9dc5 ^ base;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export const pick = <T>(rnd: () => number, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];

/** Names written outside the data folder would carry this, so the test can look for them afterwards. */
export const MARK = "fuzzmark";

/**
 * JSON text a value cannot hold (1e309 reads as Infinity; -0; a number past 2^53): the value is a
 * placeholder string that `toJson` replaces with the raw token after stringifying.
 */
const RAW = "\u0001raw:";
export const raw = (token: string): string => `${RAW}${token}\u0001`;
export function toJson(value: unknown): string {
  return JSON.stringify(value).replace(/"\\u0001raw:([^"\\]*)\\u0001"/g, "$1");
}

/** Strings that have broken parsers, paths, headers, templates and storage elsewhere. */
export const HOSTILE_STRINGS: readonly string[] = [
  "",
  "   ",
  "\u0000",
  "a\u0000b",
  "x".repeat(100_000),
  "..",
  `../../../${MARK}`,
  `%2e%2e%2f%2e%2e%2f${MARK}`,
  `..\\..\\${MARK}`,
  `/etc/${MARK}`,
  "\u202efuzz\u202d",
  "\u200f\u200e\u200b",
  // Cyrillic look-alikes of "soup" and "admin".
  "\u0455\u043e\u0443\u0440",
  "\u0430dmin",
  "\ud800",
  "\udfff\ud800",
  "👩‍👩‍👧‍👦".repeat(50),
  "<script>alert(1)</script>",
  "{{7*7}}${7*7}<%= 7*7 %>",
  "'; DROP TABLE recipes; --",
  "line\r\nX-Injected: yes",
  "---\nname: injected\n---",
  "NaN",
  "Infinity",
  "-1",
  "1e309",
  "9007199254740993",
  "__proto__",
  "constructor",
  "null",
  "true",
  "2026-02-30",
];

export const HOSTILE_NUMBERS: readonly unknown[] = [
  -1,
  0,
  raw("-0"),
  1.5,
  raw("1e309"),
  raw("-1e309"),
  raw("9007199254740993"),
  1e308,
  -1e308,
  raw("1e-400"),
  2147483648,
  "NaN",
  "Infinity",
  "1e309",
];

export const HOSTILE_DATES: readonly string[] = [
  "2026-02-30",
  "2026-13-01",
  "0000-00-00",
  "2026-02-30T25:61:61",
  "+275760-09-14",
  "-000001-01-01",
  "9999-12-31T23:59:59.999999999Z",
  "2026-03-01T12:00:00+99:99",
  "yesterday",
];

export const HOSTILE_IDS: readonly string[] = [
  "00000000-0000-0000-0000-000000000000",
  "g0000000-0000-4000-8000-000000000000",
  "{00000000-0000-4000-8000-000000000000}",
  "00000000-0000-4000-8000-000000000000\n",
  "00000000-0000-4000-8000-00000000000\u0000",
  "-1",
  "..",
];

/** Values of the wrong kind, and shapes that have broken generic code. */
export const HOSTILE_SHAPES: readonly (() => unknown)[] = [
  () => null,
  () => true,
  () => [],
  () => ({}),
  () => [[[[[]]]]],
  () => ({ ["__proto__"]: { polluted: "yes", admin: true } }),
  () => ({ constructor: { prototype: { polluted: "yes" } } }),
  () => Array.from({ length: 10_000 }, () => "x"),
  () => Array.from({ length: 10_000 }, () => ({})),
  () => Array.from({ length: 2_000 }, () => null),
  () => ({ toString: "x", valueOf: 1, hasOwnProperty: null }),
];

/** A JSON text nesting `depth` objects: deep enough to overflow a recursive walk of the body. */
export const deepObject = (depth: number): string => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
export const deepArray = (depth: number): string => "[".repeat(depth) + "]".repeat(depth);

/** Query values for every parameter of a list; each a string as it goes on the URL. */
export const HOSTILE_QUERY: readonly string[] = [
  "-1",
  "0",
  "1e9",
  "1e309",
  "9007199254740993",
  "NaN",
  "abc",
  "",
  "__proto__",
  "constructor",
  "\u0000",
  "%",
  "\ud800",
  "x".repeat(6000),
  "2026-02-30",
  "\u202e",
];

/** A query filter of 10,000 clauses: past node's 16 KB in a URL; in a cookbook's body, past its 10,000 characters. */
export const TEN_THOUSAND_CLAUSES = Array.from({ length: 10_000 }, (_, i) => `name = "n${i}"`).join(" OR ");

/** Query strings sent whole, already encoded where a test means it to be. */
export const HOSTILE_QUERY_STRINGS: readonly string[] = [
  "page=-1",
  "page=0&perPage=0",
  "perPage=1e9",
  "perPage=-1&page=2",
  "perPage=99999999999999999999",
  "page=1&page=2&perPage=1&perPage=x",
  "orderBy=__proto__",
  "orderBy=constructor&orderDirection=sideways",
  "orderBy=name&orderByNullPosition=middle",
  "paginationSeed=%00&orderBy=random",
  "queryFilter=" + encodeURIComponent('name = "unbalanced'),
  "queryFilter=" + encodeURIComponent('((name = "a"'),
  "queryFilter=" + encodeURIComponent('name = "a"))'),
  "queryFilter=" + encodeURIComponent("__proto__.polluted = 1"),
  "queryFilter=" + encodeURIComponent('name LIKE "' + "%".repeat(400) + 'x"'),
  "queryFilter=" + encodeURIComponent("createdAt > 2026-02-30"),
  "queryFilter=" + encodeURIComponent(Array.from({ length: 1_000 }, () => "id=1").join(" OR ")),
  // 10,000 clauses: past node's 16 KB of URL and headers, refused before any handler runs.
  `queryFilter=${encodeURIComponent(TEN_THOUSAND_CLAUSES)}`,
  "queryFilter=%zz&page=%",
  "%=%&&&==&page",
  "search=" + encodeURIComponent("\u0000%_\\'\""),
];

/** File names a multipart part may carry. */
export const HOSTILE_FILE_NAMES: readonly string[] = [
  `../../../${MARK}.png`,
  `..\\..\\${MARK}.png`,
  `/tmp/${MARK}.png`,
  `${MARK}\u0000.png`,
  `${"a".repeat(5000)}.png`,
  `\u202egnp.${MARK}.exe`,
  ".",
  "..",
  "",
  `${MARK}.svg`,
  'a"b;c=d.png',
];
