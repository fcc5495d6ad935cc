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
  const out = serialise(value, "", [], rules, new Set());
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

function pathMatches(path: readonly string[], rules: readonly string[][]): boolean {
  return rules.some(
    (rule) => rule.length === path.length && rule.every((seg, i) => seg === "*" || seg === path[i]),
  );
}

function serialise(
  value: unknown,
  indent: string,
  path: string[],
  rules: readonly string[][],
  ancestors: Set<object>,
): string | undefined {
  let v = value;
  if (typeof v === "object" && v !== null && typeof (v as { toJSON?: unknown }).toJSON === "function") {
    v = (v as { toJSON: (key: string) => unknown }).toJSON(path.at(-1) ?? "");
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
    const inner = `${indent}  `;
    if (Array.isArray(obj)) {
      if (obj.length === 0) return "[]";
      const items: readonly unknown[] = pathMatches(path, rules) ? sortByPositionThenId(obj) : obj;
      const parts = items.map(
        (item, i) => serialise(item, inner, [...path, String(i)], rules, ancestors) ?? "null",
      );
      return `[\n${inner}${parts.join(`,\n${inner}`)}\n${indent}]`;
    }
    const record = obj as Record<string, unknown>;
    // Code-unit order, not localeCompare: the bytes must not depend on the machine's locale.
    const keys = Object.keys(record).sort();
    const parts: string[] = [];
    for (const key of keys) {
      const s = serialise(record[key], inner, [...path, key], rules, ancestors);
      if (s !== undefined) parts.push(`${JSON.stringify(key)}: ${s}`);
    }
    if (parts.length === 0) return "{}";
    return `{\n${inner}${parts.join(`,\n${inner}`)}\n${indent}}`;
  } finally {
    ancestors.delete(obj);
  }
}
