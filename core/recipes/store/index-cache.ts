/**
 * The warm-start cache of the recipe index (ARCHITECTURE §4): `.larder/cache/recipe-index.bin` holds,
 * per recipe file, what reading it gave — keyed by the file's path, size and mtime, the cache format
 * (a version number plus a fingerprint of the file reader's code) and the version of the group's foods
 * and units that ingredient lines were read with. A start reads only the files whose key changed.
 *
 * What is cached is the parse of the file, before the identity rules: those run on every start, so a
 * cached recipe goes through exactly the same steps as a freshly read one.
 *
 * A cache entry is trusted only if the file cannot have changed without changing its size or mtime:
 * a file rewritten within the file system's timestamp granularity of the version we read keeps its
 * mtime ("racily clean", as git calls it). So an entry is only written when the bytes were read at
 * least RACY_MS after the file's mtime; younger entries are re-checked against the disk when saving.
 * The cache is private to the machine and disposable: any doubt about it (unreadable, other format,
 * checksum, malformed entry) means reading the files instead.
 *
 * The file is binary (docs/decisions/0133): a JSON header, then one row per recipe — its key and
 * fingerprint as fixed fields and the doc as JSON with everything outside ASCII escaped — then a
 * trailer with the count and a CRC-32 of everything before it. Rows are framed by length, so reading
 * splits no lines; the doc stays JSON because V8's JSON parser shares short repeated strings (units,
 * foods) where `v8.deserialize` made a copy of each, and decoded no faster.
 *
 * A row's doc is split (decision 0165): its head and its foods' names are parsed at load, its
 * ingredients, instructions and notes are left in the file and read when asked for (lazy-doc.ts).
 */
import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { crc32 } from "node:zlib";
import type { RecipeDoc } from "../doc.js";
import type { Location } from "./identity.js";
import { LocationMap } from "./location-map.js";
import {
  foodNamesOf,
  headOf,
  LazySource,
  lazyDoc,
  lazyPartsJson,
  lazyPlaceOf,
  MemorySource,
  moveParts,
  parsedParts,
  partsCrc,
  splittable,
  type LazyPlace,
} from "./lazy-doc.js";
import type { FileFingerprint } from "./file-state.js";
import { packIngredients, packSteps } from "./packed-parts.js";

/** Bump when the cache's layout or RecipeDoc's meaning changes in a way the reader fingerprint misses. */
export const INDEX_CACHE_VERSION = 6;
export const INDEX_CACHE_FILE = "recipe-index.bin";
/** The JSON-lines cache of version 1: removed when the binary one is written. */
const LEGACY_CACHE_FILE = "recipe-index.json";

const MAGIC = Buffer.from("LARDERIX", "latin1");
/** In place of a row's length: the trailer follows. */
const TRAILER_MARK = 0xffffffff;
/** Rows are read and written through a buffer this large, so the whole file is never in memory. */
const IO_CHUNK = 1 << 20;

/** Coarsest mtime granularity we allow for (FAT: 2 s); finer file systems only make entries safe sooner. */
export const RACY_MS = 2000;

export interface CachedParse {
  file: FileFingerprint;
  /** Clock time (ms) taken before the bytes were read: a lower bound of when they were seen. */
  readAt: number;
  vocabularyVersion: string;
  /** What the reader made of the file (identity not yet applied). */
  doc: RecipeDoc;
}

/**
 * One cached file: where it is and what reading it gave, in one object (a location, a parse and a
 * wrapper per recipe were 150,000 objects at 50,000 recipes for every full collection to mark,
 * decision 0186).
 */
interface CacheRow extends Location, CachedParse {}

function rowOf(loc: Location, parse: CachedParse): CacheRow {
  return {
    groupSlug: loc.groupSlug,
    slug: loc.slug,
    file: parse.file,
    readAt: parse.readAt,
    vocabularyVersion: parse.vocabularyVersion,
    doc: parse.doc,
  };
}

