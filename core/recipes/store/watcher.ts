/**
 * Watches `groups/<g>/recipes/*.md` of a data folder and hands the recipe store bursts of changed
 * files (ARCHITECTURE §4). Events are only hints: the store re-reads each file and compares its hash
 * with the index, which is how its own writes are recognised and ignored.
 *
 * It watches directories only, with the platform's watcher (`fs.watch`: inotify, FSEvents,
 * ReadDirectoryChangesW): `groups/`, each group folder and each `recipes/` folder — a handful of
 * watches whatever the number of recipes, and never media folders. A directory watch reports every
 * change to the files in it, by name. chokidar, used before, also put a watch on every file (10,000
 * inotify watches for 10,000 recipes), stat'ed every file before the first scan could start (a second
 * at 10,000 recipes) and re-listed the whole folder, stat'ing every file again, after each hand edit
 * (docs/decisions/0007).
 */
import { existsSync, statSync, watch, type FSWatcher } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import { basename, dirname, join, relative, sep } from "node:path";
import { isGoneDir } from "../../storage/atomic-write.js";

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
   * Every file event is followed by one more look this long after the last event on that file: the
   * last write of a quick burst may be reported before its bytes are all there (a hash compare when
   * nothing changed).
   */
  settleMs?: number;
  onBatch(files: WatchedFile[]): Promise<void>;
  /** A group folder or its `recipes/` folder went away as a whole (moved, not emptied): rescan it. */
  onFolderGone?(groupSlug: string): void;
  /**
   * How often the `groups/` folder's identity is checked (default 2 s): a data folder moved away and
   * made again (`mv data data.old && cp -a …`) sends no event to a watch that moved with the old one.
   */
  identityCheckMs?: number;
  onError(error: unknown): void;
}

/** Depth below `groups/`: the groups folder, a group folder, a recipes folder. */
type Level = 0 | 1 | 2;

export class RecipeWatcher {
  private dirs = new Map<string, FSWatcher>();
  private pending = new Map<string, WatchedFile>();
  private firstPendingAt: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private delayed = new Set<NodeJS.Timeout>();
  private settling = new Map<string, NodeJS.Timeout>();
  private running: Promise<void> | null = null;
  /** First parse failure of a file, by key: it is re-read once before being called broken. */
  private retries = new Map<string, number>();
  private paused = false;
  private closed = false;
  /** The inode of the `groups/` folder being watched; null while it is missing. */
  private groupsIno: number | null = null;
  /** While `groups/` is missing: the watch on its nearest existing ancestor. */
  private awaiting: FSWatcher | null = null;
  private identityTimer: NodeJS.Timeout | null = null;

  constructor(private readonly opts: RecipeWatcherOptions) {}

  /** Resolves once the folders are watched, so no later change is missed. */
  async start(): Promise<void> {
    await this.watchGroups(false);
    this.identityTimer = setInterval(() => this.checkGroupsIdentity(), this.opts.identityCheckMs ?? 2000);
    this.identityTimer.unref();
  }

  private async watchGroups(announce: boolean): Promise<void> {
    const dir = this.opts.groupsDir;
    this.groupsIno = statSync(dir, { throwIfNoEntry: false })?.ino ?? null;
    if (this.groupsIno === null) return this.awaitGroups();
    await this.watchDir(dir, 0, announce);
  }

  /** `groups/` is not the folder watched any more (removed, or moved and made again). */
  private checkGroupsIdentity(): void {
    if (this.closed || this.awaiting) return;
    const ino = statSync(this.opts.groupsDir, { throwIfNoEntry: false })?.ino ?? null;
    if (ino !== this.groupsIno) this.groupsLost();
  }

  /**
   * The whole `groups/` folder went away (the data folder removed, moved, or re-cloned): every group
   * is rescanned (its files are gone), and once the folder is back its files are announced, so the
   * index follows the folder that is there rather than staying empty until a restart.
   */
  private groupsLost(): void {
    const groups = new Set<string>();
    for (const dir of [...this.dirs.keys()]) {
      const group = relative(this.opts.groupsDir, dir).split(sep)[0];
      if (group) groups.add(group);
      this.unwatch(dir);
    }
    this.groupsIno = null;
    for (const g of groups) this.opts.onFolderGone?.(g);
    if (existsSync(this.opts.groupsDir)) void this.watchGroups(true);
    else this.awaitGroups();
  }

  /** Watch the nearest existing ancestor of `groups/` until `groups/` is there again. */
  private awaitGroups(): void {
    if (this.closed || this.awaiting) return;
    let ancestor = dirname(this.opts.groupsDir);
    while (!existsSync(ancestor) && dirname(ancestor) !== ancestor) ancestor = dirname(ancestor);
    const recheck = () => {
      if (this.closed || this.awaiting !== w) return;
      const nearer = existsSync(this.opts.groupsDir) || !existsSync(ancestor) || nearerExists();
      if (!nearer) return;
      w.close();
      this.awaiting = null;
      if (existsSync(this.opts.groupsDir)) void this.watchGroups(true);
      else this.awaitGroups();
    };
    // A folder made below the ancestor, on the way to `groups/`: watch from there instead.
    const nearerExists = () => {
      let d = dirname(this.opts.groupsDir);
      while (d !== ancestor && d !== dirname(d)) {
        if (existsSync(d)) return true;
        d = dirname(d);
      }
      return false;
    };
    let w: FSWatcher;
    try {
      w = watch(ancestor, { persistent: true }, recheck);
    } catch (e) {
      this.opts.onError(e);
      return;
    }
    w.on("error", () => {
      w.close();
      if (this.awaiting === w) this.awaiting = null;
      this.awaitGroups();
    });
    this.awaiting = w;
    // Made between the look and the watch: no event would tell.
    recheck();
  }

