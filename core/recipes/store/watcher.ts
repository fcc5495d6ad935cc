/**
 * Watches `groups/<g>/recipes/*.md` of a data folder and hands the recipe store bursts of changed
 * files (ARCHITECTURE §4). Only the recipe files are watched, never media folders: inotify watches
 * are a finite resource. Events are only hints: the store re-reads each file and compares its hash
 * with the index, which is how its own writes are recognised and ignored.
 */
import { basename, join, relative, sep } from "node:path";
import type { Stats } from "node:fs";
import { watch, type FSWatcher } from "chokidar";

export interface WatchedFile {
  groupSlug: string;
  slug: string;
}

export interface RecipeWatcherOptions {
  /** `<data>/groups`: watched as a whole so group folders that appear later (a `git pull`) are seen. */
  groupsDir: string;
  /** Quiet period that ends a burst (editors and git write in steps). */
  debounceMs: number;
  /** A steady stream of events still flushes this often, so a busy folder is never starved. */
  maxWaitMs?: number;
  /**
   * Every file event is followed by one more look this long after the last event on that file.
   * chokidar drops a file's `change` events for 50 ms after emitting one, so the last write of a
   * quick burst can go unreported; this trailing look (a hash compare when nothing changed) sees it.
   */
  settleMs?: number;
  onBatch(files: WatchedFile[]): Promise<void>;
  onError(error: unknown): void;
}

export class RecipeWatcher {
  private fsw: FSWatcher | null = null;
  private pending = new Map<string, WatchedFile>();
  private firstPendingAt: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private delayed = new Set<NodeJS.Timeout>();
  private settling = new Map<string, NodeJS.Timeout>();
  private running: Promise<void> | null = null;
  private paused = false;
  private closed = false;

  constructor(private readonly opts: RecipeWatcherOptions) {}

  /** Resolves once the initial scan of the folder is done, so no later change is missed. */
  async start(): Promise<void> {
    const fsw = watch(this.opts.groupsDir, {
      ignoreInitial: true,
      followSymlinks: false,
      // groups/<g>/recipes/<slug>.md is three levels below the root.
      depth: 2,
      ignored: (path: string, stats?: Stats) => this.ignored(path, stats),
    });
    this.fsw = fsw;
    for (const ev of ["add", "change", "unlink"] as const) fsw.on(ev, (path: string) => this.onFsEvent(path));
    // chokidar rate-limits a directory's re-listing to once a second and delays unlinks by 100 ms, so
    // a new file, or the two halves of a hand rename, can surface a second apart. The raw fs.watch
    // notifications underneath are immediate: used as hints (the store re-reads and compares
    // hashes, so a spurious hint costs one read), they keep renames in one burst and adds quick.
    fsw.on("raw", (_ev: string, name: string, details: unknown) => this.onRaw(name, details));
    fsw.on("error", (e: unknown) => this.opts.onError(e));
    await new Promise<void>((resolve) => fsw.once("ready", () => resolve()));
  }

  /** Keep only the group folders, their `recipes` folders and the `.md` files in those. */
  private ignored(path: string, stats?: Stats): boolean {
    const rel = relative(this.opts.groupsDir, path);
    if (rel === "") return false;
    const parts = rel.split(sep);
    // Dot names: .git, editor swap and lock files (.x.md.swp, .#x.md).
    if (parts.some((p) => p.startsWith(".") || p === "..")) return true;
    if (parts.length === 1) return stats !== undefined && !stats.isDirectory();
    if (parts.length === 2) return parts[1] !== "recipes" || (stats !== undefined && !stats.isDirectory());
    if (parts.length === 3) return !parts[2].endsWith(".md") || (stats !== undefined && !stats.isFile());
    return true;
  }

  private onRaw(name: string, details: unknown): void {
    if (typeof details !== "object" || details === null || !("watchedPath" in details)) return;
    const watched = details.watchedPath;
    if (typeof watched !== "string" || typeof name !== "string" || name === "") return;
    // A directory's watcher names the entry that changed; a file's watcher names the file itself.
    const path = basename(watched) === name ? watched : join(watched, name);
    if (this.ignored(path)) return;
    this.onFsEvent(path);
  }

  private onFsEvent(path: string): void {
    const parts = relative(this.opts.groupsDir, path).split(sep);
    if (parts.length !== 3 || parts[1] !== "recipes" || !parts[2].endsWith(".md")) return;
    const file = { groupSlug: parts[0], slug: parts[2].slice(0, -3) };
    this.add(file);
    const key = `${file.groupSlug}/${file.slug}`;
    const prev = this.settling.get(key);
    if (prev) clearTimeout(prev);
    const t = setTimeout(() => {
      this.settling.delete(key);
      this.add(file);
    }, this.opts.settleMs ?? 100);
    this.settling.set(key, t);
  }

  private add(file: WatchedFile): void {
    if (this.closed) return;
    this.pending.set(`${file.groupSlug}/${file.slug}`, file);
    this.firstPendingAt ??= Date.now();
    this.schedule();
  }

  /** Queue a file as if it had changed, after `delayMs` (the store's "re-read before calling it broken"). */
  enqueue(file: WatchedFile, delayMs = 0): void {
    if (delayMs <= 0) return this.add(file);
    const t = setTimeout(() => {
      this.delayed.delete(t);
      this.add(file);
    }, delayMs);
    this.delayed.add(t);
  }

  private schedule(): void {
    if (this.paused || this.closed || this.running) return;
    if (this.timer) clearTimeout(this.timer);
    const maxWait = this.opts.maxWaitMs ?? 10 * this.opts.debounceMs;
    const wait = Math.max(0, Math.min(this.opts.debounceMs, (this.firstPendingAt ?? Date.now()) + maxWait - Date.now()));
    this.timer = setTimeout(() => void this.flush(), wait);
  }

  private async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.paused || this.closed || this.running || this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending.clear();
    this.firstPendingAt = null;
    this.running = this.opts.onBatch(batch).catch((e: unknown) => this.opts.onError(e));
    try {
      await this.running;
    } finally {
      this.running = null;
    }
    if (this.pending.size > 0) {
      this.firstPendingAt ??= Date.now();
      this.schedule();
    }
  }

  /** Stop handing changes to the store; they accumulate until `resume()` (deterministic tests of §3.4). */
  pause(): void {
    this.paused = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Deliver what accumulated while paused, without waiting for the debounce; resolves when handled. */
  async resume(): Promise<void> {
    this.paused = false;
    if (this.running) await this.running;
    await this.flush();
    await this.idle();
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /**
   * Resolves when nothing is queued, scheduled or being handled (while paused: when nothing is being
   * handled). Events the OS has not delivered yet cannot be known; tests poll for their effect.
   */
  async idle(): Promise<void> {
    for (;;) {
      if (this.running) {
        await this.running;
        continue;
      }
      const busy = !this.paused && (this.pending.size > 0 || this.timer !== null || this.delayed.size > 0 || this.settling.size > 0);
      if (!busy || this.closed) return;
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const t of [...this.delayed, ...this.settling.values()]) clearTimeout(t);
    this.delayed.clear();
    this.settling.clear();
    this.pending.clear();
    await this.fsw?.close();
    this.fsw = null;
    if (this.running) await this.running;
  }
}
