/**
 * DocWatcher: keeps JSON documents current when their files change outside the store (hand edit,
 * `git pull`), ARCHITECTURE §2 and §4. It watches the documents' directories with the platform's
 * watcher (`fs.watch`; watching a directory survives the rename of an atomic write), which names the
 * entry that changed, debounces bursts, ignores the store's own writes by comparing the file with the
 * content the document last wrote, and re-reads a file that looks broken before declaring it so
 * (editors save in several steps).
 *
 * Not chokidar, as before (decision 0183): on every event in a directory it listed the directory
 * again and stat'ed each entry to find out what had changed, which the event already says. Every
 * rating and shopping-list check-off renames a document into place, so under the mixed load of
 * issue 21 those listings were a quarter of all the memory the server allocated.
 */
import { existsSync, statSync, watch, type FSWatcher } from "node:fs";
import path from "node:path";
import { isGoneDir } from "./atomic-write.js";
import type { ProbeOutcome, ReloadOutcome } from "./json-doc.js";

/** What the watcher needs of a document; JsonDoc provides it. */
export interface WatchableDoc {
  readonly path: string;
  /** Compare the file with the content last read or written, without applying it. */
  probe(): Promise<ProbeOutcome>;
  /** Apply the file's current content. */
  reload(): Promise<ReloadOutcome>;
  /** Why the file cannot be read, once reload() found it so. */
  readonly broken?: { message: string } | null;
}

export type DocWatchEvent =
  /** The change was the store's own write (or nothing changed): ignored. */
  | { type: "ignored"; path: string }
  /** The file looked broken; the watcher waits and re-reads before deciding. */
  | { type: "suspect"; path: string }
  | { type: "reloaded"; path: string }
  | { type: "missing"; path: string }
  /** Deleted, and written back from memory (JsonDocOptions.writtenBackWhenDeleted). */
  | { type: "rewritten"; path: string }
  /** Deleted with its folder: memory keeps its last state. */
  | { type: "kept"; path: string }
  | { type: "broken"; path: string; message?: string }
  /** A change arrived while paused; it is processed on resume(). */
  | { type: "queued"; path: string }
  | { type: "error"; path: string | null; error: unknown };

export interface DocWatcherOptions {
  /** Quiet time after the last event on a file before it is read (default 100 ms). */
  debounceMs?: number;
  /** Wait before re-reading a file that failed to parse (default 250 ms). */
  rereadDelayMs?: number;
  /**
   * How often each watched directory's identity is checked (default 2 s): a folder above it moved
   * away and another put in its place (`mv data data.old && cp -a data.old data`) sends no event to a
   * watch that moved along with the old one.
   */
  identityCheckMs?: number;
}

export class DocWatcher {
  readonly #docs = new Map<string, WatchableDoc>();
  /** Watched directory → how many documents in it: a directory is watched while it holds one. */
  readonly #dirs = new Map<string, number>();
  /** The platform's watch of each directory, once started, and the directory's inode when it began. */
  readonly #watches = new Map<string, { watcher: FSWatcher; ino: number }>();
  /**
   * Directories of documents that are not there (not made yet, or removed), by the nearest ancestor
   * that is: watched until they appear, then watched themselves.
   */
  readonly #awaiting = new Map<string, { watcher: FSWatcher; dirs: Set<string> }>();
  readonly #timers = new Map<string, NodeJS.Timeout>();
  /** Per-file tail of checks, so one file is never checked twice at once. */
  readonly #running = new Map<string, Promise<void>>();
  readonly #queued = new Set<string>();
  readonly #listeners = new Set<(event: DocWatchEvent) => void>();
  readonly #debounceMs: number;
  readonly #rereadDelayMs: number;
  readonly #identityCheckMs: number;
  #identityTimer: NodeJS.Timeout | null = null;
  #started = false;
  #paused = false;
  #closed = false;

  constructor(options: DocWatcherOptions = {}) {
    this.#debounceMs = options.debounceMs ?? 100;
    this.#rereadDelayMs = options.rereadDelayMs ?? 250;
    this.#identityCheckMs = options.identityCheckMs ?? 2000;
  }

