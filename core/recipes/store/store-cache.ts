/**
 * The recipe store's warm-start cache (index-cache.ts) and when it is written: a while after the scan
 * at open (off the start's critical path), after changes once they have been quiet for a few seconds
 * and the last write is ten minutes old (sooner when many recipes changed), and at close. A cache
 * older than the files costs a start only the reading of the files changed since. One write at a
 * time; a pending write never keeps the process alive. Never written when the store is read-only.
 */
import type { RecipeDoc } from "../doc.js";
import type { DataFolder } from "../../storage/data-folder.js";
import type { Logger } from "../../log/logger.js";
import { readFileState, type FileFingerprint } from "./file-state.js";
import type { Location } from "./identity.js";
import { IndexCache, type IndexCacheInfo } from "./index-cache.js";
import type { RecipeIndex } from "./recipe-index.js";
import { nameFromSlug } from "./sync.js";

/** Late enough that files written just before the start are no longer too young to cache (RACY_MS). */
const SAVE_AFTER_OPEN_MS = 2500;
/** After a change, the cache is written once changes have been quiet this long… */
const SAVE_DEBOUNCE_MS = 5000;
/**
 * …and not sooner than this after its last write, unless many recipes changed. A start reads again
 * only the files that changed since the cache was written, which for a few hundred files is a few
 * milliseconds; a rewrite of a large folder's cache (149 MB at 50,000 recipes) is a write a virtual
 * disk can take a minute or two to absorb, and every save's fsync in that time waits on it (decision
 * 0174).
 */
const SAVE_INTERVAL_MS = 10 * 60_000;
/** This many changed recipes since the last write are worth a write after the quiet spell alone. */
const MANY_CHANGES = 500;

/** How long after a change to write the cache (see SAVE_DEBOUNCE_MS and SAVE_INTERVAL_MS). */
export function saveDelayAfterChange(
  now: number,
  lastSavedAt: number | null,
  changesSinceSave: number,
): number {
  if (lastSavedAt === null || changesSinceSave >= MANY_CHANGES) return SAVE_DEBOUNCE_MS;
  return Math.max(SAVE_DEBOUNCE_MS, lastSavedAt + SAVE_INTERVAL_MS - now);
}

export interface StoreCacheOptions {
  folder: DataFolder;
  /** What the cache is checked against when written: entries the index no longer holds are dropped. */
  index: RecipeIndex;
  readOnly: boolean;
  vocabularyVersion(groupSlug: string): string;
  isOpen(): boolean;
  /** The clock that decides whether a file is old enough to be cached by size and mtime. */
  now(): number;
  log: Logger;
}

export class StoreCache {
  readonly index: IndexCache;
  private timer: NodeJS.Timeout | null = null;
  private saving: Promise<void> | null = null;
  /** When the cache was last written (null: not by this process). */
  private lastSavedAt: number | null = null;
  private changesSinceSave = 0;

  constructor(private readonly opts: StoreCacheOptions) {
    this.index = new IndexCache(IndexCache.pathIn(opts.folder.cacheDir));
  }

  load(): Promise<void> {
    return this.index.load();
  }

  stats(): IndexCacheInfo {
    return this.index.stats();
  }

  /** The scan at open is done: write what it read, in a while. */
  opened(): void {
    if (this.index.dirty) this.schedule(SAVE_AFTER_OPEN_MS);
    // The cache on disk holds every file as the open found it: as good as written now.
    else this.lastSavedAt = this.opts.now();
  }

  /** `count` recipes changed: write once things are quiet, and not too often. */
  changed(count: number): void {
    this.changesSinceSave += count;
    if (this.index.dirty)
      this.schedule(saveDelayAfterChange(this.opts.now(), this.lastSavedAt, this.changesSinceSave));
  }

  /** The store wrote this file version itself; `doc` is what reading it back gives. */
  rememberWrite(loc: Location, file: FileFingerprint, writtenAt: number, doc: RecipeDoc): void {
    // As sync.ts's parse() reads it (a file without a name is named after itself), so a start from the
    // cache equals one from the files.
    const asRead = doc.name === "" ? { ...doc, name: nameFromSlug(loc.slug) } : doc;
    this.index.remember(loc, {
      file,
      readAt: writtenAt,
      vocabularyVersion: this.opts.vocabularyVersion(loc.groupSlug),
      doc: asRead,
    });
  }

  forget(loc: Location): void {
    this.index.forget(loc);
  }

  private schedule(ms: number): void {
    if (this.opts.readOnly || !this.opts.isOpen()) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.save();
    }, ms);
    this.timer.unref();
  }

  /** Write now if anything changed; waits for a write already under way. */
  async save(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    while (this.saving) await this.saving;
    if (!this.index.dirty || this.opts.readOnly) return;
    const { folder, index, now } = this.opts;
    const current = (loc: Location): FileFingerprint | null => {
      const e = index.get(loc.groupSlug, loc.slug);
      return e && !e.broken ? e.file : null;
    };
    const verify = (loc: Location) => readFileState(folder.recipeFile(loc.groupSlug, loc.slug));
    this.changesSinceSave = 0;
    this.saving = this.index
      // While serving, a write (and so a turn of the event loop) every few hundred entries.
      .save({ current, verify, now, chunkSize: this.opts.isOpen() ? 200 : 1000 })
      .then((r) => {
        this.lastSavedAt = this.opts.now();
        // Files written moments ago cannot be trusted by size and mtime yet: try again once they can.
        if (r.tooYoung > 0 && this.opts.isOpen()) this.schedule(SAVE_DEBOUNCE_MS);
      })
      .catch((e: unknown) => this.opts.log.warn("could not write the recipe index cache:", e))
      .finally(() => (this.saving = null));
    await this.saving;
  }
}
