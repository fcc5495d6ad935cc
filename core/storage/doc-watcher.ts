/**
 * DocWatcher: keeps JSON documents current when their files change outside the store (hand edit,
 * `git pull`), ARCHITECTURE §2 and §4. It watches the documents' directories at depth 0 (chokidar 5 has
 * no globs, and watching directories survives the rename of an atomic write), debounces bursts,
 * ignores the store's own writes by comparing the file with the content the document last wrote, and
 * re-reads a file that looks broken before declaring it so (editors save in several steps).
 */
import path from "node:path";
import { watch, type FSWatcher } from "chokidar";
import type { ProbeOutcome, ReloadOutcome } from "./json-doc.js";

/** What the watcher needs of a document; JsonDoc provides it. */
export interface WatchableDoc {
  readonly path: string;
  /** Compare the file with the content last read or written, without applying it. */
  probe(): Promise<ProbeOutcome>;
  /** Apply the file's current content. */
  reload(): Promise<ReloadOutcome>;
}

export type DocWatchEvent =
  /** The change was the store's own write (or nothing changed): ignored. */
  | { type: "ignored"; path: string }
  /** The file looked broken; the watcher waits and re-reads before deciding. */
  | { type: "suspect"; path: string }
  | { type: "reloaded"; path: string }
  | { type: "missing"; path: string }
  | { type: "broken"; path: string }
  /** A change arrived while paused; it is processed on resume(). */
  | { type: "queued"; path: string }
  | { type: "error"; path: string | null; error: unknown };

export interface DocWatcherOptions {
  /** Quiet time after the last event on a file before it is read (default 100 ms). */
  debounceMs?: number;
  /** Wait before re-reading a file that failed to parse (default 250 ms). */
  rereadDelayMs?: number;
  /** Poll instead of using OS events (network file systems). */
  usePolling?: boolean;
}

export class DocWatcher {
  readonly #docs = new Map<string, WatchableDoc>();
  /**
   * Watched directory → how many documents in it. Kept alongside #docs rather than derived from it:
   * chokidar asks `ignored` about every entry of every watched directory, and rebuilding the set each
   * time was a measurable part of a server start (decision 0139).
   */
  readonly #dirs = new Map<string, number>();
  readonly #timers = new Map<string, NodeJS.Timeout>();
  /** Per-file tail of checks, so one file is never checked twice at once. */
  readonly #running = new Map<string, Promise<void>>();
  readonly #queued = new Set<string>();
  readonly #listeners = new Set<(event: DocWatchEvent) => void>();
  readonly #debounceMs: number;
  readonly #rereadDelayMs: number;
  readonly #usePolling: boolean;
  #fsw: FSWatcher | null = null;
  #paused = false;
  #closed = false;

  constructor(options: DocWatcherOptions = {}) {
    this.#debounceMs = options.debounceMs ?? 100;
    this.#rereadDelayMs = options.rereadDelayMs ?? 250;
    this.#usePolling = options.usePolling ?? false;
  }

