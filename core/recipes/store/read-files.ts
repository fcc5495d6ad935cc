/**
 * Reading the files of a sync: the scan at open (the cache's parse when size, mtime and vocabulary
 * still match, else a synchronous read) and the watcher's bursts (asynchronous, a few at a time).
 */
import { lstatSync } from "node:fs";
import { join } from "node:path";
import { isSafeSlug, ReplacedFolderError } from "../../storage/data-folder.js";
import { lstatManyOnDiskThread } from "../../storage/disk-thread.js";
import { fileSlug } from "../../util/slug.js";
import {
  FileTooLargeError,
  fingerprintOf,
  readFileState,
  readFileStateSync,
  type FileFingerprint,
  type FileState,
} from "./file-state.js";
import type { Location } from "./identity.js";
import type { SyncContext } from "./sync.js";
import type { BrokenInfo } from "./types.js";
import type { CachedParse } from "./index-cache.js";

/** Reads a burst of files with bounded parallelism. */
export const READ_PARALLELISM = 16;

export interface Read {
  loc: Location;
  /** `text` is null when the parse came from the cache (the file was only stat'ed). */
  state: (FileFingerprint & { text: string | null }) | null;
  /** Clock time before the bytes were read (or, from the cache, when they were). */
  readAt: number;
  /** The cached parse of exactly this file version, when the scan at open found one. */
  cached: CachedParse | null;
  /** Set when the file exists but cannot be indexed at all (bad name, too large). */
  problem: { info: BrokenInfo; file: FileFingerprint } | null;
}

export function pathOf(ctx: SyncContext, loc: Location): string {
  // Names come from readdir or the watcher, so they are single path segments; still, only a valid
  // slug may become an indexed recipe, and anything else is never written to.
  return isSafeSlug(loc.slug)
    ? ctx.folder.recipeFile(loc.groupSlug, loc.slug)
    : join(ctx.folder.recipesDir(loc.groupSlug), `${loc.slug}.md`);
}

/** Size and mtime of the regular files among a scan's, by location, stat'ed ahead of it (statAhead). */
export type StatsAhead = ReadonlyMap<Location, { size: number; mtimeMs: number }>;

/** Below this many files, stat'ing them on the main thread costs less than a message to the disk thread. */
const STAT_AHEAD_MIN = 200;
/** Paths sent to the disk thread in one message: its heap is kept small (disk-thread.ts). */
const STAT_BATCH = 10_000;

/**
 * The lstat of every file a warm start is about to look up in its cache, made on the disk thread while
 * the main thread decodes the cache (about 50 ms of the main thread's time at 10,000 recipes and 200 ms
 * at 50,000, decision 0192). Keyed by the location objects given, which the scan then looks up; only
 * regular files with a valid slug are listed, anything else is stat'ed again at the lookup. Null for
 * a small folder, or without a thread.
 */
export async function statAhead(ctx: SyncContext, locs: readonly Location[]): Promise<StatsAhead | null> {
  if (locs.length < STAT_AHEAD_MIN) return null;
  // An unsafe slug is never looked up in the cache (cachedAtOpen).
  const asked = locs.filter((loc) => isSafeSlug(loc.slug));
  const paths = asked.map((loc) => pathOf(ctx, loc));
  const stats = new Map<Location, { size: number; mtimeMs: number }>();
  for (let from = 0; from < paths.length; from += STAT_BATCH) {
    const out = await lstatManyOnDiskThread(paths.slice(from, from + STAT_BATCH));
    if (!out) return null;
    for (let i = 0; i < out.length / 2; i++)
      if (out[2 * i] >= 0) stats.set(asked[from + i], { size: out[2 * i], mtimeMs: out[2 * i + 1] });
  }
  return stats;
}

/**
 * The cache's parse of this file when its size, mtime and the group's vocabulary still match; else null.
 * `emptyCache`: the cache holds nothing (a first start), so no file is stat'ed for a lookup that
 * cannot hit; the miss is still counted. `ahead`: the file's stat taken since the watcher started
 * (statAhead): a change after it is the watcher's to report.
 */
export function cachedAtOpen(
  ctx: SyncContext,
  loc: Location,
  emptyCache = false,
  ahead: StatsAhead | null = null,
): Read | null {
  if (!ctx.cache || !isSafeSlug(loc.slug)) return null;
  if (emptyCache) {
    ctx.cache.lookup(loc, { size: -1, mtimeMs: -1 }, "");
    return null;
  }
  try {
    let st: { size: number; mtimeMs: number } | null = ahead?.get(loc) ?? null;
    if (!st) {
      const now = lstatSync(pathOf(ctx, loc));
      st = now.isFile() ? now : null;
    }
    const hit = st ? ctx.cache.lookup(loc, st, ctx.vocabularyVersion(loc.groupSlug)) : null;
    if (hit)
      return {
        loc,
        state: { ...hit.file, text: null },
        readAt: hit.readAt,
        cached: hit,
        problem: null,
      };
  } catch {
    // Gone or unreadable, or the group has no vocabulary yet: reading the file says which.
  }
  return null;
}

/**
 * A synchronous read: for the scan at open (nothing is served yet), and for the few files of a
 * watcher burst checked against the index before the store's lone work (decision 0299).
 */
export function readAtOpen(ctx: SyncContext, loc: Location): Read {
  return settle(loc, Date.now(), () => readFileStateSync(pathOf(ctx, loc)));
}

export async function readOne(ctx: SyncContext, loc: Location): Promise<Read> {
  const readAt = Date.now();
  let state: FileState | null;
  try {
    state = await readFileState(pathOf(ctx, loc));
  } catch (e) {
    return unreadable(loc, readAt, e);
  }
  return checked(loc, readAt, state);
}

function settle(loc: Location, readAt: number, read: () => FileState | null): Read {
  let state: FileState | null;
  try {
    state = read();
  } catch (e) {
    return unreadable(loc, readAt, e);
  }
  return checked(loc, readAt, state);
}

/** Too large, or unreadable (permissions, an I/O error): reported like a file that does not parse, so one bad file never stops the rest of the burst. */
function unreadable(loc: Location, readAt: number, e: unknown): Read {
  // Through a folder replaced by a symlink the file is not in the data folder: it is as good as gone.
  if (e instanceof ReplacedFolderError) return { loc, state: null, readAt, cached: null, problem: null };
  const size = e instanceof FileTooLargeError ? e.size : 0;
  const message = e instanceof Error ? e.message : String(e);
  return {
    loc,
    state: null,
    readAt,
    cached: null,
    problem: { info: { message, line: null }, file: { size, mtimeMs: 0, hash: "" } },
  };
}

function checked(loc: Location, readAt: number, state: FileState | null): Read {
  if (state && !isSafeSlug(loc.slug)) {
    const message = `file name "${loc.slug}.md" is not a valid recipe slug (lowercase letters, digits, dashes); rename it to "${fileSlug(loc.slug)}.md"`;
    return {
      loc,
      state: null,
      readAt,
      cached: null,
      problem: { info: { message, line: null }, file: fingerprintOf(state) },
    };
  }
  return { loc, state, readAt, cached: null, problem: null };
}
