/**
 * Compiles a parsed `queryFilter` against an attribute table into a predicate. All checks (unknown
 * attribute, value type, operator fit) happen at compile time, so a bad filter is a 400 even over an
 * empty list, as it is in Mealie, and the per-item work is only comparisons.
 *
 * Semantics, chosen to match SQL as Mealie runs it where that is well defined:
 * - Every operator on a string column is case-insensitive, as Mealie lowercases both the column and
 *   the value (since its "Case Insensitive Query Filters" change): `name = "my recipe"` finds "My
 *   Recipe"; `<` and `>` compare the lowercased code points. Lowercasing is Unicode's, as Postgres
 *   does it, not SQLite's ASCII-only lower() (decision 0266).
 * - `LIKE` / `NOT LIKE`: `%` is any run, `_` one character; only string columns accept them.
 * - A null scalar satisfies only `IS NULL`: every comparison with null is false, negations included
 *   (SQL three-valued logic).
 * - To-many paths (`tags.name`): a positive operator holds when any related value satisfies it;
 *   `<>`, `NOT IN` and `NOT LIKE` hold when none does (so a recipe without tags passes
 *   `tags.name NOT IN [x]`); `CONTAINS ALL` holds when every listed value is matched by some related
 *   value; `IS NULL` holds when there is no related value.
 * - A date column compares on the date part of the value; a datetime column at microsecond precision.
 */
import type { AttributeTable, ResolvedAttribute } from "./attribute-table.js";
import { invalidQuery, parseQueryFilter, type Comparison, type FilterNode } from "./query-filter.js";
import { coerceFilterValue, itemCoercer, type AttrScalar, type AttrType, type Comparable } from "./values.js";

export type Predicate<T> = (item: T) => boolean;
type ValueTest = (v: Comparable) => boolean;

function typed(type: AttrType, raw: string): Comparable {
  if (type === "string") return raw.toLowerCase();
  const v = coerceFilterValue(type, raw);
  if (typeof v === "object") throw invalidQuery(v.error);
  return v;
}

/** SQL LIKE pattern → anchored, case-insensitive regular expression. */
/**
 * SQL LIKE (case-insensitive; `%` any run, `_` one character). Matched by walking both strings with
 * one resume point for the last `%`, not by a regular expression: `.*` per `%` backtracks
 * exponentially on a pattern of many `%` that fails, and one such filter froze the server.
 * Time is at most pattern × text.
 */
export function likePattern(pattern: string): { test(text: string): boolean } {
  const pat = Array.from(pattern.toLowerCase());
  return {
    test(text: string): boolean {
      const s = Array.from(text.toLowerCase());
      let p = 0;
      let i = 0;
      let star = -1;
      let resume = 0;
      while (i < s.length) {
        if (p < pat.length && pat[p] !== "%" && (pat[p] === "_" || pat[p] === s[i])) {
          p++;
          i++;
        } else if (p < pat.length && pat[p] === "%") {
          star = p++;
          resume = i;
        } else if (star >= 0) {
          p = star + 1;
          i = ++resume;
        } else return false;
      }
      while (p < pat.length && pat[p] === "%") p++;
      return p === pat.length;
    },
  };
}

function positiveTest(cmp: Comparison, type: AttrType): { test: ValueTest; negate: boolean } {
  const { op, value } = cmp;
  switch (op) {
    case "=":
    case "<>": {
      const x = typed(type, value as string);
      return { test: (v) => v === x, negate: op === "<>" };
    }
    case ">": {
      const x = typed(type, value as string);
      return { test: (v) => v > x, negate: false };
    }
    case "<": {
      const x = typed(type, value as string);
      return { test: (v) => v < x, negate: false };
    }
    case ">=": {
      const x = typed(type, value as string);
      return { test: (v) => v >= x, negate: false };
    }
    case "<=": {
      const x = typed(type, value as string);
      return { test: (v) => v <= x, negate: false };
    }
    case "LIKE":
    case "NOT LIKE": {
      if (type !== "string")
        throw invalidQuery(`'${op}' can only be used with string columns, not '${cmp.attribute}'`);
      const like = likePattern(value as string);
      return { test: (v) => like.test(v as string), negate: op === "NOT LIKE" };
    }
    case "IN":
    case "NOT IN": {
      const set = new Set((value as string[]).map((raw) => typed(type, raw)));
      return { test: (v) => set.has(v), negate: op === "NOT IN" };
    }
    default:
      throw new Error(`unreachable operator ${op}`);
  }
}

