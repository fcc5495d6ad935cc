/**
 * A recipe doc from the warm-start cache whose ingredients, instructions and notes stay as the cache's
 * JSON bytes until something reads them (docs/decisions/0165). A warm start then builds the few
 * objects the index and the first list read (name, dates, organizers, the foods' names) rather than
 * ~30 objects per recipe, most of which the garbage collector copied twice before anyone asked for them.
 *
 * The three keys are own, enumerable accessor properties sharing one getter and setter each, so a lazy
 * doc reads, spreads, clones (`structuredClone`) and stringifies exactly like a plain one, and all lazy
 * docs share one hidden class. Reading a key parses its part; the parse is kept while it is among the
 * recently read (a budget of parsed bytes, below) and read again from the bytes after that. Setting a
 * key replaces the accessor with a plain value on that doc alone. A doc with the identity filled in
 * (`withIdentity`) shares the parts of the doc it was made from, so the two share one parse.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { crc32 } from "node:zlib";
import type { DocIngredient, DocStep, RecipeDoc } from "../doc.js";
import type { RecipeNote } from "../../schemas/recipe.js";
import { RECIPE_FIELD_KEYS, RECIPE_FIELDS } from "../fields.js";
import { EMPTY_LIST, EMPTY_RECORD } from "../../util/shared-empties.js";
import { shareEach, shared } from "../../util/shared-strings.js";
import { packIngredients, packSteps, unpackIngredients, unpackSteps } from "./packed-parts.js";

/** The keys kept as bytes: a suffix of a doc's keys as the reader builds it (order is kept). */
export const LAZY_KEYS = ["ingredients", "instructions", "notes"] as const;
type LazyKey = (typeof LAZY_KEYS)[number];

const PARTS = Symbol("larder.lazyDocParts");

/**
 * The cache file a load read, kept open: the parts are read from it again when asked for, so a warm
 * start holds neither their objects nor their bytes. The cache is only ever replaced (a new file
 * renamed over it), so this descriptor keeps reading the file that was loaded; it is closed once no
 * doc refers to it.
 */
export class LazySource {
  readonly fd: number;

  constructor(path: string) {
    this.fd = openSync(path, "r");
    closeWhenUnused.register(this, this.fd);
  }

  /** Whether `fd` and this source are the same file (the cache was not replaced between the opens). */
  sameFileAs(fd: number): boolean {
    const a = fstatSync(this.fd);
    const b = fstatSync(fd);
    return a.ino === b.ino && a.dev === b.dev;
  }

  /** The bytes at `offset`, checked against the checksum taken when they were loaded. */
  read(offset: number, length: number, crc: number): Buffer {
    const buf = Buffer.allocUnsafe(length);
    let got = 0;
    while (got < length) {
      const n = readSync(this.fd, buf, got, length - got, offset + got);
      if (n === 0) break;
      got += n;
    }
    if (got !== length || partsCrc(buf) !== crc)
      throw new Error("recipe index cache: the file changed while in use; restart the server");
    return buf;
  }
}

/**
 * The CRC-32 of a doc's parts as a signed 32-bit integer: V8 keeps that in the place itself, where a
 * value of 2^31 or more would be a number object of its own, two per recipe (decision 0207).
 */
export function partsCrc(bytes: Uint8Array): number {
  return crc32(bytes) | 0;
}

const closeWhenUnused = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
});

/**
 * Bytes in memory read as the cache file is: a cold scan's docs, packed as a warm start's are, whatever
 * the cache file does meanwhile (decision 0177).
 */
export class MemorySource {
  /** `text`: the parts' ASCII JSON, a one-byte string on the heap (a Buffer each cost more in malloc). */
  constructor(private readonly text: string) {}

  read(offset: number, length: number): Buffer {
    return Buffer.from(this.text.slice(offset, offset + length), "latin1");
  }
}

/** Where a doc's lazy parts are (cache file or memory): ingredients, then `[instructions, notes]`. */
export interface LazyPlace {
  source: LazySource | MemorySource;
  offset: number;
  /** Bytes of the ingredients' JSON; the steps' JSON follows. */
  split: number;
  /** Bytes of both. */
  length: number;
  /** partsCrc of the ingredients' bytes, and of the steps'. */
  crcIngredients: number;
  crcSteps: number;
}

