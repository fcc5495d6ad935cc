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

/**
 * A relation of Mealie's model (`household` on a user, `recipe` on a meal plan): the related entity's
 * table, and the related item (or items, for a to-many relation) of an item. A path through it
 * (`household.slug`, `recipe.tags.name`) is the related table's path read off the related item, as
 * Mealie's filter follows a relationship with a join.
 */
export interface Relation<T> {
  /** A thunk, so that tables may relate to each other (a user's household, a household's users). */
  table: () => AttributeTable<unknown>;
  many: boolean;
  get: (item: T) => unknown;
}

export const relation = {
  one: <T, U>(table: () => AttributeTable<U>, get: (item: T) => U | null | undefined): Relation<T> => ({
    table: table as () => AttributeTable<unknown>,
    many: false,
    get,
  }),
  many: <T, U>(table: () => AttributeTable<U>, get: (item: T) => readonly U[]): Relation<T> => ({
    table: table as () => AttributeTable<unknown>,
    many: true,
    get,
  }),
};

export class AttributeTable<T> {
  private readonly byKey = new Map<string, ResolvedAttribute<T>>();
  private readonly relations = new Map<string, { name: string; relation: Relation<T> }>();
  /** Paths through relations, composed on first use (there are endlessly many: user.household.users…). */
  private readonly related = new Map<string, ResolvedAttribute<T> | null>();

  /**
   * `specs` is keyed by the canonical camelCase path; every other spelling is derived. A path of
   * `specs` wins over the same path through `relations` (a flat `user.username` read off the item).
   */
  constructor(
    readonly entity: string,
    specs: Record<string, AttributeSpec<T>>,
    relations: Record<string, Relation<T>> = {},
  ) {
    for (const [path, spec] of Object.entries(specs)) {
      const key = normalizeAttributePath(path);
      if (this.byKey.has(key)) throw new Error(`duplicate attribute ${path} on ${entity}`);
      this.byKey.set(key, { ...spec, path });
    }
    for (const [name, r] of Object.entries(relations))
      this.relations.set(normalizeAttributePath(name), { name, relation: r });
  }

  /**
   * This table's attributes with `relations` added: a list whose service can find an item's related
   * items (by id, in its registries) declares them once, where it builds its table.
   */
  withRelations(relations: Record<string, Relation<T>>): AttributeTable<T> {
    const out = new AttributeTable<T>(this.entity, {});
    for (const [k, v] of this.byKey) out.byKey.set(k, v);
    for (const [k, v] of this.relations) out.relations.set(k, v);
    for (const [name, r] of Object.entries(relations))
      out.relations.set(normalizeAttributePath(name), { name, relation: r });
    return out;
  }

  /** The attribute at `path`, or a 400 naming the path as the client wrote it. */
  resolve(path: string): ResolvedAttribute<T> {
    const found = this.tryResolve(path);
    if (!found) throw unknownAttribute(path);
    return found;
  }

  tryResolve(path: string): ResolvedAttribute<T> | undefined {
    const key = normalizeAttributePath(path);
    return this.byKey.get(key) ?? this.throughRelation(key);
  }

  private throughRelation(key: string): ResolvedAttribute<T> | undefined {
    if (this.related.has(key)) return this.related.get(key) ?? undefined;
    let found: ResolvedAttribute<T> | null = null;
    // A relation's name may itself be dotted (`recipe.user` on an item that holds its recipe flat).
    for (let dot = key.indexOf("."); dot > 0 && !found; dot = key.indexOf(".", dot + 1)) {
      const via = this.relations.get(key.slice(0, dot));
      const inner = via?.relation.table().tryResolve(key.slice(dot + 1));
      if (via && inner) found = composed(via.name, via.relation, inner);
    }
    this.related.set(key, found);
    return found ?? undefined;
  }

  /** Every attribute once (not once per spelling); paths through relations are not listed. */
  attributes(): ResolvedAttribute<T>[] {
    return [...this.byKey.values()];
  }

  /** The relations' names as declared. */
  relationNames(): string[] {
    return [...this.relations.values()].map((r) => r.name);
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

/** `inner` of the related table read through `r`: to-many if either step is (an item's related values, flattened). */
function composed<T>(name: string, r: Relation<T>, inner: ResolvedAttribute<unknown>): ResolvedAttribute<T> {
  const path = `${name}.${inner.path}`;
  const { type, coerced } = inner;
  if (!r.many && !inner.many) {
    const get = inner.get as (u: unknown) => AttrScalar;
    return {
      type,
      coerced,
      path,
      get: (item) => {
        const u = r.get(item);
        return u == null ? null : get(u);
      },
    };
  }
  const values = (u: unknown): readonly AttrScalar[] => {
    if (inner.many) return (inner.get as (u: unknown) => readonly AttrScalar[])(u);
    const v = (inner.get as (u: unknown) => AttrScalar)(u);
    return v == null ? [] : [v];
  };
  const get = r.many
    ? (item: T) => (r.get(item) as readonly unknown[]).flatMap((u) => values(u))
    : (item: T) => {
        const u = r.get(item);
        return u == null ? [] : values(u);
      };
  return { type, coerced, path, many: true, get };
}