  /**
   * Watch one directory, then list it: its subfolders get watched (groups, `recipes`), and with
   * `announce` (a folder that appeared after the start) its recipe files are reported. Listing after
   * the watch is set up means nothing created in between is missed.
   */
  private async watchDir(dir: string, level: Level, announce: boolean): Promise<void> {
    if (this.closed || this.dirs.has(dir)) return;
    let w: FSWatcher;
    try {
      w = watch(dir, { persistent: true }, (_event, name) =>
        this.onDirEvent(dir, level, name === null ? null : String(name)),
      );
    } catch (e) {
      if (!isGoneDir(e)) this.opts.onError(e);
      return;
    }
    w.on("error", (e: unknown) => {
      if (level === 0) this.groupsLost();
      else this.unwatch(dir);
      if (!isGoneDir(e)) this.opts.onError(e);
    });
    this.dirs.set(dir, w);
    await this.list(dir, level, announce);
  }

  private async list(dir: string, level: Level, announce: boolean): Promise<void> {
    // A recipes folder is listed only for its files, and only when they are to be announced: at the
    // start the store lists and reads them itself (10,000 names read twice otherwise).
    if (level === 2 && !announce) return;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (e.name.startsWith(".")) continue;
      // Dirent types come from the listing (no stat, symlinks are neither), as in the store's scan.
      if (level === 0 && e.isDirectory()) await this.watchDir(join(dir, e.name), 1, announce);
      else if (level === 1 && e.name === "recipes" && e.isDirectory())
        await this.watchDir(join(dir, e.name), 2, announce);
      else if (level === 2 && announce && e.isFile() && e.name.endsWith(".md"))
        this.onFsEvent(join(dir, e.name));
    }
  }

  private onDirEvent(dir: string, level: Level, name: string | null): void {
    if (this.closed) return;
    if (name === null) {
      // A platform that does not say which entry changed: look at all of them.
      void this.list(dir, level, true);
      return;
    }
    // Linux reports the watched folder's own removal under its name.
    if (level === 0 && name === basename(dir)) this.checkGroupsIdentity();
    // Dot names: .git, editor swap and lock files (.x.md.swp, .#x.md).
    if (name.startsWith(".") || name.includes(sep)) return;
    const path = join(dir, name);
    if (level === 2) {
      if (name.endsWith(".md")) this.onFsEvent(path);
      return;
    }
    if (level === 1 && name !== "recipes") return;
    // A group folder (or a group's recipes folder) appeared or went away.
    void lstat(path).then(
      // A symlink in a folder's place is not followed: as far as recipes go, the folder is gone.
      (st) => (st.isDirectory() ? this.watchDir(path, (level + 1) as Level, true) : this.folderGone(path)),
      () => this.folderGone(path),
    );
  }

  /** Stop watching a folder that went away, and everything below it; the store rescans its group. */
  private folderGone(path: string): void {
    let any = false;
    for (const dir of [...this.dirs.keys()]) {
      if (dir === path || dir.startsWith(path + sep)) {
        this.unwatch(dir);
        any = true;
      }
    }
    const group = relative(this.opts.groupsDir, path).split(sep)[0];
    if (any && group && !this.closed) this.opts.onFolderGone?.(group);
  }

  private unwatch(dir: string): void {
    this.dirs.get(dir)?.close();
    this.dirs.delete(dir);
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

  /**
   * A file failed to parse: true when it should be re-read in `delayMs` before being called broken
   * (editors write in steps), false once that re-read failed too.
   */
  retryLater(file: WatchedFile, delayMs: number): boolean {
    const key = `${file.groupSlug}/${file.slug}`;
    const first = this.retries.get(key);
    if (first === undefined) {
      this.retries.set(key, Date.now());
      this.enqueue(file, delayMs);
      return true;
    }
    // Still failing once the re-read is due: broken. Failing sooner: the editor is mid-save.
    if (Date.now() - first >= delayMs) {
      this.retries.delete(key);
      return false;
    }
    return true;
  }

  /** The file parsed, vanished or was given up on: forget its first failure. */
  clearRetry(file: WatchedFile): void {
    this.retries.delete(`${file.groupSlug}/${file.slug}`);
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
    const wait = Math.max(
      0,
      Math.min(this.opts.debounceMs, (this.firstPendingAt ?? Date.now()) + maxWait - Date.now()),
    );
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
      const busy =
        !this.paused &&
        (this.pending.size > 0 || this.timer !== null || this.delayed.size > 0 || this.settling.size > 0);
      if (!busy || this.closed) return;
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.identityTimer) clearInterval(this.identityTimer);
    this.awaiting?.close();
    this.awaiting = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const t of [...this.delayed, ...this.settling.values()]) clearTimeout(t);
    this.delayed.clear();
    this.settling.clear();
    this.pending.clear();
    for (const dir of [...this.dirs.keys()]) this.unwatch(dir);
    if (this.running) await this.running;
  }
}