interface Parts {
  /** Kept when the parts are parsed too: a parse may be let go of and made again (keepParsed). */
  place: LazyPlace;
  /** Names of the ingredients' foods (each ingredient with one, in order): what the list reads. */
  foods: readonly string[];
  ingredients: DocIngredient[] | null;
  steps: [DocStep[], RecipeNote[]] | null;
}

function ingredientBytes(pl: LazyPlace): Buffer {
  return pl.source.read(pl.offset, pl.split, pl.crcIngredients);
}

function stepBytes(pl: LazyPlace): Buffer {
  return pl.source.read(pl.offset + pl.split, pl.length - pl.split, pl.crcSteps);
}

type Lazy = RecipeDoc & { [PARTS]: Parts };

function partsOf(doc: RecipeDoc): Parts | undefined {
  return (doc as Partial<Lazy>)[PARTS];
}

function parseList<T>(text: string): T {
  const v: unknown = JSON.parse(text);
  // The bytes passed the cache's checksum and were written by JSON.stringify: anything else is a bug,
  // and a wrong answer (an empty list a save would then write) is worse than an error.
  if (!Array.isArray(v)) throw new Error("recipe index cache: a lazy part is not a list");
  return v as T;
}

/**
 * Parts whose parse is kept, least recently read first, with the bytes each parse came from. Every
 * parse kept for good let a long-running server grow by each recipe opened (decision 0185: 60 MB in
 * 90 s of the mixed load at 50,000 recipes); beyond the budget the oldest parse goes and its doc reads
 * its bytes again when asked. Docs are never changed in place (a new version is a new doc), so a parse
 * made again is the same value.
 */
const kept = new Map<Parts, number>();
let keptBytes = 0;
let keptBudget = 4 * 1024 * 1024;
let lastRead: Parts | null = null;

function keepParsed(p: Parts, bytes: number): void {
  const had = kept.get(p) ?? 0;
  kept.delete(p);
  kept.set(p, had + bytes);
  keptBytes += bytes;
  lastRead = p;
  for (const [old, n] of kept) {
    if (keptBytes <= keptBudget || old === p) break;
    kept.delete(old);
    keptBytes -= n;
    old.ingredients = null;
    old.steps = null;
  }
}

/** A parse read again moves to the recent end (a Map keeps insertion order). */
function touch(p: Parts): void {
  if (p === lastRead) return;
  const n = kept.get(p);
  if (n === undefined) return;
  kept.delete(p);
  kept.set(p, n);
  lastRead = p;
}

/** How many docs' parts are parsed and how many bytes they were parsed from. */
export function keptParses(): { parts: number; bytes: number } {
  return { parts: kept.size, bytes: keptBytes };
}

/** Sets how many bytes of parts may stay parsed (tests); returns the previous budget. */
export function setParsedBudget(bytes: number): number {
  const was = keptBudget;
  keptBudget = bytes;
  return was;
}

function ingredientsOf(p: Parts): DocIngredient[] {
  if (p.ingredients === null) {
    p.ingredients = unpackIngredients(parseList<unknown[]>(ingredientBytes(p.place).toString("latin1")));
    keepParsed(p, p.place.split);
  } else touch(p);
  return p.ingredients;
}

function stepsOf(p: Parts): [DocStep[], RecipeNote[]] {
  if (p.steps === null) {
    const steps = parseList<unknown[]>(stepBytes(p.place).toString("latin1"));
    if (steps.length !== 2 || !Array.isArray(steps[0]) || !Array.isArray(steps[1]))
      throw new Error("recipe index cache: malformed instructions");
    p.steps = unpackSteps(steps[0] as unknown[], steps[1] as unknown[]);
    keepParsed(p, p.place.length - p.place.split);
  } else touch(p);
  return p.steps;
}

function descriptor(key: LazyKey, get: (p: Parts) => unknown): PropertyDescriptor {
  return {
    get(this: Lazy) {
      return get(this[PARTS]);
    },
    set(this: Lazy, value: unknown) {
      Object.defineProperty(this, key, { value, writable: true, enumerable: true, configurable: true });
    },
    enumerable: true,
    configurable: true,
  };
}

const DESCRIPTORS: Record<LazyKey, PropertyDescriptor> = {
  ingredients: descriptor("ingredients", ingredientsOf),
  instructions: descriptor("instructions", (p) => stepsOf(p)[0]),
  notes: descriptor("notes", (p) => stepsOf(p)[1]),
};