function compileComparison<T>(cmp: Comparison, table: AttributeTable<T>): Predicate<T> {
  const a: ResolvedAttribute<T> = table.resolve(cmp.attribute);
  const { type } = a;

  if (cmp.op === "IS" || cmp.op === "IS NOT") {
    const wantNull = cmp.op === "IS";
    if (a.many) {
      const get = a.get;
      return (item) => get(item).some((v) => v != null) !== wantNull;
    }
    const get = a.get;
    return (item) => (get(item) == null) === wantNull;
  }

  if (cmp.op === "CONTAINS ALL") {
    const wanted = [...new Set((cmp.value as string[]).map((raw) => typed(type, raw)))];
    const values = valuesOf(a);
    return (item) => {
      const have = new Set<Comparable>();
      for (const v of values(item)) if (v !== null) have.add(v);
      return wanted.every((w) => have.has(w));
    };
  }

  const { test, negate } = positiveTest(cmp, type);
  // LIKE folds case itself.
  const coerce = cmp.op.endsWith("LIKE") ? coercerOf(a) : foldedCoercerOf(a);
  if (a.many) {
    const get = a.get;
    const any = (item: T): boolean => {
      const values = get(item);
      for (let i = 0; i < values.length; i++) {
        const v = coerce(values[i]);
        if (v !== null && test(v)) return true;
      }
      return false;
    };
    return negate ? (item) => !any(item) : any;
  }
  const get = a.get;
  return (item) => {
    const v = coerce(get(item));
    if (v === null) return false;
    return test(v) !== negate;
  };
}

const alreadyCoerced = (v: AttrScalar): Comparable | null =>
  v === undefined ? null : (v as Comparable | null);

function coercerOf<T>(a: ResolvedAttribute<T>): (v: AttrScalar) => Comparable | null {
  return a.coerced ? alreadyCoerced : itemCoercer(a.type);
}

/** The item's value as the filter compares it: a string column's lowercased, as the filter's value is. */
function foldedCoercerOf<T>(a: ResolvedAttribute<T>): (v: AttrScalar) => Comparable | null {
  const coerce = coercerOf(a);
  if (a.type !== "string") return coerce;
  return (v) => {
    const c = coerce(v);
    return typeof c === "string" ? c.toLowerCase() : c;
  };
}

function valuesOf<T>(a: ResolvedAttribute<T>): (item: T) => (Comparable | null)[] {
  const coerce = foldedCoercerOf(a);
  if (a.many) {
    const get = a.get;
    return (item) => get(item).map(coerce);
  }
  const get = a.get;
  return (item) => [coerce(get(item))];
}

/** Rough per-item cost of a node, so that AND/OR can try cheap scalar tests before to-many ones. */
function cost<T>(node: FilterNode, table: AttributeTable<T>): number {
  if (node.kind !== "cmp") return node.children.reduce((sum, c) => sum + cost(c, table), 0);
  const many = table.tryResolve(node.attribute)?.many ? 4 : 1;
  return many * (node.op.includes("LIKE") ? 2 : 1);
}

/** Compile a parsed filter into a predicate. Throws BadRequestError (400) for a filter that cannot apply. */
export function compileFilter<T>(node: FilterNode, table: AttributeTable<T>): Predicate<T> {
  if (node.kind === "cmp") return compileComparison(node, table);
  // Predicates are pure, so evaluation order is free: compile in source order (errors name the first
  // bad part), then run the cheapest first to short-circuit sooner.
  const compiled = node.children.map((c) => ({ p: compileFilter(c, table), cost: cost(c, table) }));
  const parts = compiled.sort((a, b) => a.cost - b.cost).map((c) => c.p);
  if (node.kind === "and") {
    return (item) => {
      for (const p of parts) if (!p(item)) return false;
      return true;
    };
  }
  return (item) => {
    for (const p of parts) if (p(item)) return true;
    return false;
  };
}

/** Parse and compile a filter string; null when blank (no filter). */
export function compileQueryFilter<T>(
  src: string | null | undefined,
  table: AttributeTable<T>,
): Predicate<T> | null {
  const node = parseQueryFilter(src);
  return node ? compileFilter(node, table) : null;
}

/** Throws the 400 a filter would produce against `table`; for routes that store filters (cookbooks, rules). */
export function validateQueryFilter<T>(src: string | null | undefined, table: AttributeTable<T>): void {
  compileQueryFilter(src, table);
}