export type CacheState = "none" | "loaded" | "unreadable" | "other-format";

export interface IndexCacheInfo {
  path: string;
  state: CacheState;
  format: string;
  /** Entries in the file when it was loaded. */
  loadedEntries: number;
  /** Files taken from the cache / read from disk at open. */
  hits: number;
  misses: number;
  /**
   * Of the files read at open, those whose bytes were the ones the cache had parsed (a new mtime, same
   * content: a restore, a checkout, a copy): their parse was taken from the cache, not made again.
   */
  sameBytes: number;
  /** Entries held now (saved at the next write). */
  entries: number;
  bytes: number;
  savedAt: string | null;
  loadMs: number;
}

let readerFingerprint: string | null = null;
declare const __LARDER_READER_FINGERPRINT__: string | undefined;

/**
 * A hash of the recipe reader's code (core/recipes/file/ and doc), so that a Larder upgrade that reads
 * files differently never serves a recipe as an older reader saw it, even if nobody bumped the version.
 */
export function cacheFormat(): string {
  // The bundle (scripts/bundle.mjs) has no reader files beside it: it carries their hash, built in.
  if (readerFingerprint === null && typeof __LARDER_READER_FINGERPRINT__ === "string")
    readerFingerprint = __LARDER_READER_FINGERPRINT__;
  if (readerFingerprint === null) {
    const h = createHash("sha256");
    const here = dirname(fileURLToPath(import.meta.url));
    for (const dir of [join(here, "..", "file"), join(here, "..")]) {
      try {
        for (const name of readdirSync(dir).sort()) {
          if (!/\.(js|ts)$/.test(name) || /\.test\.|\.d\.ts$/.test(name)) continue;
          if (dir !== join(here, "..", "file") && !/^doc\.(js|ts)$/.test(name)) continue;
          h.update(name).update(readFileSync(join(dir, name)));
        }
      } catch {
        // Bundled or unusual layout: the version number alone keys the cache.
      }
    }
    readerFingerprint = h.digest("hex").slice(0, 16);
  }
  return `larder-recipe-index/${INDEX_CACHE_VERSION}/${readerFingerprint}`;
}

/** True when JSON keeps this value as it is (no NaN or infinities, no undefined in lists, no functions). */
export function jsonSafe(v: unknown): boolean {
  if (typeof v === "string" || typeof v === "boolean" || v === null) return true;
  if (typeof v === "number") return Number.isFinite(v);
  if (typeof v !== "object") return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (v[i] === undefined || !jsonSafe(v[i])) return false;
    return true;
  }
  if (Object.getPrototypeOf(v) !== Object.prototype) return false;
  const o = v as Record<string, unknown>;
  for (const k in o) if (o[k] !== undefined && !jsonSafe(o[k])) return false;
  return true;
}

/**
 * The doc as the cache gives it back: rebuilt from JSON. Read from a file, a doc holds slices of the
 * file's text (keeping all of it alive, as UTF-16 when the file has one non-ASCII character), arrays
 * with room to grow and objects shaped one key at a time: 11 KB a recipe where the same doc rebuilt
 * from JSON takes 6 KB, which was half the index's memory after a cold start of 10,000 recipes.
 * Copying only the strings saved a tenth of that; the round trip costs about a quarter of reading
 * the file (docs/decisions/0007). A cold start then holds exactly what a warm one does.
 */
export function compactDoc(doc: RecipeDoc): RecipeDoc {
  return jsonSafe(doc) ? (JSON.parse(JSON.stringify(doc)) as RecipeDoc) : doc;
}

/**
 * A cheap shape check: a hand-edited or half-written cache must not put malformed recipes in the index.
 * `lazy`: the head of a split row, whose ingredients, instructions and notes are checked apart.
 */