function attach(doc: Record<string, unknown>, parts: Parts): RecipeDoc {
  for (const k of LAZY_KEYS) Object.defineProperty(doc, k, DESCRIPTORS[k]);
  Object.defineProperty(doc, PARTS, { value: parts, writable: false, enumerable: false });
  return doc as unknown as RecipeDoc;
}

/**
 * A doc from its head (every key but the lazy ones, in order; used as the doc itself), its foods'
 * names and where its ingredients and `[instructions, notes]` are in the cache file.
 */
export function lazyDoc(
  head: Record<string, unknown>,
  foods: readonly string[],
  place: LazyPlace,
): RecipeDoc {
  shareEmpties(head);
  shareRepeated(head);
  if (foods.length > 0) shareEach(foods as string[]);
  return attach(head, {
    place,
    foods: foods.length === 0 ? EMPTY_LIST : foods,
    ingredients: null,
    steps: null,
  });
}

const LIST_KEYS = RECIPE_FIELD_KEYS.filter((k) => ["names", "assets"].includes(RECIPE_FIELDS[k].kind));
const RECORD_KEYS = RECIPE_FIELD_KEYS.filter((k) =>
  ["nutrition", "settings", "extras"].includes(RECIPE_FIELDS[k].kind),
);

/**
 * A head's empty lists (tags, tools, assets…) and records (extras, nutrition…) replaced with the shared,
 * frozen ones (docs are never changed in place): at 50,000 recipes about 190,000 objects fewer.
 */
function shareEmpties(head: Record<string, unknown>): void {
  for (const k of LIST_KEYS) {
    const v = head[k];
    if (Array.isArray(v) && v.length === 0) head[k] = EMPTY_LIST;
  }
  for (const k of RECORD_KEYS) {
    const v = head[k];
    if (v !== null && typeof v === "object" && !Array.isArray(v) && emptyRecord(v)) head[k] = EMPTY_RECORD;
  }
}

const REPEATED_TEXT = RECIPE_FIELD_KEYS.filter(
  (k) =>
    RECIPE_FIELDS[k].kind === "text" && !["id", "orgURL", "dateAdded", "dateUpdated", "lastMade"].includes(k),
);
const NAME_LISTS = RECIPE_FIELD_KEYS.filter((k) => RECIPE_FIELDS[k].kind === "names");

/**
 * A head's values that many recipes repeat (owner, yield, times, image, organizer names, nutrition
 * figures) replaced with one shared string each (util/shared-strings.ts, decision 0297). The head is
 * the reader's fresh parse, held by no one else yet.
 */
function shareRepeated(head: Record<string, unknown>): void {
  for (const k of REPEATED_TEXT) {
    const v = head[k];
    if (typeof v === "string") head[k] = shared(v);
  }
  for (const k of NAME_LISTS) {
    const v = head[k];
    if (Array.isArray(v) && v.length > 0) shareEach(v);
  }
  const n = head.nutrition;
  if (n !== null && typeof n === "object" && n !== EMPTY_RECORD && !Array.isArray(n)) {
    const r = n as Record<string, unknown>;
    for (const k in r) if (typeof r[k] === "string") r[k] = shared(r[k]);
  }
}

function emptyRecord(v: object): boolean {
  for (const _ in v) return false;
  return true;
}

/** Whether the doc's lazy keys are still the cache's (not replaced on this doc). */
function stillLazy(doc: RecipeDoc): Parts | undefined {
  const p = partsOf(doc);
  if (!p) return undefined;
  for (const k of LAZY_KEYS) if (Object.getOwnPropertyDescriptor(doc, k)?.get === undefined) return undefined;
  return p;
}

/** `{ ...doc, id, owner }`, keeping a lazy doc's parts unparsed (and shared with `doc`). */
export function withIdentity(doc: RecipeDoc, id: string, owner: string | null): RecipeDoc {
  const p = stillLazy(doc);
  if (!p) return { ...doc, id, owner };
  const src = doc as unknown as Record<string, unknown>;
  // Docs are never changed in place (a new version is a new doc), so one that already says this is
  // shared: a warm start no longer copies every recipe's head.
  if (src.id === id && src.owner === owner) return doc;
  const pairs: [string, unknown][] = [];
  let hasId = false;
  let hasOwner = false;
  for (const k of Object.keys(src)) {
    if (k === "ingredients" || k === "instructions" || k === "notes") continue;
    hasId ||= k === "id";
    hasOwner ||= k === "owner";
    pairs.push([k, k === "id" ? id : k === "owner" ? owner : src[k]]);
  }
  if (!hasId) pairs.push(["id", id]);
  if (!hasOwner) pairs.push(["owner", owner]);
  // Built in one call, not key by key: an object given twenty keys one store at a time becomes a
  // dictionary-mode object in V8 — slower to read everywhere and larger (decision 0176).
  return attach(Object.fromEntries(pairs), p);
}

