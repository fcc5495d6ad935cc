/**
 * Keys a person added to a JSON document by hand that its schema does not know (decision 0230).
 * The schema strips them from what the services see, so no API answer carries them; they are kept
 * here, by where they were, and written back beside the document's own keys, so the next write
 * through the API does not drop them.
 *
 * "Where" is the path of keys from the document's root, an array element named by its `id` (string
 * or number): a record keeps its keys when others are added, removed or reordered, and a record
 * without an id (an alias, a position in a list of names) keeps none. A key that differs from one the
 * schema output has only by case, `_` or `-` is a spelling the schema read (snake_case input) and is
 * not kept, or the next read would see two values.
 */

/** Extra keys and their values, by the JSON text of their object's path. */
export type ExtraKeys = Map<string, Record<string, unknown>>;

type Step = string | ["id", string | number];

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function idOf(v: unknown): string | number | null {
  if (!isPlainObject(v)) return null;
  const id = v.id;
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
}

const spelling = (k: string) => k.toLowerCase().replace(/[_-]/g, "");

function spellings(o: Record<string, unknown>): Set<string> {
  return new Set(Object.keys(o).map(spelling));
}

/** The keys of `raw` (the file's JSON) that `parsed` (the schema's output) left out; null when none. */
export function collectExtraKeys(raw: unknown, parsed: unknown): ExtraKeys | null {
  const out: ExtraKeys = new Map();
  walk(raw, parsed, [], out);
  return out.size > 0 ? out : null;
}

/** Read at every start and hand edit, over documents of thousands of records: one path, pushed and popped. */
function walk(raw: unknown, parsed: unknown, path: Step[], out: ExtraKeys): void {
  if (Array.isArray(raw)) {
    if (!Array.isArray(parsed) || parsed.length === 0) return;
    let byId: Map<string | number, unknown> | null = null;
    for (let i = 0; i < parsed.length; i++) {
      const p: unknown = parsed[i];
      if (!isPlainObject(p)) continue;
      const id = idOf(p);
      if (id === null) continue;
      // The same record at the same place, the common case, without a map.
      let r: unknown = raw[i];
      if (idOf(r) !== id) {
        if (!byId) {
          byId = new Map();
          for (const x of raw) {
            const xid = idOf(x);
            if (xid !== null && !byId.has(xid)) byId.set(xid, x);
          }
        }
        r = byId.get(id);
      }
      if (r === undefined) continue;
      path.push(["id", id]);
      walk(r, p, path, out);
      path.pop();
    }
    return;
  }
  if (!isPlainObject(raw) || !isPlainObject(parsed)) return;
  let known: Set<string> | null = null;
  let extra: Record<string, unknown> | null = null;
  const keys = Object.keys(raw);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const v = raw[k];
    if (Object.hasOwn(parsed, k)) {
      if (v !== null && typeof v === "object") {
        path.push(k);
        walk(v, parsed[k], path, out);
        path.pop();
      }
      continue;
    }
    known ??= spellings(parsed);
    if (known.has(spelling(k))) continue;
    (extra ??= {})[k] = v;
  }
  if (extra) out.set(JSON.stringify(path), extra);
}

/**
 * `data` with the extra keys put back where they were. Objects with nothing kept below them are
 * `data`'s own (a writer reusing the texts of unchanged records still can); `kept` gets the paths
 * that still exist, so the extras of a record deleted since are dropped.
 */
export function withExtraKeys(data: unknown, extras: ExtraKeys, kept: ExtraKeys): unknown {
  const below = new Set<string>();
  for (const key of extras.keys()) {
    const path = JSON.parse(key) as Step[];
    for (let i = 0; i <= path.length; i++) below.add(JSON.stringify(path.slice(0, i)));
  }
  return merge(data, [], extras, below, kept);
}

function merge(
  value: unknown,
  path: Step[],
  extras: ExtraKeys,
  below: Set<string>,
  kept: ExtraKeys,
): unknown {
  const key = JSON.stringify(path);
  if (!below.has(key)) return value;
  if (Array.isArray(value))
    return value.map((el) => {
      const id = idOf(el);
      return id === null ? el : merge(el, [...path, ["id", id]], extras, below, kept);
    });
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = merge(v, [...path, k], extras, below, kept);
  const extra = extras.get(key);
  if (extra) {
    // A key the document has gained since (a field of a newer schema) wins over the hand-added one.
    const known = spellings(value);
    const still: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(extra)) if (!known.has(spelling(k))) out[k] = still[k] = v;
    if (Object.keys(still).length > 0) kept.set(key, still);
  }
  return out;
}
