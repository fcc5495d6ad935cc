/**
 * Reading a recipe file as parseRecipeFile does, faster, for the front matter Larder itself writes.
 *
 * Profiling a cold start of 10,000 recipes showed that YAML parsing (gray-matter and the `yaml`
 * package building a full document with ranges, then converting it) was about 60 % of reading a
 * file (docs/decisions/0007). The front matter Larder writes is a tiny subset of YAML: one `key: value`
 * per line, values plain or simply quoted scalars, `[a, b]` lists, and one level of `  - item` or
 * `  key: value` under a key. readCanonicalFrontMatter reads exactly that subset and returns null for
 * anything else — a comment, an anchor, a block scalar, an escape, a number that is not a plain
 * integer, a duplicate key — which then goes through the real reader. Within the subset it gives the
 * same data as YAML's core schema; store/fast-read.test.ts checks this against parseRecipeFile over
 * generated recipes and hand-written variants. The metadata and body readers are the file module's own.
 */
import type { RecipeDoc, Vocabulary } from "../doc.js";
import type { FrontMatter } from "../file/front-matter.js";
import { normaliseText, parseRecipeFile, recipeFrom, refuseConflictMarkers } from "../file/recipe-file.js";

const KEY = /^([A-Za-z_][A-Za-z0-9_]*):(?: (.*))?$/;
const NESTED_KEY = /^ {2}([A-Za-z_][A-Za-z0-9_]*):(?: (.*))?$/;
const NESTED_ITEM = /^ {2}- (.*)$/;
// YAML 1.2 core schema (the `yaml` package's own tests, schema/core): what a plain scalar resolves to.
const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT = /^[-+]?[0-9]+$/;
const OTHER_NON_STRING = [
  /^0o[0-7]+$/,
  /^0x[0-9a-fA-F]+$/,
  /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/,
];
// Characters a plain scalar may not start with, and characters we never accept anywhere (control
// characters, and the ones YAML or the writer treat as line breaks or byte-order marks).
const INDICATOR = /^[-?:,[\]{}#&*!|>'"%@`]/;
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;
const FLOW_UNSAFE = /[,[\]{}]/;
/** The first characters of everything NULL, BOOL, INT and OTHER_NON_STRING match. */
const MAY_NOT_BE_TEXT = new Set([..."~nNtTfF+-.0123456789"]);

const NO = Symbol("not in the subset");
type Value = string | number | boolean | null | Value[] | { [k: string]: Value };

/** A plain or simply quoted scalar, resolved as YAML's core schema would; NO when unsure. */
function scalar(raw: string, flow: boolean): Value | typeof NO {
  if (raw === "" || raw !== raw.trim() || UNSAFE.test(raw)) return NO;
  const q = raw[0];
  if (q === '"' || q === "'") {
    const inner = raw.slice(1, -1);
    if (raw.length < 2 || raw[raw.length - 1] !== q || inner.includes(q) || inner.includes("\\")) return NO;
    return flow && FLOW_UNSAFE.test(inner) ? NO : inner;
  }
  if (INDICATOR.test(raw) && !INT.test(raw)) return NO;
  if (raw.includes(": ") || raw.includes(" #") || raw.endsWith(":") || raw.includes("\t")) return NO;
  if (flow && (FLOW_UNSAFE.test(raw) || raw.includes(":"))) return NO;
  // Most values are text: none of the patterns below can match a scalar starting with another letter.
  if (!MAY_NOT_BE_TEXT.has(raw[0])) return raw;
  if (NULL.test(raw)) return null;
  if (BOOL.test(raw)) return raw[0] === "t" || raw[0] === "T";
  if (INT.test(raw)) return raw.replace(/^[-+]/, "").length <= 15 ? parseInt(raw, 10) : NO;
  if (OTHER_NON_STRING.some((re) => re.test(raw))) return NO;
  return raw;
}

/** A top-level value on the key's own line: a scalar or a flow list of scalars. */
function inlineValue(raw: string): Value | typeof NO {
  if (raw.startsWith("[")) {
    if (!raw.endsWith("]") || raw.includes('"') || raw.includes("'")) return NO;
    const inner = raw.slice(1, -1);
    if (inner.trim() === "") return inner === "" ? [] : NO;
    const items: Value[] = [];
    for (const part of inner.split(",")) {
      const v = scalar(part.trim(), true);
      if (v === NO) return NO;
      items.push(v);
    }
    return items;
  }
  return scalar(raw, false);
}

/** Keys YAML would read as something other than that string, or that JS objects treat specially. */
function unsafeKey(key: string): boolean {
  return key === "__proto__" || NULL.test(key) || BOOL.test(key);
}

/**
 * The front matter of a normalised recipe file (BOM and CR removed) when it is in the subset above,
 * split as gray-matter splits it; null otherwise.
 */
export function readCanonicalFrontMatter(text: string): FrontMatter | null {
  if (!text.startsWith("---\n")) return null;
  // gray-matter: the block ends at the first "\n---"; the body starts after it, minus one newline.
  const close = text.indexOf("\n---", 3);
  if (close < 0) return null;
  const block = text.slice(4, close);
  let body = text.slice(close + 4);
  if (body[0] === "\n") body = body.slice(1);
  if (block === "") return null;
  const lines = block.split("\n");
  const data: Record<string, Value> = {};
  const lineOfKey = new Map<string, number>();
  for (let i = 0; i < lines.length; i++) {
    const m = KEY.exec(lines[i]);
    if (!m) return null;
    const key = m[1];
    if (unsafeKey(key) || lineOfKey.has(key)) return null;
    // File line: the opening `---` is line 1, the block's first line is line 2.
    lineOfKey.set(key, i + 2);
    if (m[2] !== undefined) {
      const v = inlineValue(m[2]);
      if (v === NO) return null;
      data[key] = v;
      continue;
    }
    // `key:` alone: null, or a block list / one-level map on the lines below, indented by two.
    let list: Value[] | null = null;
    let map: Record<string, Value> | null = null;
    while (i + 1 < lines.length && lines[i + 1].startsWith(" ")) {
      const line = lines[++i];
      const item = NESTED_ITEM.exec(line);
      const pair = item ? null : NESTED_KEY.exec(line);
      if (item && !map) {
        const v = scalar(item[1], false);
        if (v === NO) return null;
        (list ??= []).push(v);
      } else if (pair && !list) {
        map ??= {};
        if (unsafeKey(pair[1]) || pair[1] in map || pair[2] === undefined) return null;
        const v = scalar(pair[2], false);
        if (v === NO) return null;
        map[pair[1]] = v;
      } else return null;
    }
    data[key] = list ?? map ?? null;
  }
  return { data, body, lineOf: (key) => lineOfKey.get(key) ?? 1 };
}

/** parseRecipeFile, with the front matter read by readCanonicalFrontMatter when it can. */
export function readRecipeFile(text: string, vocab: Vocabulary): RecipeDoc {
  refuseConflictMarkers(text);
  const fm = readCanonicalFrontMatter(normaliseText(text));
  return fm === null ? parseRecipeFile(text, vocab) : recipeFrom(fm, vocab);
}