function looksLikeDoc(d: unknown, lazy = false): d is RecipeDoc {
  if (typeof d !== "object" || d === null || Array.isArray(d)) return false;
  const doc = d as Record<string, unknown>;
  return (
    typeof doc.name === "string" &&
    typeof doc.description === "string" &&
    typeof doc.recipeServings === "number" &&
    (doc.id === null || typeof doc.id === "string") &&
    (doc.owner === null || typeof doc.owner === "string") &&
    (lazy
      ? !("ingredients" in doc || "instructions" in doc || "notes" in doc)
      : ["ingredients", "instructions", "notes"].every((k) => Array.isArray(doc[k]))) &&
    ["categories", "tags", "tools", "assets"].every((k) => Array.isArray(doc[k])) &&
    ["nutrition", "settings", "extras"].every((k) => typeof doc[k] === "object" && doc[k] !== null)
  );
}

/** A row's doc written whole (a doc of another shape) or split (decision 0165). */
const WHOLE = 0;
const SPLIT = 1;
/** The two parts' checksums after a split row's kind. */
const CRCS_BYTES = 8;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * A doc as a row holds it: `WHOLE` and the doc's JSON, or `SPLIT`, the partsCrc of the ingredients and
 * of `[instructions, notes]` (two i32: a warm start takes them as they are rather than checksum every
 * recipe's parts, decision 0303), and four parts — the head (every key but ingredients, instructions
 * and notes), the foods' names, the ingredients and `[instructions, notes]` — each but the last after
 * its u32 length. Null when JSON would not keep the doc as it is.
 */
export function docBlob(doc: RecipeDoc): Buffer | null {
  if (!splittable(doc)) {
    if (!jsonSafe(doc)) return null;
    return Buffer.concat([Buffer.of(WHOLE), Buffer.from(asciiJson(doc), "latin1")]);
  }
  const head = headOf(doc);
  if (!jsonSafe(head)) return null;
  let unsafe = false;
  const [ingredients, steps] = lazyPartsJson(doc, (v) => {
    if (!jsonSafe(v)) unsafe = true;
    return asciiJson(v);
  });
  if (unsafe) return null;
  const parts = [
    Buffer.from(asciiJson(head), "latin1"),
    Buffer.from(asciiJson(foodNamesOf(doc)), "latin1"),
    ingredients,
  ];
  const crcs = Buffer.allocUnsafe(CRCS_BYTES);
  crcs.writeInt32LE(partsCrc(ingredients), 0);
  crcs.writeInt32LE(partsCrc(steps), 4);
  const out: Buffer[] = [Buffer.of(SPLIT), crcs];
  for (const part of parts) {
    const n = Buffer.allocUnsafe(4);
    n.writeUInt32LE(part.length);
    out.push(n, part);
  }
  out.push(steps);
  return Buffer.concat(out);
}

/**
 * A parsed doc packed as text (see packedDoc): its head and foods' names as JSON, its ingredients and
 * `[instructions, notes]` as one ASCII JSON text split after the ingredients. Strings only, so a worker
 * thread's answer crosses to the main thread as a few flat strings per recipe.
 */
export interface PackedDocText {
  head: string;
  foods: string;
  parts: string;
  split: number;
}

/** The doc packed as text, or null when rows would not split it or JSON would not keep it. */
export function packDocText(doc: RecipeDoc): PackedDocText | null {
  if (parsedParts(doc) !== null || !splittable(doc)) return null;
  const head = headOf(doc);
  if (!jsonSafe(head)) return null;
  const packed = [packIngredients(doc.ingredients), packSteps(doc.instructions, doc.notes)];
  if (!packed.every(jsonSafe)) return null;
  const ingredients = asciiJson(packed[0]);
  return {
    head: JSON.stringify(head),
    foods: JSON.stringify(foodNamesOf(doc)),
    parts: ingredients + asciiJson(packed[1]),
    split: ingredients.length,
  };
}

