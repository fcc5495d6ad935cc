/**
 * The warm-start cache of the recipe index (ARCHITECTURE §4): `.larder/cache/recipe-index.json` holds,
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
 * malformed entry) means reading the files instead.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { RecipeDoc } from "../doc.js";
import { keyOf, type Location } from "./identity.js";
import type { FileFingerprint } from "./file-state.js";

/** Bump when the cache's layout or RecipeDoc's meaning changes in a way the reader fingerprint misses. */
export const INDEX_CACHE_VERSION = 1;
export const INDEX_CACHE_FILE = "recipe-index.json";

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
  /** Entries held now (saved at the next write). */
  entries: number;
  bytes: number;
  savedAt: string | null;
  loadMs: number;
}

type Row = [
  groupSlug: string,
  slug: string,
  size: number,
  mtimeMs: number,
  hash: string,
  readAt: number,
  vocabularyVersion: string,
  doc: RecipeDoc,
];

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

/**
 * JSON with every character outside ASCII escaped: the file is then pure ASCII, its lines decode as
 * compact one-byte strings, and a line break inside a value can never split a line.
 */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
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

function isFingerprint(r: unknown[]): boolean {
  return (
    typeof r[2] === "number" &&
    typeof r[3] === "number" &&
    typeof r[4] === "string" &&
    typeof r[5] === "number" &&
    typeof r[6] === "string"
  );
}

/** A cheap shape check: a hand-edited or half-written cache must not put malformed recipes in the index. */
function looksLikeDoc(d: unknown): d is RecipeDoc {
  if (typeof d !== "object" || d === null) return false;
  const doc = d as Record<string, unknown>;
  return (
    typeof doc.name === "string" &&
    typeof doc.description === "string" &&
    typeof doc.recipeServings === "number" &&
    (doc.id === null || typeof doc.id === "string") &&
    (doc.owner === null || typeof doc.owner === "string") &&
    ["categories", "tags", "tools", "assets", "ingredients", "instructions", "notes"].every((k) =>
      Array.isArray(doc[k]),
    ) &&
    ["nutrition", "settings", "extras"].every((k) => typeof doc[k] === "object" && doc[k] !== null)
  );
}