  /** Watch a document (its directory need not exist yet). May be called before or after start(). */
  add(doc: WatchableDoc): void {
    const file = path.resolve(doc.path);
    const dir = path.dirname(file);
    const isNew = !this.#docs.has(file);
    this.#docs.set(file, doc);
    if (!isNew) return;
    const count = this.#dirs.get(dir) ?? 0;
    this.#dirs.set(dir, count + 1);
    if (this.#started && count === 0) this.#watchDir(dir);
  }

  /** Stop watching a document. */
  remove(doc: WatchableDoc): void {
    const file = path.resolve(doc.path);
    if (!this.#docs.delete(file)) return;
    const dir = path.dirname(file);
    const count = (this.#dirs.get(dir) ?? 1) - 1;
    if (count > 0) return void this.#dirs.set(dir, count);
    this.#dirs.delete(dir);
    this.#unwatch(dir);
  }

  /** Listen to what the watcher does (for logs and tests). Returns an unsubscribe. */
  onEvent(listener: (event: DocWatchEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Start watching; once it resolves, every later change is seen. */
  async start(): Promise<void> {
    if (this.#started || this.#closed) return;
    this.#started = true;
    for (const dir of this.#dirs.keys()) this.#watchDir(dir);
    this.#identityTimer = setInterval(() => {
      for (const dir of [...this.#watches.keys()]) if (this.#goneOrReplaced(dir)) this.#lost(dir);
    }, this.#identityCheckMs);
    this.#identityTimer.unref();
  }

  #watchDir(dir: string): void {
    if (this.#closed || this.#watches.has(dir) || !this.#dirs.has(dir)) return;
    let watcher: FSWatcher;
    let ino: number;
    try {
      ino = statSync(dir).ino;
      watcher = watch(dir, { persistent: true }, (_event, name) =>
        this.#onDirEvent(dir, name === null ? null : String(name)),
      );
    } catch (error) {
      if (isGoneDir(error)) this.#awaitDir(dir);
      else this.#emit({ type: "error", path: dir, error });
      return;
    }
    watcher.on("error", (error: unknown) => {
      this.#lost(dir);
      if (!isGoneDir(error)) this.#emit({ type: "error", path: dir, error });
    });
    this.#watches.set(dir, { watcher, ino });
  }

  #onDirEvent(dir: string, name: string | null): void {
    // A platform that does not say which entry changed: look at every document in the directory.
    if (name === null) return this.#scheduleAll(dir);
    // Linux reports the directory's own removal under its name.
    if (name === path.basename(dir) && this.#goneOrReplaced(dir)) return this.#lost(dir);
    this.#schedule(path.join(dir, name));
  }

  /** The directory at `dir` is not the one watched any more: removed, or removed and made again. */
  #goneOrReplaced(dir: string): boolean {
    try {
      return statSync(dir).ino !== this.#watches.get(dir)?.ino;
    } catch {
      return true;
    }
  }

  /**
   * A watched directory went away (a `git checkout` removes a folder and may make it again): its
   * documents are checked, and found missing or changed, and it is watched again once it is there.
   */
  #lost(dir: string): void {
    this.#unwatch(dir);
    this.#scheduleAll(dir);
    this.#watchDir(dir);
  }

  #awaitDir(dir: string): void {
    const ancestor = nearestExisting(path.dirname(dir));
    let waiting = this.#awaiting.get(ancestor);
    if (!waiting) {
      let watcher: FSWatcher;
      try {
        watcher = watch(ancestor, { persistent: true }, () => this.#recheckAwaited(ancestor));
      } catch (error) {
        this.#emit({ type: "error", path: dir, error });
        return;
      }
      watcher.on("error", () => this.#recheckAwaited(ancestor, true));
      waiting = { watcher, dirs: new Set() };
      this.#awaiting.set(ancestor, waiting);
    }
    waiting.dirs.add(dir);
    // Made between the look and the watch (`mkdir -p`): no event would tell.
    if (nearestExisting(dir) !== ancestor) this.#recheckAwaited(ancestor);
  }

  /**
   * Something changed in `ancestor`: the awaited directories that are there now, or nearer, are
   * watched (or awaited nearer). `lost`: the ancestor's own watch failed; every one is looked at again.
   */
  #recheckAwaited(ancestor: string, lost = false): void {
    const waiting = this.#awaiting.get(ancestor);
    if (!waiting) return;
    const moved = [...waiting.dirs].filter((dir) => lost || nearestExisting(dir) !== ancestor);
    for (const dir of moved) waiting.dirs.delete(dir);
    if (lost || waiting.dirs.size === 0) this.#stopAwaiting(ancestor);
    for (const dir of moved) {
      this.#watchDir(dir);
      // Documents written before the watch began.
      if (this.#watches.has(dir)) this.#scheduleAll(dir);
    }
  }

  #stopAwaiting(ancestor: string): void {
    this.#awaiting.get(ancestor)?.watcher.close();
    this.#awaiting.delete(ancestor);
  }

  #unwatch(dir: string): void {
    this.#watches.get(dir)?.watcher.close();
    this.#watches.delete(dir);
    for (const [ancestor, waiting] of this.#awaiting)
      if (waiting.dirs.delete(dir) && waiting.dirs.size === 0) this.#stopAwaiting(ancestor);
  }

  #scheduleAll(dir: string): void {
    for (const file of this.#docs.keys()) if (path.dirname(file) === dir) this.#schedule(file);
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
    if (this.#identityTimer) clearInterval(this.#identityTimer);
    for (const t of this.#timers.values()) clearTimeout(t);
    this.#timers.clear();
    for (const dir of [...this.#watches.keys()]) this.#unwatch(dir);
    for (const ancestor of [...this.#awaiting.keys()]) this.#stopAwaiting(ancestor);
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
      else if (outcome === "broken") this.#emit({ type: "broken", path: file, message: doc.broken?.message });
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

/** `dir` itself if it exists, else its nearest ancestor that does. */
function nearestExisting(dir: string): string {
  let d = dir;
  while (!existsSync(d) && path.dirname(d) !== d) d = path.dirname(d);
  return d;
}