/**
 * The doc of a packed text: the head and foods parsed (compact strings, as compactDoc gives), the
 * parts kept as their text until read (lazy-doc.ts `MemorySource`).
 */
export function docFromPackedText(t: PackedDocText): RecipeDoc {
  return lazyDoc(JSON.parse(t.head) as Record<string, unknown>, JSON.parse(t.foods) as string[], {
    source: new MemorySource(t.parts),
    offset: 0,
    split: t.split,
    length: t.parts.length,
    crcIngredients: 0,
    crcSteps: 0,
  });
}

/**
 * A parsed doc as a warm start's doc is: its head as it is, its ingredients and `[instructions, notes]`
 * as the bytes a cache row holds, parsed again when read. A cold scan's docs kept whole held tens of
 * megabytes more than a warm start's at 10,000 recipes, and the cache write packs them anyway
 * (decision 0177). The doc itself when rows would not split it or JSON would not keep it.
 */
export function packedDoc(doc: RecipeDoc): RecipeDoc {
  const t = packDocText(doc);
  return t ? docFromPackedText(t) : doc;
}

/** A list's JSON bytes, as far as can be told without parsing them. */
function bracketed(b: Buffer, from: number, to: number): boolean {
  return to - from >= 2 && b[from] === OPEN_BRACKET && b[to - 1] === CLOSE_BRACKET;
}

/**
 * The start and end of a split doc's head, foods' names and ingredients, each after its u32 length,
 * after the checksums at `at` (see docBlob); `[instructions, notes]` runs from the last end to the end
 * of `b`.
 */
function splitBounds(b: Buffer, at: number): [number, number, number, number, number, number] {
  at += CRCS_BYTES;
  const out: number[] = [];
  for (let i = 0; i < 3; i++) {
    const from = at + 4;
    at = from + b.readUInt32LE(at);
    if (at > b.length) throw new RangeError("index cache: row cut short");
    out.push(from, at);
  }
  return out as [number, number, number, number, number, number];
}

/** The doc of a row from `at` on (see docBlob); null when it is not a recipe. */
function decodeDoc(row: Buffer, at: number, source: LazySource, rowOffset: number): RecipeDoc | null {
  const kind = row[at++];
  if (kind === WHOLE) {
    const doc: unknown = JSON.parse(row.toString("latin1", at));
    return looksLikeDoc(doc) ? doc : null;
  }
  if (kind !== SPLIT) throw new RangeError("index cache: unknown row kind");
  const [h0, h1, f0, f1, i0, i1] = splitBounds(row, at);
  const head: unknown = JSON.parse(row.toString("latin1", h0, h1));
  const foods: unknown = JSON.parse(row.toString("latin1", f0, f1));
  if (!looksLikeDoc(head, true) || !Array.isArray(foods) || !foods.every((f) => typeof f === "string"))
    return null;
  if (!bracketed(row, i0, i1) || !bracketed(row, i1, row.length)) return null;
  // The parts stay in the file, read again when asked for (lazy-doc.ts); their checksums say whether
  // what is read then is what was here.
  return lazyDoc(head as unknown as Record<string, unknown>, foods as string[], {
    source,
    offset: rowOffset + i0,
    split: i1 - i0,
    length: row.length - i0,
    crcIngredients: row.readInt32LE(at),
    crcSteps: row.readInt32LE(at + 4),
  });
}

/**
 * JSON with every character outside ASCII escaped: the row is then pure ASCII, so latin1 decoding is
 * exact and gives compact one-byte strings.
 */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

type Handle = Awaited<ReturnType<typeof open>>;

/**
 * Reads the cache front to back through one reusable buffer, keeping the CRC-32 of every byte before
 * the trailer's checksum.
 */
class Reader {
  private buf = Buffer.allocUnsafe(IO_CHUNK);
  private at = 0;
  private end = 0;
  private filePos = 0;
  crc = 0;

  constructor(
    private readonly fh: Handle,
    private readonly size: number,
  ) {}