/**
 * The doc's ingredients without keeping a lazy doc's parse: the search index reads every recipe's
 * lines once, and keeping what it parsed held about 20 MB at 10,000 recipes that only an opened
 * recipe needs (decision 0177). A doc whose ingredients are parsed or replaced gives its own.
 */
export function ingredientsOnce(doc: RecipeDoc): readonly DocIngredient[] {
  const p = partsOf(doc);
  if (p && p.ingredients === null && Object.getOwnPropertyDescriptor(doc, "ingredients")?.get)
    return unpackIngredients(parseList<unknown[]>(ingredientBytes(p.place).toString("latin1")));
  return doc.ingredients;
}

/**
 * The names of the doc's ingredients' foods (those with one, in order), without parsing a lazy doc's
 * ingredients.
 */
export function foodNamesOf(doc: RecipeDoc): readonly string[] {
  const p = partsOf(doc);
  if (p && p.ingredients === null && Object.getOwnPropertyDescriptor(doc, "ingredients")?.get) return p.foods;
  const out: string[] = [];
  for (const i of doc.ingredients) if (i.food) out.push(i.food);
  return out;
}

/** The doc's head: every key but the lazy ones, in order, without parsing anything. */
export function headOf(doc: RecipeDoc): Record<string, unknown> {
  const src = doc as unknown as Record<string, unknown>;
  const pairs: [string, unknown][] = [];
  for (const k of Object.keys(src))
    if (k !== "ingredients" && k !== "instructions" && k !== "notes") pairs.push([k, src[k]]);
  // In one call, so the head is a fast-property object (decision 0176).
  return Object.fromEntries(pairs);
}

/** True when the doc's keys end with the lazy keys, in order (the shape the reader gives). */
export function splittable(doc: RecipeDoc): boolean {
  const keys = Object.keys(doc);
  const n = keys.length;
  if (n < 3 || keys[n - 3] !== "ingredients" || keys[n - 2] !== "instructions" || keys[n - 1] !== "notes")
    return false;
  return stillLazy(doc) !== undefined || (Array.isArray(doc.instructions) && Array.isArray(doc.notes));
}

/**
 * The JSON of the lazy parts as they will be written (packed, packed-parts.ts): a still-lazy doc's own
 * bytes (parsed or not), else `encode` of each part. Returns [ingredients, steps].
 */
export function lazyPartsJson(doc: RecipeDoc, encode: (v: unknown) => string): [Buffer, Buffer] {
  const p = stillLazy(doc);
  // A parse is its bytes' value (never changed in place), so the bytes serve even when parsed.
  if (p) return [ingredientBytes(p.place), stepBytes(p.place)];
  return [
    Buffer.from(encode(packIngredients(doc.ingredients)), "latin1"),
    Buffer.from(encode(packSteps(doc.instructions, doc.notes)), "latin1"),
  ];
}

/** Where the doc's parts are read from, when the doc is lazy as a whole (no key replaced on it). */
export function lazyPlaceOf(doc: RecipeDoc): LazyPlace | null {
  return stillLazy(doc)?.place ?? null;
}

/**
 * Read the doc's parts from now on at `place`, which holds the same parts (a cache file just written
 * from them, index-cache.ts): a cold scan's docs then stop holding their parts' text, as a warm
 * start's never did, and a warm start's stop keeping an older cache file alive. Only for a doc that
 * `lazyPlaceOf` gave the place the bytes were written from; one whose parts moved meanwhile is left.
 */
export function moveParts(doc: RecipeDoc, from: LazyPlace, place: LazyPlace): void {
  const p = partsOf(doc);
  if (p && p.place === from) p.place = place;
}

/** Whether the doc's parts are held as text in memory (a cold scan's, until a cache write). */
export function partsInMemory(doc: RecipeDoc): boolean {
  return partsOf(doc)?.place.source instanceof MemorySource;
}

/** Whether a part is still bytes (for tests and the start's figures). */
export function parsedParts(doc: RecipeDoc): { ingredients: boolean; steps: boolean } | null {
  const p = partsOf(doc);
  return p ? { ingredients: p.ingredients !== null, steps: p.steps !== null } : null;
}
