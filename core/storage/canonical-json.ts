/**
 * The one serialisation of every JSON document in the data folder (ARCHITECTURE §2): keys sorted,
 * 2-space indent, trailing newline, and declared arrays ordered by position then id. The same value
 * always gives the same bytes, so saving an unchanged document changes nothing and git diffs stay small.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface CanonicalJsonOptions {
  /**
   * Arrays to order by `position`, then `id`, named by dotted paths from the root: `"units"`,
   * `"lists.*.items"` (`*` matches any key or array index; `""` is a root array). Arrays not named keep
   * their order, because for most of them (steps, ingredients) the order is the meaning.
   */
  sortArraysAt?: readonly string[];
}

/** Serialise `value` canonically. Follows JSON.stringify's rules for toJSON, undefined and non-finite numbers. */
export function canonicalJson(value: unknown, options: CanonicalJsonOptions = {}): string {
  const rules = (options.sortArraysAt ?? []).map((p) => (p === "" ? [] : p.split(".")));
  const out = serialise(value, "", 0, rules, new Set());
  if (out === undefined) throw new TypeError("canonicalJson: the value has no JSON form");
  return `${out}\n`;
}

/**
 * Order for records that carry a `position` and/or an `id`: by position (items without one last),
 * then by id (numbers numerically, before strings; strings by code unit so every locale agrees).
 */
export function comparePositionThenId(a: unknown, b: unknown): number {
  const byPosition = compareOptionalNumbers(field(a, "position"), field(b, "position"));
  if (byPosition !== 0) return byPosition;
  const ia = field(a, "id");
  const ib = field(b, "id");
  const na = typeof ia === "number";
  const nb = typeof ib === "number";
  if (na && nb) return (ia as number) - (ib as number);
  if (na !== nb) return na ? -1 : 1;
  const sa = typeof ia === "string" ? ia : undefined;
  const sb = typeof ib === "string" ? ib : undefined;
  if (sa === undefined || sb === undefined) return sa === sb ? 0 : sa === undefined ? 1 : -1;
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** A copy of `items` in position-then-id order (stable: ties keep their order). */
export function sortByPositionThenId<T>(items: readonly T[]): T[] {
  return [...items].sort(comparePositionThenId);
}

function field(item: unknown, key: string): unknown {
  return typeof item === "object" && item !== null ? (item as Record<string, unknown>)[key] : undefined;
}

function compareOptionalNumbers(a: unknown, b: unknown): number {
  const na = typeof a === "number" && Number.isFinite(a);
  const nb = typeof b === "number" && Number.isFinite(b);
  if (na && nb) return (a as number) - (b as number);
  if (na !== nb) return na ? -1 : 1;
  return 0;
}

/** No rule applies below this point. */
const NONE: readonly string[][] = [];

/** The rules still matching one level down, under `key`. */
function narrowed(rules: readonly string[][], depth: number, key: string): readonly string[][] {
  let out: string[][] | null = null;
  for (const r of rules) if (r.length > depth && (r[depth] === "*" || r[depth] === key)) (out ??= []).push(r);
  return out ?? NONE;
}

/** Indents by depth, made once: a document is written on every change to it. */
const INDENTS: string[] = [""];
function indentAt(depth: number): string {
  while (INDENTS.length <= depth) INDENTS.push(`${INDENTS[INDENTS.length - 1]}  `);
  return INDENTS[depth];
}

/**
 * `rules` are the ones whose first `depth` segments match the path to `value` (so one of exactly
 * `depth` segments names this very array); `key` is the value's key or index, for `toJSON`.
 */
function serialise(
  value: unknown,
  key: string | number,
  depth: number,
  rules: readonly string[][],
  ancestors: Set<object>,
): string | undefined {
  let v = value;
  if (typeof v === "object" && v !== null && typeof (v as { toJSON?: unknown }).toJSON === "function") {
    v = (v as { toJSON: (key: string) => unknown }).toJSON(String(key));
  }
  switch (typeof v) {
    case "string":
      return JSON.stringify(v);
    case "number":
      return Number.isFinite(v) ? JSON.stringify(v) : "null";
    case "boolean":
      return v ? "true" : "false";
    case "bigint":
      throw new TypeError("canonicalJson: BigInt has no JSON form");
    case "undefined":
    case "function":
    case "symbol":
      return undefined;
  }
  if (v === null) return "null";
  const obj = v as object;
  if (ancestors.has(obj)) throw new TypeError("canonicalJson: circular structure");
  ancestors.add(obj);
  try {
    const indent = indentAt(depth);
    const inner = indentAt(depth + 1);
    const between = `,\n${inner}`;
    if (Array.isArray(obj)) {
      if (obj.length === 0) return "[]";
      const items: readonly unknown[] = rules.some((r) => r.length === depth)
        ? sortByPositionThenId(obj)
        : obj;
      let out = `[\n${inner}`;
      for (let i = 0; i < items.length; i++) {
        const below = rules.length === 0 ? NONE : narrowed(rules, depth, String(i));
        if (i > 0) out += between;
        out += serialise(items[i], i, depth + 1, below, ancestors) ?? "null";
      }
      return `${out}\n${indent}]`;
    }
    const record = obj as Record<string, unknown>;
    // Code-unit order, not localeCompare: the bytes must not depend on the machine's locale.
    const keys = Object.keys(record).sort();
    let out = "";
    for (const k of keys) {
      const below = rules.length === 0 ? NONE : narrowed(rules, depth, k);
      const s = serialise(record[k], k, depth + 1, below, ancestors);
      if (s === undefined) continue;
      out += `${out === "" ? `{\n${inner}` : between}${JSON.stringify(k)}: ${s}`;
    }
    return out === "" ? "{}" : `${out}\n${indent}}`;
  } finally {
    ancestors.delete(obj);
  }
}
