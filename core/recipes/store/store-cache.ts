/**
 * The recipe store's warm-start cache (index-cache.ts) and when it is written: a while after the scan
 * at open (off the start's critical path), once changes have been quiet for a few seconds, and at
 * close. One write at a time; a pending write never keeps the process alive. Never written when the
 * store is read-only.
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
/** After a change, the cache is written once changes have been quiet this long. */
const SAVE_DEBOUNCE_MS = 5000;

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
  }

  /** The index changed: write once things are quiet. */
  changed(): void {
    if (this.index.dirty) this.schedule(SAVE_DEBOUNCE_MS);
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
    this.saving = this.index
      // While serving, a write (and so a turn of the event loop) every few hundred entries.
      .save({ current, verify, now, chunkSize: this.opts.isOpen() ? 200 : 1000 })
      .then((r) => {
        // Files written moments ago cannot be trusted by size and mtime yet: try again once they can.
        if (r.tooYoung > 0 && this.opts.isOpen()) this.schedule(SAVE_DEBOUNCE_MS);
      })
      .catch((e: unknown) => this.opts.log.warn("could not write the recipe index cache:", e))
      .finally(() => (this.saving = null));
    await this.saving;
  }
}
