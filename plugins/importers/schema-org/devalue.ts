/**
 * A reader for devalue's flat format, which Nuxt 3 writes into `<script id="__NUXT_DATA__">`: one JSON
 * array whose item 0 is the root. An object's values and an array's items are indices into that array;
 * an array whose first item is a string is a typed value (`["Date", iso]`, `["Set", …refs]`,
 * `["Reactive", ref]`…); -1 to -6 stand for undefined, a hole, NaN, Infinity, -Infinity and -0.
 *
 * The result is the JSON the state would have been, for the page-state walk and the importer after it,
 * which take JSON: wrappers (Vue refs and reactives, and any other `[name, ref]` a site's own reviver
 * would undo) give what they wrap; a Date its ISO text; a Set an array; a Map an array of `[key, value]`
 * pairs; and the specials what JSON.stringify writes for them (undefined drops a key, and NaN, the
 * infinities, undefined and holes in a list are null). The page is untrusted, so nothing here throws: a
 * reference that points nowhere reads as undefined, and input that is not such an array reads as
 * undefined altogether.
 */

export interface DevalueLimits {
  /** Levels of nesting read, wrappers included; what lies deeper reads as undefined. */
  maxDepth: number;
  /** Values in the result counted as a tree (a value met twice counts twice); past this, undefined. */
  maxNodes: number;
  /** Characters of text in the result, counted the same way; past this, text reads as undefined. */
  maxChars: number;
}

const DEFAULT_LIMITS: DevalueLimits = { maxDepth: 40, maxNodes: 200_000, maxChars: 10_000_000 };

/** The specials as JSON writes them; undefined (-1) stays undefined, for the container to drop. */
const SPECIALS = new Map<number, unknown>([
  [-1, undefined],
  [-2, null],
  [-3, null],
  [-4, null],
  [-5, null],
  [-6, 0],
]);

type Obj = Record<string, unknown>;

/** The JSON a devalue array (already parsed from JSON) stands for; undefined when it is not one. */
export function unflatten(payload: unknown, limits: DevalueLimits = DEFAULT_LIMITS): unknown {
  // A lone number is how devalue writes undefined, NaN and the like at the top level.
  if (typeof payload === "number") return SPECIALS.get(payload);
  if (!Array.isArray(payload) || payload.length === 0) return undefined;
  const table: unknown[] = payload;
  // Each index is built once and shared wherever it is referred to, so work stays linear in the input.
  const built = new Map<number, { value: unknown; nodes: number; chars: number }>();
  // Indices being built: a reference back to one is a cycle, and reads as undefined so that the result
  // has no cycle, and any later code can recurse through it.
  const open = new Set<number>();
  // A shared value is charged in full each time it is met: a few hundred entries that refer twice to
  // the next would otherwise stand for more values than the importer could ever go through.
  let nodes = 0;
  let chars = 0;
  // Values cut short by depth are not kept: the same index reached nearer the root is read in full.
  let cuts = 0;

  function read(ref: unknown, depth: number): unknown {
    if (nodes >= limits.maxNodes) return undefined;
    nodes++;
    if (typeof ref !== "number" || !Number.isInteger(ref)) return undefined;
    if (ref < 0) return SPECIALS.get(ref);
    if (ref >= table.length) return undefined;
    const entry = table[ref];
    if (typeof entry === "string") return text(entry);
    if (entry === null || typeof entry !== "object") return entry;
    const shared = built.get(ref);
    if (shared) {
      if (nodes + shared.nodes - 1 > limits.maxNodes || chars + shared.chars > limits.maxChars)
        return undefined;
      nodes += shared.nodes - 1;
      chars += shared.chars;
      return shared.value;
    }
    if (open.has(ref)) return undefined;
    if (depth >= limits.maxDepth) {
      cuts++;
      return undefined;
    }
    const [nodesBefore, charsBefore, cutsBefore] = [nodes - 1, chars, cuts];
    open.add(ref);
    const value = Array.isArray(entry) ? readArray(entry, depth + 1) : readObject(entry as Obj, depth + 1);
    open.delete(ref);
    if (cuts === cutsBefore)
      built.set(ref, { value, nodes: nodes - nodesBefore, chars: chars - charsBefore });
    return value;
  }

  /** Text in the result, keys and typed values' text included, counted against the limit. */
  function text(s: string): string | undefined {
    if (chars + s.length > limits.maxChars) return undefined;
    chars += s.length;
    return s;
  }

  /** An item of a list: JSON has no undefined there, and writes null. */
  const item = (ref: unknown, depth: number) => read(ref, depth) ?? null;

  function readObject(entry: Obj, depth: number): Obj {
    const out: Obj = {};
    for (const key of Object.keys(entry))
      if (text(key) !== undefined) setOwn(out, key, read(entry[key], depth));
    return out;
  }

  function readArray(entry: unknown[], depth: number): unknown {
    if (typeof entry[0] !== "string") {
      return entry.map((ref) => item(ref, depth));
    }
    const [type, first, second] = entry;
    switch (type) {
      case "Date":
      case "URL":
      case "URLSearchParams":
        return typeof first === "string" ? text(first) : undefined;
      case "RegExp":
        return typeof first === "string"
          ? text(`/${first}/${typeof second === "string" ? second : ""}`)
          : undefined;
      case "BigInt": {
        const n = bigInt(first);
        return typeof n === "string" ? text(n) : n;
      }
      case "Object":
        // A boxed primitive: the primitive is written in place, not by reference.
        if (typeof first === "string") return text(first);
        return typeof first === "number" || typeof first === "boolean" ? first : undefined;
      case "Set":
        return entry.slice(1).map((ref) => item(ref, depth));
      case "Map": {
        const pairs: unknown[] = [];
        for (let i = 1; i < entry.length; i += 2)
          pairs.push([item(entry[i], depth), item(entry[i + 1], depth)]);
        return pairs;
      }
      case "null": {
        // An object without a prototype: its keys are written in place, its values by reference.
        const out: Obj = {};
        for (let i = 1; i < entry.length; i += 2) {
          const key = entry[i];
          if (typeof key === "string" && text(key) !== undefined) setOwn(out, key, read(entry[i + 1], depth));
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

/**
 * Sets a key as JSON.parse would: undefined leaves it out, and an own `__proto__` key, which assigning
 * would turn into the prototype, stays a key.
 */
function setOwn(out: Obj, key: string, value: unknown): void {
  if (value === undefined) return;
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