  get done(): boolean {
    return this.at === this.end && this.filePos >= this.size;
  }

  /** Make the next `n` bytes available; false at the end of the file. */
  async need(n: number): Promise<boolean> {
    if (this.end - this.at >= n) return true;
    const kept = this.end - this.at;
    // A row larger than the buffer (a recipe with a huge text) gets a buffer of its own size.
    const next = n > this.buf.length ? Buffer.allocUnsafe(n + IO_CHUNK) : this.buf;
    this.buf.copy(next, 0, this.at, this.end);
    this.buf = next;
    this.at = 0;
    this.end = kept;
    while (this.end < n) {
      const { bytesRead } = await this.fh.read(this.buf, this.end, this.buf.length - this.end, this.filePos);
      if (bytesRead === 0) return false;
      const summed = Math.min(bytesRead, this.size - 4 - this.filePos);
      if (summed > 0) this.crc = crc32(this.buf.subarray(this.end, this.end + summed), this.crc);
      this.filePos += bytesRead;
      this.end += bytesRead;
    }
    return true;
  }

  /** Where in the file the next byte taken is. */
  get offset(): number {
    return this.filePos - this.end + this.at;
  }

  /** The next `n` bytes (after need(n)), valid until the next need(). */
  take(n: number): Buffer {
    const b = this.buf.subarray(this.at, this.at + n);
    this.at += n;
    return b;
  }

  u32(): number {
    const v = this.buf.readUInt32LE(this.at);
    this.at += 4;
    return v;
  }
}

/** Where a split blob's ingredients start and end, and their checksums (see docBlob); null for a whole doc. */
function partsSpan(
  blob: Buffer,
): { i0: number; i1: number; crcIngredients: number; crcSteps: number } | null {
  if (blob[0] !== SPLIT) return null;
  const [, , , , i0, i1] = splitBounds(blob, 1);
  return { i0, i1, crcIngredients: blob.readInt32LE(1), crcSteps: blob.readInt32LE(5) };
}

/** A lazy doc whose parts a save wrote at `offset` in the new file: moved there once it is in place. */
interface PartsMove {
  doc: RecipeDoc;
  from: LazyPlace;
  to: Omit<LazyPlace, "source">;
}

/** A row: u32 length of the rest; f64 size, mtimeMs, readAt; four u16-length UTF-8 strings; the doc (docBlob). */
function encodeRow(loc: Location, parse: CachedParse, blob: Buffer): Buffer {
  const strings = [loc.groupSlug, loc.slug, parse.file.hash, parse.vocabularyVersion].map((x) =>
    Buffer.from(x, "utf8"),
  );
  if (strings.some((x) => x.length > 0xffff)) throw new RangeError("index cache: key too long");
  const length = 24 + strings.reduce((n, x) => n + 2 + x.length, 0) + blob.length;
  const row = Buffer.allocUnsafe(4 + length);
  let at = row.writeUInt32LE(length, 0);
  at = row.writeDoubleLE(parse.file.size, at);
  at = row.writeDoubleLE(parse.file.mtimeMs, at);
  at = row.writeDoubleLE(parse.readAt, at);
  for (const x of strings) {
    at = row.writeUInt16LE(x.length, at);
    at += x.copy(row, at);
  }
  blob.copy(row, at);
  return row;
}

