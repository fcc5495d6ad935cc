/**
 * Validating a changed JSON document without copying what did not change (decision 0190).
 *
 * `JsonDoc.update` hands its updater a deep copy of the document. Validating the result with the
 * document's schema would copy it all once more (zod builds new objects), and that copy is what the
 * document then holds: a rating rebuilt every record of its group's ratings, and under load those
 * records lived long enough to be promoted, filling the old space the server's full collections
 * must mark. Here, first every part of the result that equals the previous state is replaced by the
 * previous state's own object (`shareUnchanged`), then the schema runs only where something changed
 * (`validateChanged`): the previous state was validated when it was read or last updated.
 *
 * `validateChanged` walks plain objects (no refinements; unknown keys stripped or kept), arrays (no
 * length checks) and the default, optional and nullable wrappers itself; at any other schema, or a
 * value those do not fit, it hands the part to zod whole. The outcome is the same as zod's on the
 * whole document: the suite checks every update both ways (LARDER_VERIFY_INCREMENTAL).
 */
import type { z } from "zod";

type Obj = Record<string, unknown>;

function isPlainObject(v: unknown): v is Obj {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

function idOf(v: unknown): unknown {
  return isPlainObject(v) ? v.id : undefined;
}

/** Finds an array item's previous self: the item at its position, or else the one with its `id`. */
class PreviousItems {
  #byId: Map<unknown, unknown> | undefined;
  constructor(private readonly prev: readonly unknown[]) {}

  of(item: unknown, index: number): unknown {
    const before = this.prev[index];
    const id = idOf(item);
    if (id === undefined || idOf(before) === id) return before;
    // An item inserted or removed before this one.
    this.#byId ??= new Map(this.prev.map((p) => [idOf(p), p]));
    return this.#byId.get(id);
  }
}

/**
 * Returns `prev` where `next` equals it, otherwise `next` with each of its parts that equals the part
 * of `prev` at the same key (array items: the same position, or the same `id`) replaced by that part.
 * Changes `next` in place (never a frozen object), never `prev`.
 */
export function shareUnchanged(next: unknown, prev: unknown): unknown {
  if (next === prev) return prev;
  if (Array.isArray(next)) {
    if (!Array.isArray(prev) || Object.isFrozen(next)) return next;
    let same = next.length === prev.length;
    const previous = new PreviousItems(prev);
    for (let i = 0; i < next.length; i++) {
      const item: unknown = next[i];
      const shared = shareUnchanged(item, previous.of(item, i));
      if (shared !== item) next[i] = shared;
      if (shared !== prev[i]) same = false;
    }
    return same ? prev : next;
  }
  if (isPlainObject(next)) {
    if (!isPlainObject(prev) || Object.isFrozen(next)) return next;
    let same = true;
    let keys = 0;
    for (const key of Object.keys(next)) {
      keys++;
      const value = next[key];
      const shared = shareUnchanged(value, prev[key]);
      if (shared !== value) next[key] = shared;
      if (shared !== prev[key] || !(key in prev)) same = false;
    }
    return same && keys === Object.keys(prev).length ? prev : next;
  }
  return next;
}

/** What a part of the document failed with, its path from the document's root. */
export type Issue = z.core.$ZodIssue;

interface Walk {
  issues: Issue[];
}

function whole(schema: z.ZodType, value: unknown, path: PropertyKey[], walk: Walk): unknown {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) walk.issues.push({ ...issue, path: [...path, ...issue.path] });
  return value;
}

function hasChecks(def: { checks?: unknown[] }): boolean {
  return (def.checks?.length ?? 0) > 0;
}

/**
 * `value` through `schema`; `prev` is the valid part at the same place in the previous state: the
 * same object is not validated again.
 */
function walkValue(
  schema: z.ZodType,
  value: unknown,
  prev: unknown,
  path: PropertyKey[],
  walk: Walk,
): unknown {
  if (value === prev && typeof value === "object" && value !== null) return value;
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  switch (def.type) {
    case "object":
      if (!hasChecks(def) && isPlainObject(value)) {
        const before = isPlainObject(prev) ? prev : undefined;
        const out = walkObject(def as unknown as z.core.$ZodObjectDef, value, before, path, walk);
        if (out !== undefined) return out;
      }
      break;
    case "array":
      if (!hasChecks(def) && Array.isArray(value)) {
        const element = (def as unknown as z.core.$ZodArrayDef).element as z.ZodType;
        const previous = new PreviousItems(Array.isArray(prev) ? prev : []);
        return value.map((item: unknown, i) => {
          const before = previous.of(item, i);
          // An unchanged record costs nothing, not even its path (a rating walked the group's records).
          if (item === before && typeof item === "object" && item !== null) return item;
          return walkValue(element, item, before, [...path, i], walk);
        });
      }
      break;
    case "default":
      if (value !== undefined) return walkValue(def.innerType as z.ZodType, value, prev, path, walk);
      break;
    case "optional":
      if (value === undefined) return undefined;
      return walkValue(def.innerType as z.ZodType, value, prev, path, walk);
    case "nullable":
      if (value === null) return null;
      return walkValue(def.innerType as z.ZodType, value, prev, path, walk);
  }
  return whole(schema, value, path, walk);
}

/** An object the way zod's object schema makes it; undefined when its unknown keys need zod itself. */
function walkObject(
  def: z.core.$ZodObjectDef,
  value: Obj,
  prev: Obj | undefined,
  path: PropertyKey[],
  walk: Walk,
): Obj | undefined {
  const catchall = def.catchall?._zod.def.type;
  const keepUnknown = catchall === "unknown" || catchall === "any";
  if (catchall !== undefined && !keepUnknown) return undefined;
  const shape = def.shape as Record<string, z.ZodType>;
  const out: Obj = {};
  for (const key of Object.keys(shape)) {
    const schema = shape[key]!;
    const present = key in value;
    const before = walk.issues.length;
    const result = walkValue(schema, value[key], prev?.[key], [...path, key], walk);
    // zod's own rule: an absent optional key's failure is no failure, and it stays absent.
    const optional = schema._zod.optout === "optional";
    if (walk.issues.length > before && optional && !present) walk.issues.length = before;
    if (result !== undefined) out[key] = result;
    else if (present) out[key] = undefined;
  }
  if (keepUnknown) for (const key of Object.keys(value)) if (!(key in shape)) out[key] = value[key];
  return out;
}

/**
 * Validates `next`, a changed copy of the valid state `prev`, running the schema only on the parts
 * that differ from `prev`. Returns the validated state (sharing every unchanged part with `prev`) or
 * the issues, as zod reports them for the whole document.
 */
export function validateChanged<T>(
  schema: z.ZodType<T>,
  prev: T,
  next: T,
): { success: true; data: T } | { success: false; issues: Issue[] } {
  const shared = shareUnchanged(next, prev);
  const walk: Walk = { issues: [] };
  const data = walkValue(schema, shared, prev, [], walk) as T;
  return walk.issues.length ? { success: false, issues: walk.issues } : { success: true, data };
}
