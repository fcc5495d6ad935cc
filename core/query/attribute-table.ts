/**
 * The attribute table of one entity: which paths a `queryFilter` or `orderBy` may name, their column
 * type, and how to read them from an in-memory item. It stands in for Mealie's SQLAlchemy model
 * introspection (mealie-api-notes §3), so an unknown path fails the same way: 400
 * `invalid attribute string: '<x>' does not exist on this schema`.
 */
import { BadRequestError } from "../errors.js";
import type { AttrScalar, AttrType } from "./values.js";

export interface ScalarAttribute<T> {
  type: AttrType;
  many?: false;
  get(item: T): AttrScalar;
  /** `get` returns comparables of `type` already (a column table, core/query/columns.ts). */
  coerced?: boolean;
  /**
   * A number per item that orders as the attribute's sort key does (equal keys equal numbers), null
   * for a null value: `orderBy` then compares numbers (a column table's precomputed rank).
   */
  orderKey?(): (item: T) => number | null;
}
/** A path through a to-many relation (`tags.name`): every related value. */
export interface ManyAttribute<T> {
  type: AttrType;
  many: true;
  get(item: T): readonly AttrScalar[];
  coerced?: boolean;
}
export type AttributeSpec<T> = ScalarAttribute<T> | ManyAttribute<T>;
export type ResolvedAttribute<T> = AttributeSpec<T> & { path: string };

/**
 * One spelling for every way a client may write a path: camelCase and snake_case segments
 * (`recipeCategory.id`, `recipe_category.id`, `lastMade`, `last_made`) meet at the same key.
 * Case is ignored too, which is looser than Mealie but never ambiguous within one schema.
 */
export function normalizeAttributePath(path: string): string {
  return path
    .trim()
    .split(".")
    .map((seg) => seg.replace(/_/g, "").toLowerCase())
    .join(".");
}

/** The 400 for a path the table does not know. */
export function unknownAttribute(path: string): BadRequestError {
  const text = `invalid attribute string: '${path}' does not exist on this schema`;
  return new BadRequestError(text, text);
}

export class AttributeTable<T> {
  private readonly byKey = new Map<string, ResolvedAttribute<T>>();

  /** `specs` is keyed by the canonical camelCase path; every other spelling is derived. */
  constructor(
    readonly entity: string,
    specs: Record<string, AttributeSpec<T>>,
  ) {
    for (const [path, spec] of Object.entries(specs)) {
      const key = normalizeAttributePath(path);
      if (this.byKey.has(key)) throw new Error(`duplicate attribute ${path} on ${entity}`);
      this.byKey.set(key, { ...spec, path });
    }
  }

  /** The attribute at `path`, or a 400 naming the path as the client wrote it. */
  resolve(path: string): ResolvedAttribute<T> {
    const found = this.byKey.get(normalizeAttributePath(path));
    if (!found) throw unknownAttribute(path);
    return found;
  }

  tryResolve(path: string): ResolvedAttribute<T> | undefined {
    return this.byKey.get(normalizeAttributePath(path));
  }

  /** Every attribute once (not once per spelling). */
  attributes(): ResolvedAttribute<T>[] {
    return [...this.byKey.values()];
  }

  /** Canonical paths, for documentation and tests. */
  paths(): string[] {
    return [...this.byKey.values()].map((a) => a.path);
  }
}

type Getter<T, V> = (item: T) => V;

/** Helpers that keep table declarations one line per attribute. */
export const attr = {
  string: <T>(get: Getter<T, AttrScalar>): ScalarAttribute<T> => ({ type: "string", get }),
  uuid: <T>(get: Getter<T, AttrScalar>): ScalarAttribute<T> => ({ type: "uuid", get }),
  date: <T>(get: Getter<T, AttrScalar>): ScalarAttribute<T> => ({ type: "date", get }),
  datetime: <T>(get: Getter<T, AttrScalar>): ScalarAttribute<T> => ({ type: "datetime", get }),
  number: <T>(get: Getter<T, AttrScalar>): ScalarAttribute<T> => ({ type: "number", get }),
  boolean: <T>(get: Getter<T, AttrScalar>): ScalarAttribute<T> => ({ type: "boolean", get }),
  many: <T>(type: AttrType, get: Getter<T, readonly AttrScalar[]>): ManyAttribute<T> => ({
    type,
    many: true,
    get,
  }),
};

/** `prefix.id`, `prefix.name`, `prefix.slug` (and the bare prefix as the id) of a to-many organizer list. */
export function organizerPaths<T>(
  prefixes: readonly string[],
  list: (item: T) => readonly { id: string; name: string; slug: string }[],
): Record<string, AttributeSpec<T>> {
  const out: Record<string, AttributeSpec<T>> = {};
  for (const p of prefixes) {
    out[p] = attr.many("uuid", (i: T) => list(i).map((o) => o.id));
    out[`${p}.id`] = attr.many("uuid", (i: T) => list(i).map((o) => o.id));
    out[`${p}.name`] = attr.many("string", (i: T) => list(i).map((o) => o.name));
    out[`${p}.slug`] = attr.many("string", (i: T) => list(i).map((o) => o.slug));
  }
  return out;
}