function decodeRow(
  row: Buffer,
  source: LazySource,
  rowOffset: number,
  shared: Map<string, string>,
): CacheRow | null {
  // A size read as a double is a number object of its own; as a small integer V8 keeps it in the
  // fingerprint (a recipe file is at most a few megabytes; anything else is kept as it is).
  const read = row.readDoubleLE(0);
  const size = read === (read | 0) ? read | 0 : read;
  const mtimeMs = row.readDoubleLE(8);
  const readAt = row.readDoubleLE(16);
  let at = 24;
  const str = (): string => {
    const n = row.readUInt16LE(at);
    const s = row.toString("utf8", at + 2, at + 2 + n);
    at += 2 + n;
    return s;
  };
  // A group's slug and vocabulary version are the same text on every row of the group: one string each.
  const once = (v: string): string => {
    const known = shared.get(v);
    if (known !== undefined) return known;
    shared.set(v, v);
    return v;
  };
  const groupSlug = once(str());
  const slug = str();
  const hash = str();
  const vocabularyVersion = once(str());
  if (at >= row.length) throw new RangeError("index cache: row cut short");
  const doc = decodeDoc(row, at, source, rowOffset);
  // A row that decodes to something other than a recipe is skipped: its file is read instead.
  if (!doc) return null;
  return { groupSlug, slug, file: { size, mtimeMs, hash }, readAt, vocabularyVersion, doc };
}

export class IndexCache {
  private readonly entries = new LocationMap<CacheRow>();
  private info: IndexCacheInfo;
  private changed = false;

  constructor(readonly path: string) {
    this.info = {
      path,
      state: "none",
      format: cacheFormat(),
      loadedEntries: 0,
      hits: 0,
      misses: 0,
      sameBytes: 0,
      entries: 0,
      bytes: 0,
      savedAt: null,
      loadMs: 0,
    };
  }

  static pathIn(cacheDir: string): string {
    return join(cacheDir, INDEX_CACHE_FILE);
  }

  /**
   * Read the cache file. Never throws: a missing, corrupt or foreign cache is an empty one. Read in
   * chunks, so a start never holds the whole file next to the recipes decoded from it; nothing is
   * used unless the trailer's count and checksum match.
   */
  async load(): Promise<void> {
    const t0 = performance.now();
    let fh: Handle;
    try {
      fh = await open(this.path, "r");
    } catch {
      return;
    }
    const loaded = new LocationMap<CacheRow>();
    let state: CacheState = "unreadable";
    let savedAt: string | null = null;
    try {
      const size = (await fh.stat()).size;
      this.info.bytes = size;
      const r = new Reader(fh, size);
      if (!(await r.need(MAGIC.length + 4)) || !r.take(MAGIC.length).equals(MAGIC)) throw new Error("magic");
      const headerBytes = r.u32();
      if (!(await r.need(headerBytes))) throw new Error("header");
      const header = JSON.parse(r.take(headerBytes).toString("utf8")) as {
        format?: unknown;
        savedAt?: unknown;
      };
      if (header.format !== this.info.format) {
        state = "other-format";
        throw new Error("format");
      }
      let rows = 0;
      // Opened beside the reader and checked to be the same file: a cache replaced in between fails.
      const source = new LazySource(this.path);
      if (!source.sameFileAs(fh.fd)) throw new Error("replaced");
      const shared = new Map<string, string>();
      for (;;) {
        if (!(await r.need(4))) throw new Error("no trailer");
        const length = r.u32();
        if (length === TRAILER_MARK) break;
        if (length < 24 || !(await r.need(length))) throw new Error("row");
        rows++;
        const rowOffset = r.offset;
        const row = decodeRow(r.take(length), source, rowOffset, shared);
        if (row) loaded.set(row);
      }
      if (!(await r.need(8))) throw new Error("trailer");
      const count = r.u32();
      const sum = r.u32();
      if (count !== rows || sum !== r.crc || !r.done) throw new Error("checksum");
      state = "loaded";
      savedAt = typeof header.savedAt === "string" ? header.savedAt : null;
    } catch {
      // Any doubt: the files are read instead.
    } finally {
      await fh.close().catch(() => undefined);
    }
    this.info.state = state;
    if (state === "loaded") {
      for (const row of loaded.values()) this.entries.set(row);
      this.info.loadedEntries = loaded.size;
      this.info.savedAt = savedAt;
    }
    this.info.loadMs = performance.now() - t0;
  }

