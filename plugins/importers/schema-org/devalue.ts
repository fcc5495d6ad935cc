/**
 * A reader for devalue's flat format, which Nuxt 3 writes into `<script id="__NUXT_DATA__">`: one JSON
 * array whose item 0 is the root. An object's values and an array's items are indices into that array;
 * an array whose first item is a string is a typed value (`["Date", iso]`, `["Set", …refs]`,
 * `["Reactive", ref]`…); -1 to -6 stand for undefined, a hole, NaN, Infinity, -Infinity and -0.
 *
 * The result is plain data for the page-state walk: wrappers (Vue refs and reactives, and any other
 * `[name, ref]` a site's own reviver would undo) give what they wrap, a Date its ISO text, a Set an
 * array, a Map an array of `[key, value]` pairs. The page is untrusted, so nothing here throws: a
 * reference that points nowhere reads as undefined, and input that is not such an array reads as
 * undefined altogether.
 */

export interface DevalueLimits {
  /** Levels of nesting read, wrappers included; what lies deeper reads as undefined. */
  maxDepth: number;
  /** References followed in all; past this, every further one reads as undefined. */
  maxNodes: number;
}

const DEFAULT_LIMITS: DevalueLimits = { maxDepth: 40, maxNodes: 200_000 };

const HOLE = -2;
const SPECIALS = new Map<number, unknown>([
  [-1, undefined],
  [HOLE, undefined],
  [-3, NaN],
  [-4, Infinity],
  [-5, -Infinity],
  [-6, -0],
]);

type Obj = Record<string, unknown>;

/** The value a devalue array (already parsed from JSON) stands for; undefined when it is not one. */
export function unflatten(payload: unknown, limits: DevalueLimits = DEFAULT_LIMITS): unknown {
  // A lone number is how devalue writes undefined, NaN and the like at the top level.
  if (typeof payload === "number") return SPECIALS.get(payload);
  if (!Array.isArray(payload) || payload.length === 0) return undefined;
  const table: unknown[] = payload;
  // Each index is built once and shared wherever it is referred to, so work stays linear in the input.
  const built = new Map<number, unknown>();
  // Indices being built: a reference back to one is a cycle, and reads as undefined so that the result
  // is a tree-like value any later code can recurse through safely.
  const open = new Set<number>();
  let followed = 0;
  // Values cut short by depth are not kept: the same index reached nearer the root is read in full.
  let cuts = 0;

  function read(ref: unknown, depth: number): unknown {
    if (typeof ref !== "number" || !Number.isInteger(ref)) return undefined;
    if (++followed > limits.maxNodes) return undefined;
    if (ref < 0) return SPECIALS.get(ref);
    if (ref >= table.length) return undefined;
    const entry = table[ref];
    if (entry === null || typeof entry !== "object") return entry;
    if (built.has(ref)) return built.get(ref);
    if (open.has(ref)) return undefined;
    if (depth >= limits.maxDepth) {
      cuts++;
      return undefined;
    }
    const cutsBefore = cuts;
    open.add(ref);
    const value = Array.isArray(entry) ? readArray(entry, depth + 1) : readObject(entry as Obj, depth + 1);
    open.delete(ref);
    if (cuts === cutsBefore) built.set(ref, value);
    return value;
  }

  function readObject(entry: Obj, depth: number): Obj {
    const out: Obj = {};
    for (const key of Object.keys(entry)) setOwn(out, key, read(entry[key], depth));
    return out;
  }

  function readArray(entry: unknown[], depth: number): unknown {
    if (typeof entry[0] !== "string") {
      const out = new Array<unknown>(entry.length);
      for (let i = 0; i < entry.length; i++) if (entry[i] !== HOLE) out[i] = read(entry[i], depth);
      return out;
    }
    const [type, first, second] = entry;
    switch (type) {
      case "Date":
      case "URL":
      case "URLSearchParams":
        return typeof first === "string" ? first : undefined;
      case "RegExp":
        return typeof first === "string"
          ? `/${first}/${typeof second === "string" ? second : ""}`
          : undefined;
      case "BigInt":
        return bigInt(first);
      case "Object":
        // A boxed primitive: the primitive is written in place, not by reference.
        return ["string", "number", "boolean"].includes(typeof first) ? first : undefined;
      case "Set":
        return entry.slice(1).map((r) => read(r, depth));
      case "Map": {
        const pairs: unknown[] = [];
        for (let i = 1; i < entry.length; i += 2)
          pairs.push([read(entry[i], depth), read(entry[i + 1], depth)]);
        return pairs;
      }
      case "null": {
        // An object without a prototype: its keys are written in place, its values by reference.
        const out: Obj = {};
        for (let i = 1; i < entry.length; i += 2) {
          const key = entry[i];
          if (typeof key === "string") setOwn(out, key, read(entry[i + 1], depth));
        }
        return out;
      }
      case "EmptyRef":
      case "EmptyShallowRef":
        return emptyRef(read(first, depth));
      default:
        // Vue's Reactive, ShallowReactive, Ref and ShallowRef, Nuxt's NuxtError and Island, and a site's
        // own revivers all wrap one value by reference. A typed value this reader does not know (binary
        // data, for one) has no reference there and reads as undefined.
        return read(first, depth);
    }
  }

  return read(0, 0);
}

/** Sets a key as JSON.parse would: an own `__proto__` key, if assigned, would set the prototype instead. */
function setOwn(out: Obj, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

/** Nuxt writes a ref holding a falsy value as text: "_" for undefined, "0n" for 0n, else its JSON. */
function emptyRef(text: unknown): unknown {
  if (typeof text !== "string") return text;
  if (text === "_") return undefined;
  if (text === "0n") return 0;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function bigInt(digits: unknown): number | string | undefined {
  if (typeof digits !== "string" || !/^-?\d+$/.test(digits)) return undefined;
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : digits;
}