  /** Watch a document (its directory must exist). May be called before or after start(). */
  add(doc: WatchableDoc): void {
    const file = path.resolve(doc.path);
    const dir = path.dirname(file);
    const isNew = !this.#docs.has(file);
    this.#docs.set(file, doc);
    if (!isNew) return;
    const count = this.#dirs.get(dir) ?? 0;
    this.#dirs.set(dir, count + 1);
    if (this.#fsw && count === 0) this.#fsw.add(dir);
  }

  /** Stop watching a document. */
  remove(doc: WatchableDoc): void {
    const file = path.resolve(doc.path);
    if (!this.#docs.delete(file)) return;
    const dir = path.dirname(file);
    const count = (this.#dirs.get(dir) ?? 1) - 1;
    if (count > 0) return void this.#dirs.set(dir, count);
    this.#dirs.delete(dir);
    if (this.#fsw) this.#fsw.unwatch(dir);
  }

  /** Listen to what the watcher does (for logs and tests). Returns an unsubscribe. */
  onEvent(listener: (event: DocWatchEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Start watching; resolves once the initial scan is done and events are flowing. */
  async start(): Promise<void> {
    if (this.#fsw) return;
    const fsw = watch([...this.#dirs.keys()], {
      ignoreInitial: true,
      depth: 0,
      usePolling: this.#usePolling,
      // Only the watched directories and the documents themselves; everything else in them is noise.
      ignored: (p: string) => {
        const abs = path.resolve(p);
        return !this.#docs.has(abs) && !this.#dirs.has(abs);
      },
    });
    this.#fsw = fsw;
    for (const ev of ["add", "change", "unlink"] as const)
      fsw.on(ev, (p: string) => this.#schedule(path.resolve(p)));
    fsw.on("error", (error: unknown) => this.#emit({ type: "error", path: null, error }));
    await new Promise<void>((resolve) => fsw.once("ready", () => resolve()));
  }

  /** Hold changes: events are recorded and processed on resume(). */
  pause(): void {
    this.#paused = true;
  }

  /** Process what arrived while paused; resolves when done. */
  async resume(): Promise<void> {
    this.#paused = false;
    const paths = [...this.#queued];
    this.#queued.clear();
    await Promise.all(paths.map((p) => this.#enqueue(p)));
  }

  /** Check the given documents (default: all) now, without waiting for an event. */
  async checkNow(paths?: readonly string[]): Promise<void> {
    const targets = paths ? paths.map((p) => path.resolve(p)) : [...this.#docs.keys()];
    await Promise.all(targets.map((p) => this.#enqueue(p)));
  }

  /** Resolves when no check is pending or running. */
  async idle(): Promise<void> {
    while (this.#timers.size > 0 || this.#running.size > 0) {
      await Promise.all([...this.#running.values()]);
      if (this.#timers.size > 0) await new Promise((r) => setTimeout(r, this.#debounceMs));
    }
  }

  /** Stop watching and wait for running checks. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const t of this.#timers.values()) clearTimeout(t);
    this.#timers.clear();
    await this.#fsw?.close();
    this.#fsw = null;
    await Promise.all([...this.#running.values()]);
  }

  #schedule(file: string): void {
    if (!this.#docs.has(file) || this.#closed) return;
    clearTimeout(this.#timers.get(file));
    this.#timers.set(
      file,
      setTimeout(() => {
        this.#timers.delete(file);
        if (this.#paused) {
          this.#queued.add(file);
          this.#emit({ type: "queued", path: file });
        } else {
          void this.#enqueue(file);
        }
      }, this.#debounceMs),
    );
  }

  #enqueue(file: string): Promise<void> {
    const previous = this.#running.get(file) ?? Promise.resolve();
    const next = previous.then(() => this.#check(file));
    this.#running.set(file, next);
    void next.finally(() => {
      if (this.#running.get(file) === next) this.#running.delete(file);
    });
    return next;
  }

  async #check(file: string): Promise<void> {
    const doc = this.#docs.get(file);
    if (!doc || this.#closed) return;
    try {
      const probe = await doc.probe();
      if (probe === "same") {
        this.#emit({ type: "ignored", path: file });
        return;
      }
      if (probe === "invalid") {
        // Editors truncate then write, or write a temp then rename: give the save time to finish.
        this.#emit({ type: "suspect", path: file });
        await new Promise((r) => setTimeout(r, this.#rereadDelayMs));
      }
      const outcome = await doc.reload();
      if (outcome === "unchanged") this.#emit({ type: "ignored", path: file });
      else this.#emit({ type: outcome, path: file });
    } catch (error) {
      this.#emit({ type: "error", path: file, error });
    }
  }

  #emit(event: DocWatchEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // Listeners are observers; one failing must not stop the watcher.
      }
    }
  }
}