  /**
   * The cached parse of a file whose lstat gave this size and mtime, read with this vocabulary; null
   * when the file may differ from what was cached.
   */
  lookup(
    loc: Location,
    stat: { size: number; mtimeMs: number },
    vocabularyVersion: string,
  ): CachedParse | null {
    const hit = this.entries.get(loc.groupSlug, loc.slug);
    const ok =
      hit !== undefined &&
      hit.file.size === stat.size &&
      hit.file.mtimeMs === stat.mtimeMs &&
      hit.vocabularyVersion === vocabularyVersion &&
      hit.readAt - hit.file.mtimeMs >= RACY_MS;
    if (ok) this.info.hits++;
    else this.info.misses++;
    return ok ? hit : null;
  }

  /**
   * The cached parse of a file read again because its size or mtime changed, when its bytes are still
   * the ones parsed (the same sha256) with the same vocabulary: the parse holds, and the entry now
   * carries the new fingerprint (as touch). Null otherwise.
   */
  lookupSameBytes(
    loc: Location,
    file: FileFingerprint,
    readAt: number,
    vocabularyVersion: string,
  ): CachedParse | null {
    const hit = this.entries.get(loc.groupSlug, loc.slug);
    if (hit === undefined || hit.file.hash !== file.hash || hit.vocabularyVersion !== vocabularyVersion)
      return null;
    this.touch(loc, file, readAt);
    this.info.sameBytes++;
    return hit;
  }

  /** What reading (or writing) this file version gave. */
  remember(loc: Location, parse: CachedParse): void {
    this.entries.set(rowOf(loc, parse));
    this.changed = true;
  }

  /** The same bytes seen again with a new mtime (a touch, a checkout): the cached parse still holds. */
  touch(loc: Location, file: FileFingerprint, readAt: number): void {
    const hit = this.entries.get(loc.groupSlug, loc.slug);
    if (!hit || hit.file.hash !== file.hash || (hit.file.mtimeMs === file.mtimeMs && hit.readAt >= readAt))
      return;
    hit.file = file;
    hit.readAt = readAt;
    this.changed = true;
  }

  forget(loc: Location): void {
    if (this.entries.delete(loc.groupSlug, loc.slug)) this.changed = true;
  }

  get dirty(): boolean {
    return this.changed;
  }

  stats(): IndexCacheInfo {
    return { ...this.info, entries: this.entries.size };
  }