export class IndexCache {
  private readonly entries = new Map<string, { loc: Location; parse: CachedParse }>();
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
   * Read the cache file. Never throws: a missing, corrupt or foreign cache is an empty one. The file is
   * JSON lines (a header, one line per recipe, a trailer with the count) read in chunks, so a start
   * never holds the whole file as one string next to the recipes parsed from it.
   */
  async load(): Promise<void> {
    const t0 = performance.now();
    let fh;
    try {
      fh = await open(this.path, "r");
    } catch {
      return;
    }
    const loaded = new Map<string, { loc: Location; parse: CachedParse }>();
    let header: { format?: unknown; savedAt?: unknown } | null = null;
    let trailer: { entries?: unknown } | null = null;
    let bad = false;
    const onLine = (line: string): void => {
      if (bad || line === "") return;
      if (trailer) return void (bad = true);
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        return void (bad = true);
      }
      if (header === null) {
        header = typeof value === "object" && value !== null ? value : {};
        if ((header as { format?: unknown }).format !== this.info.format) bad = true;
        return;
      }
      if (!Array.isArray(value)) {
        trailer = typeof value === "object" && value !== null ? value : {};
        return;
      }
      const row = value as unknown[];
      if (
        row.length !== 8 ||
        typeof row[0] !== "string" ||
        typeof row[1] !== "string" ||
        !isFingerprint(row) ||
        !looksLikeDoc(row[7])
      )
        return;
      const [groupSlug, slug, size, mtimeMs, hash, readAt, vocabularyVersion, doc] = row as Row;
      loaded.set(keyOf(groupSlug, slug), {
        loc: { groupSlug, slug },
        parse: { file: { size, mtimeMs, hash }, readAt, vocabularyVersion, doc },
      });
    };
    try {
      this.info.bytes = (await fh.stat()).size;
      // The writer escapes everything outside ASCII, so latin1 decoding is exact and cheap.
      let rest = "";
      const buf = Buffer.allocUnsafe(1 << 20);
      for (;;) {
        const { bytesRead } = await fh.read(buf, 0, buf.length, null);
        if (bytesRead === 0) break;
        const lines = (rest + buf.toString("latin1", 0, bytesRead)).split("\n");
        rest = lines.pop() ?? "";
        for (const line of lines) onLine(line);
        if (bad) break;
      }
      onLine(rest);
    } catch {
      bad = true;
    } finally {
      await fh.close().catch(() => undefined);
    }
    const h = header as { format?: unknown; savedAt?: unknown } | null;
    const t = trailer as { entries?: unknown } | null;
    if (h !== null && h.format !== this.info.format) this.info.state = "other-format";
    else if (bad || h === null || t === null || typeof t.entries !== "number") this.info.state = "unreadable";
    else {
      for (const [k, v] of loaded) this.entries.set(k, v);
      this.info.state = "loaded";
      this.info.loadedEntries = loaded.size;
      this.info.savedAt = typeof h.savedAt === "string" ? h.savedAt : null;
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
    const hit = this.entries.get(keyOf(loc.groupSlug, loc.slug))?.parse;
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

  /** What reading (or writing) this file version gave. */
  remember(loc: Location, parse: CachedParse): void {
    this.entries.set(keyOf(loc.groupSlug, loc.slug), { loc, parse });
    this.changed = true;
  }

  /** The same bytes seen again with a new mtime (a touch, a checkout): the cached parse still holds. */
  touch(loc: Location, file: FileFingerprint, readAt: number): void {
    const hit = this.entries.get(keyOf(loc.groupSlug, loc.slug))?.parse;
    if (!hit || hit.file.hash !== file.hash || (hit.file.mtimeMs === file.mtimeMs && hit.readAt >= readAt))
      return;
    hit.file = file;
    hit.readAt = readAt;
    this.changed = true;
  }

  forget(loc: Location): void {
    if (this.entries.delete(keyOf(loc.groupSlug, loc.slug))) this.changed = true;
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
    this.changed = false;
    const savedAt = new Date(now()).toISOString();
    await mkdir(dirname(this.path), { recursive: true });
    // Temp file and rename: a reader sees the old cache or the new one. No fsync: a cache torn by a
    // crash lacks its trailer and is simply not used. Written in chunks as it is serialised, so the
    // whole cache is never one string in memory.
    const tmp = `${this.path}.${process.pid}.tmp`;
    let bytes = 0;
    let written = 0;
    let tooYoung = 0;
    try {
      const fh = await open(tmp, "w", 0o600);
      try {
        let chunk: string[] = [JSON.stringify({ format: this.info.format, savedAt })];
        const flush = async (): Promise<void> => {
          const buf = Buffer.from(`${chunk.join("\n")}\n`, "latin1");
          chunk = [];
          bytes += buf.length;
          await fh.write(buf);
        };
        for (const [key, { loc, parse }] of [...this.entries]) {
          const cur = opts.current(loc);
          if (
            !cur ||
            cur.hash !== parse.file.hash ||
            cur.size !== parse.file.size ||
            cur.mtimeMs !== parse.file.mtimeMs
          ) {
            // The index moved on (deleted, broken, changed): this parse is of no use to the next start.
            this.entries.delete(key);
            continue;
          }
          if (parse.readAt - parse.file.mtimeMs < RACY_MS) {
            const checkAt = now();
            if (checkAt - parse.file.mtimeMs < RACY_MS) {
              tooYoung++;
              continue;
            }
            const disk = await opts.verify(loc).catch(() => null);
            if (
              !disk ||
              disk.hash !== parse.file.hash ||
              disk.size !== parse.file.size ||
              disk.mtimeMs !== parse.file.mtimeMs
            )
              continue;
            parse.readAt = checkAt;
          }
          // A doc JSON cannot carry as it is (an infinite quantity in a hand-edited file) is read again.
          if (!jsonSafe(parse.doc)) continue;
          const { size, mtimeMs, hash } = parse.file;
          chunk.push(
            asciiJson([
              loc.groupSlug,
              loc.slug,
              size,
              mtimeMs,
              hash,
              parse.readAt,
              parse.vocabularyVersion,
              parse.doc,
            ] satisfies Row),
          );
          written++;
          if (chunk.length >= (opts.chunkSize ?? 500)) await flush();
        }
        chunk.push(JSON.stringify({ entries: written }));
        await flush();
      } finally {
        await fh.close();
      }
      await rename(tmp, this.path);
    } catch (e) {
      await rm(tmp, { force: true });
      this.changed = true;
      throw e;
    }
    if (tooYoung > 0) this.changed = true;
    this.info.savedAt = savedAt;
    this.info.bytes = bytes;
    return { written, tooYoung };
  }
}
