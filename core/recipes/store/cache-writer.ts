/**
 * When the warm-start cache is written: a while after the scan at open (off the start's critical
 * path), after changes have been quiet for a few seconds, and at close. One write at a time; a write
 * never keeps the process alive.
 */
import type { Logger } from "../../log/logger.js";
import type { FileFingerprint } from "./file-state.js";
import type { Location } from "./identity.js";
import type { IndexCache } from "./index-cache.js";

/** Late enough that files written just before the start are no longer too young to cache (RACY_MS). */
export const CACHE_SAVE_AFTER_OPEN_MS = 2500;
/** After a change, the cache is written once changes have been quiet this long. */
export const CACHE_SAVE_DEBOUNCE_MS = 5000;

export interface CacheWriterOptions {
  /** The fingerprint the index holds for a file (null: not indexed, or broken). */
  current(loc: Location): FileFingerprint | null;
  /** Re-read a file's fingerprint from disk. */
  verify(loc: Location): Promise<FileFingerprint | null>;
  isOpen(): boolean;
  /** The clock that decides whether a file is old enough to be cached by size and mtime. */
  now(): number;
  log: Logger;
}

export class CacheWriter {
  private timer: NodeJS.Timeout | null = null;
  private saving: Promise<void> | null = null;

  constructor(
    private readonly cache: IndexCache,
    private readonly opts: CacheWriterOptions,
  ) {}

  schedule(ms: number): void {
    if (!this.opts.isOpen()) return;
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
    if (!this.cache.dirty) return;
    const open = this.opts.isOpen();
    this.saving = this.cache
      // While serving, a write (and so a turn of the event loop) every few hundred entries.
      .save({ current: (l) => this.opts.current(l), verify: (l) => this.opts.verify(l), now: () => this.opts.now(), chunkSize: open ? 200 : 1000 })
      .then((r) => {
        // Files written moments ago cannot be trusted by size and mtime yet: try again once they can.
        if (r.tooYoung > 0 && this.opts.isOpen()) this.schedule(CACHE_SAVE_DEBOUNCE_MS);
      })
      .catch((e: unknown) => this.opts.log.warn("could not write the recipe index cache:", e))
      .finally(() => (this.saving = null));
    await this.saving;
  }
}