  /**
   * Write the entries that still describe the index (`current` gives the fingerprint the index holds,
   * null for files it no longer has). Entries read too soon after their mtime are re-checked against
   * the disk first (`verify` re-reads the file); those still too young are left out and reported, so
   * the caller can save again later. Written `chunkSize` entries at a time (each write yields to the
   * event loop).
   */
  async save(opts: {
    current: (loc: Location) => FileFingerprint | null;
    verify: (loc: Location) => Promise<FileFingerprint | null>;
    now?: () => number;
    chunkSize?: number;
  }): Promise<{ written: number; tooYoung: number }> {
    const now = opts.now ?? Date.now;
    const chunkSize = opts.chunkSize ?? 500;
    this.changed = false;
    const savedAt = new Date(now()).toISOString();
    await mkdir(dirname(this.path), { recursive: true });
    // Temp file and rename: a reader sees the old cache or the new one. No fsync: a cache torn by a
    // crash fails its checksum and is simply not used. Written in chunks as it is serialised, so the
    // whole cache is never in memory at once.
    // Named as atomic-write names its temp files (writer pid, random part), so the start-up sweep
    // removes one a kill -9 left behind: at 50,000 recipes it is a few hundred MB.
    const tmp = `${this.path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    let bytes = 0;
    let written = 0;
    let tooYoung = 0;
    const moves: PartsMove[] = [];
    try {
      const fh = await open(tmp, "w", 0o600);
      try {
        let crc = 0;
        let pending: Buffer[] = [];
        let pendingBytes = 0;
        let pendingRows = 0;
        const put = (b: Buffer): void => {
          pending.push(b);
          pendingBytes += b.length;
        };
        const flush = async (): Promise<void> => {
          const buf = Buffer.concat(pending, pendingBytes);
          pending = [];
          pendingBytes = pendingRows = 0;
          crc = crc32(buf, crc);
          bytes += buf.length;
          await fh.write(buf);
        };
        const header = Buffer.from(JSON.stringify({ format: this.info.format, savedAt }), "utf8");
        const length = Buffer.allocUnsafe(4);
        length.writeUInt32LE(header.length);
        put(Buffer.concat([MAGIC, length, header]));
        for (const cached of [...this.entries.values()]) {
          const cur = opts.current(cached);
          if (
            !cur ||
            cur.hash !== cached.file.hash ||
            cur.size !== cached.file.size ||
            cur.mtimeMs !== cached.file.mtimeMs
          ) {
            // The index moved on (deleted, broken, changed): this parse is of no use to the next start.
            this.entries.delete(cached.groupSlug, cached.slug);
            continue;
          }
          // The same values: one object for the index and the cache rather than two per recipe.
          cached.file = cur;
          if (cached.readAt - cached.file.mtimeMs < RACY_MS) {
            const checkAt = now();
            if (checkAt - cached.file.mtimeMs < RACY_MS) {
              tooYoung++;
              continue;
            }
            const disk = await opts.verify(cached).catch(() => null);
            if (
              !disk ||
              disk.hash !== cached.file.hash ||
              disk.size !== cached.file.size ||
              disk.mtimeMs !== cached.file.mtimeMs
            )
              continue;
            cached.readAt = checkAt;
          }
          let row: Buffer;
          let blob: Buffer | null;
          try {
            // A doc JSON cannot carry as it is (an infinite quantity in a hand-edited file) is read again.
            blob = docBlob(cached.doc);
            if (!blob) continue;
            row = encodeRow(cached, cached, blob);
          } catch {
            continue;
          }
          const from = lazyPlaceOf(cached.doc);
          const span = from ? partsSpan(blob) : null;
          if (from && span) {
            const { i0, i1, crcIngredients, crcSteps } = span;
            const blobAt = bytes + pendingBytes + row.length - blob.length;
            moves.push({
              doc: cached.doc,
              from,
              to: { offset: blobAt + i0, split: i1 - i0, length: blob.length - i0, crcIngredients, crcSteps },
            });
          }
          put(row);
          written++;
          if (++pendingRows >= chunkSize || pendingBytes >= IO_CHUNK) await flush();
        }
        const trailer = Buffer.allocUnsafe(8);
        trailer.writeUInt32LE(TRAILER_MARK, 0);
        trailer.writeUInt32LE(written, 4);
        put(trailer);
        await flush();
        const sum = Buffer.allocUnsafe(4);
        sum.writeUInt32LE(crc);
        await fh.write(sum);
        bytes += 4;
      } finally {
        await fh.close();
      }
      // Opened before the rename, so it is the file written here whatever replaces it later.
      const source = moves.length > 0 ? new LazySource(tmp) : null;
      await rename(tmp, this.path);
      // The docs' parts are read from the new file from now on (lazy-doc.ts moveParts): a cold scan's
      // docs let go of their text, a warm start's of the file it loaded.
      if (source) for (const m of moves) moveParts(m.doc, m.from, { ...m.to, source });
    } catch (e) {
      await rm(tmp, { force: true });
      this.changed = true;
      throw e;
    }
    // The JSON-lines cache an older Larder wrote is of no use any more.
    await rm(join(dirname(this.path), LEGACY_CACHE_FILE), { force: true }).catch(() => undefined);
    if (tooYoung > 0) this.changed = true;
    this.info.savedAt = savedAt;
    this.info.bytes = bytes;
    return { written, tooYoung };
  }
}
