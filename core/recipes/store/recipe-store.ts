/**
 * The recipe store of one data folder: every recipe in memory, each one a Markdown file on disk
 * (ARCHITECTURE §3, §4). Reads never touch the disk. Writes are atomic, refused with 409 when the
 * file changed on disk since it was indexed, and never touch a file that does not parse.
 */
import { existsSync, lstatSync, readFileSync } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import type { RecipeDoc } from "../doc.js";
import { serializeRecipeFile } from "../file/recipe-file.js";
import { readRecipeFile } from "./fast-read.js";
import type { DataFolder } from "../../storage/data-folder.js";
import { errnoCode } from "../../storage/atomic-write.js";
import { BadRequestError, ConflictError, NotFoundError } from "../../errors.js";
import { consoleLogger, type Logger } from "../../log/logger.js";
import { canonicalUuid, newId } from "../../util/ids.js";
import {
  changedOnDisk,
  commitFile,
  differs,
  diskFingerprintSync,
  exists,
  hashText,
  listRecipeFiles,
  listRecipeGroups,
  recipesDirOrNull,
  type FileFingerprint,
} from "./file-state.js";
import {
  moveIfUnchanged,
  recoverAsideFiles,
  removeIfUnchanged,
  replaceIfUnchanged,
  type Guarded,
} from "./replace-file.js";
import { keyOf, usableId, type Location } from "./identity.js";
import { statAhead } from "./read-files.js";
import { RecipeIndex } from "./recipe-index.js";
import { sameDoc } from "./same-doc.js";
import { markMediaMove } from "./media-move.js";
import { laterStamp, predatesHandEdit } from "./stamps.js";
import { needingLoneWork, syncFiles, writeBackLater, type SyncContext, type SyncMode } from "./sync.js";
import { StoreCache } from "./store-cache.js";
import type {
  BrokenFile,
  RecipeChange,
  RecipeProblem,
  RecipeEntry,
  RecipeStoreOptions,
  RecipeStoreStats,
  SaveOptions,
} from "./types.js";
import { RecipeWatcher } from "./watcher.js";
import { WriteGate } from "./write-gate.js";

export type ChangeListener = (change: RecipeChange) => void;

export class RecipeStore {
  private readonly index = new RecipeIndex();
  private readonly folder: DataFolder;
  private readonly log: Logger;
  private readonly now: () => Date;
  private readonly listeners = new Set<ChangeListener>();
  private readonly retryMs: number;
  private readonly ctx: SyncContext;
  private fsWatcher: RecipeWatcher | null = null;
  /** Write-backs waiting for their file to be left alone (sync.ts WRITE_BACK_QUIET_MS). */
  private deferredWriteBacks = new Map<NodeJS.Timeout, { finished: Promise<void>; cancel(): void }>();
  /** One mutation at a time (API writes, watcher bursts, write-backs): a 409 check and its write never interleave with a reload. */
  private readonly gate = new WriteGate();
  private state: "new" | "open" | "closed" = "new";
  private readonly cache: StoreCache | null;
  private openMs = 0;

  constructor(private readonly opts: RecipeStoreOptions) {
    this.folder = opts.folder;
    this.log = opts.log ?? consoleLogger();
    this.now = opts.now ?? (() => new Date());
    this.retryMs = opts.retryMs ?? 150;
    this.cache =
      (opts.cache ?? true)
        ? new StoreCache({
            folder: this.folder,
            index: this.index,
            readOnly: opts.readOnly ?? false,
            vocabularyVersion: (g) => opts.vocabularyVersion(g),
            isOpen: () => this.state === "open",
            now: () => this.now().getTime(),
            log: this.log,
          })
        : null;
    this.ctx = {
      index: this.index,
      folder: this.folder,
      vocabularyFor: (g) => opts.vocabularyFor(g),
      vocabularyVersion: (g) => opts.vocabularyVersion(g),
      firstAdminOf: (g) => opts.firstAdminOf(g),
      isGroupMember: (g, u) => opts.isGroupMember?.(g, u) ?? null,
      now: this.now,
      readOnly: opts.readOnly ?? false,
      log: this.log,
      retryLater: (loc) => this.fsWatcher?.retryLater(loc, this.retryMs) ?? false,
      clearRetry: (loc) => this.fsWatcher?.clearRetry(loc),
      cache: this.cache?.index ?? null,
      deferWriteBack: (wb, delayMs) => {
        if (this.state !== "open") return false;
        let done: () => void = () => undefined;
        const finished = new Promise<void>((resolve) => (done = resolve));
        const timer = setTimeout(() => {
          this.deferredWriteBacks.delete(timer);
          if (this.state !== "open") return done();
          void this.exclusive(() => writeBackLater(this.ctx, wb))
            .catch(() => undefined)
            .finally(done);
        }, delayMs);
        timer.unref();
        this.deferredWriteBacks.set(timer, { finished, cancel: done });
        return true;
      },
    };
  }

  /** Scan every `groups/<g>/recipes/*.md`, apply the identity rules, start the watcher. Announces nothing: subscribers start from `all()`. */
  async open(o: { watch?: boolean } = {}): Promise<void> {
    if (this.state !== "new") throw new Error("RecipeStore.open: already opened");
    this.state = "open";
    if (!this.ctx.readOnly) {
      await mkdir(this.folder.groupsDir, { recursive: true });
      await mkdir(this.folder.tmpDir, { recursive: true, mode: 0o700 });
    }
    if (o.watch ?? this.opts.watch ?? true) {
      const watcher = new RecipeWatcher({
        groupsDir: this.folder.groupsDir,
        debounceMs: this.opts.debounceMs ?? 75,
        onBatch: (files) => this.sync(files, "watch"),
        // Moved away as a whole, the folder's files send no events of their own.
        onFolderGone: (g) =>
          void this.rescan(g).catch((e: unknown) => this.log.warn(`rescanning group ${g}:`, e)),
        onError: (e) => this.log.warn("recipe watcher:", e),
      });
      // Started before the scan, so a change made during the scan is not missed.
      await watcher.start();
      this.fsWatcher = watcher;
    }
    if (!this.ctx.readOnly) {
      for (const g of await listRecipeGroups(this.folder)) {
        const dir = recipesDirOrNull(this.folder, g);
        if (dir !== null) await recoverAsideFiles(dir, this.log);
      }
    }
    const t0 = performance.now();
    await this.scanAtOpen();
    this.openMs = performance.now() - t0;
    const c = this.cache?.stats();
    const same = c?.sameBytes ? ` (${c.sameBytes} with the bytes the cache had parsed)` : "";
    const from = c ? `${c.hits} from the cache, ${c.misses} read${same}; cache ${c.state}` : "no cache";
    this.log.info(
      `recipe index: ${this.index.all().length} recipes (${from}) in ${Math.round(this.openMs)} ms`,
    );
    this.cache?.opened();
  }

  /**
   * The files are listed and stat'ed (on the disk thread) while the cache decodes, when there is a cache
   * to check them against: the watcher, already started, reports any change made after a stat. A method
   * of its own: in `open`, the list and the stats (an object per recipe) shared a scope with the
   * watcher's callbacks, which kept them for the life of the server.
   */
  private async scanAtOpen(): Promise<void> {
    const files = await listRecipeFiles(this.folder);
    const ahead = this.cache && existsSync(this.cache.index.path) ? statAhead(this.ctx, files) : null;
    await this.cache?.load();
    const stats = await ahead;
    await this.exclusive(async () => {
      await syncFiles(this.ctx, files, "initial", stats);
    });
  }

  async close(): Promise<void> {
    if (this.state === "closed") return;
    const opened = this.state === "open";
    this.state = "closed";
    if (!opened) return;
    // An id not yet written goes in at the next start, when the file is read again.
    for (const [timer, { cancel }] of this.deferredWriteBacks) {
      clearTimeout(timer);
      cancel();
    }
    this.deferredWriteBacks.clear();
    await this.fsWatcher?.close();
    this.fsWatcher = null;
    await this.gate.idle();
    this.listeners.clear();
    await this.cache?.save();
  }

  /** Counts of the index and the state of its cache. */
  stats(): RecipeStoreStats {
    return { ...this.readable().counts(), openMs: this.openMs, cache: this.cache?.stats() ?? null };
  }

  /** Write the warm-start cache now if it changed (also done by a timer and at close). */
  async saveCache(): Promise<void> {
    await this.cache?.save();
  }

  /** The store wrote this file version itself: what reading it back gives is known. */
  private rememberWrite(
    groupSlug: string,
    slug: string,
    file: FileFingerprint,
    writtenAt: number,
    doc: RecipeDoc,
  ): void {
    this.cache?.rememberWrite({ groupSlug, slug }, file, writtenAt, doc);
  }

  /** The file watcher (null when not watching): `pause()` / `resume()` make tests of §3.4 deterministic. */
  /** Whether the recipes were read (a CLI command about people leaves them unread, decision 0202). */
  get isOpen(): boolean {
    return this.state === "open";
  }

  get watcher(): RecipeWatcher | null {
    return this.fsWatcher;
  }

  /** Resolves when the watcher has handled everything it has been told about, ids written back included. */
  async settled(): Promise<void> {
    for (;;) {
      await this.fsWatcher?.idle();
      await this.gate.idle();
      if (this.deferredWriteBacks.size === 0) return;
      await Promise.all([...this.deferredWriteBacks.values()].map((d) => d.finished));
    }
  }

  on(_event: "change", listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  off(_event: "change", listener: ChangeListener): void {
    this.listeners.delete(listener);
  }

  // ── Reads: the index only ────────────────────────────────────────────────────────────────────

  /** By slug, else by id, within one group. */
  get(groupSlug: string, slugOrId: string): RecipeEntry | null {
    const bySlug = this.readable().get(groupSlug, slugOrId);
    if (bySlug) return bySlug;
    const canonical = canonicalUuid(slugOrId);
    const byId = this.index.getById(slugOrId) ?? (canonical ? this.index.getById(canonical) : null);
    return byId && byId.groupSlug === groupSlug ? byId : null;
  }

  getById(id: string): RecipeEntry | null {
    return this.readable().getById(id);
  }

  list(groupSlug: string): RecipeEntry[] {
    return this.readable().list(groupSlug);
  }

  all(): RecipeEntry[] {
    return this.readable().all();
  }

  broken(): BrokenFile[] {
    return this.readable().broken();
  }

  /** Problems the identity rules settled by themselves (duplicate ids, foreign owners), for a person to review. */
  problems(): RecipeProblem[] {
    return this.readable().problems();
  }

  /** How many recipes of the group have this name (trimmed, any case). */
  nameCount(groupSlug: string, name: string): number {
    return this.readable().nameCount(groupSlug, name);
  }

  /**
   * True when a file of that name exists as far as the index knows, even one that does not parse, or
   * anything at all is at its path: a symlink or a folder the store never reads, or a file not seen yet.
   * A new recipe then takes the next free name instead of a 409 that no reload would ever clear.
   */
  slugTaken(groupSlug: string, slug: string): boolean {
    return this.indexed(groupSlug, slug) || this.occupiedOnDisk(groupSlug, slug);
  }

  private indexed(groupSlug: string, slug: string): boolean {
    return this.readable().get(groupSlug, slug) !== null || this.index.getBroken(groupSlug, slug) !== null;
  }

  private occupiedOnDisk(groupSlug: string, slug: string): boolean {
    try {
      return lstatSync(this.folder.recipeFile(groupSlug, slug), { throwIfNoEntry: false }) !== undefined;
    } catch {
      // Not listable (a name too long, `recipes` not a folder): the write itself says why.
      return false;
    }
  }

  // ── Writes ───────────────────────────────────────────────────────────────────────────────────

  /** A new recipe file. `doc.id` null: a new random id; `doc.owner` null: the group's first admin. */
  async create(groupSlug: string, slug: string, doc: RecipeDoc): Promise<RecipeEntry> {
    return this.exclusive(async () => {
      const path = this.folder.recipeFile(groupSlug, slug);
      // A file the index has not seen yet is found by the exclusive write below, which reads it in.
      if (this.indexed(groupSlug, slug)) throw new ConflictError(`A recipe named "${slug}" already exists`);
      let id = doc.id;
      if (id !== null && !usableId(id))
        throw new BadRequestError(`Recipe id must be a UUID: ${JSON.stringify(id)}`);
      if (id !== null && this.index.idTaken(id))
        throw new ConflictError(`A recipe with id ${id} already exists`);
      id ??= newId();
      const { text, doc: written } = this.prepare(groupSlug, {
        ...doc,
        id,
        owner: doc.owner ?? this.opts.firstAdminOf(groupSlug),
      });
      await mkdir(dirname(path), { recursive: true });
      let file: FileFingerprint;
      const writtenAt = Date.now();
      try {
        // exclusive: a file created by hand since the index last looked is never replaced.
        file = await this.commit(path, text, true);
      } catch (e) {
        if (errnoCode(e) !== "EEXIST") throw e;
        await this.syncLocked([{ groupSlug, slug }], "reload");
        throw changedOnDisk(groupSlug, slug);
      }
      const entry: RecipeEntry = {
        groupSlug,
        slug,
        doc: written,
        id,
        file,
        seenAt: null,
        vocabularyVersion: this.opts.vocabularyVersion(groupSlug),
      };
      this.index.put(entry);
      this.rememberWrite(groupSlug, slug, file, writtenAt, written);
      this.emit([{ type: "created", groupSlug, slug, id }]);
      return entry;
    });
  }

  /**
   * Replace a recipe's content. Identity is the store's: `doc.id` is ignored, a null `doc.owner`
   * keeps the current owner. Nothing is written when the result equals what is stored, ignoring
   * `dateUpdated` (a save that changes nothing bumps nothing).
   */
  async save(groupSlug: string, slug: string, doc: RecipeDoc, opts: SaveOptions = {}): Promise<RecipeEntry> {
    if (this.state !== "open") throw new Error("RecipeStore is not open");
    // Saves of different recipes run side by side (write-gate.ts). A file found changed on disk is read
    // again alone, as the watcher would (identity rules look across the index), before the 409 goes out.
    const stale: Location[] = [];
    try {
      return await this.gate.beside(keyOf(groupSlug, slug), () =>
        this.saveLocked(groupSlug, slug, doc, opts, async (files) => void stale.push(...files)),
      );
    } finally {
      if (stale.length > 0) await this.sync(stale, "reload");
    }
  }

  private async saveLocked(
    groupSlug: string,
    slug: string,
    doc: RecipeDoc,
    opts: SaveOptions,
    reload: Reload = (files) => this.syncLocked(files, "reload"),
  ): Promise<RecipeEntry> {
    const { cur, path } = this.writable(groupSlug, slug, opts);
    const { text, doc: written } = this.prepare(
      groupSlug,
      { ...doc, id: cur.id, owner: doc.owner ?? cur.doc.owner },
      slug,
    );
    if (sameDoc(written, cur.doc, ["dateUpdated"]) || hashText(text) === cur.file.hash) return cur;
    await this.verifyUnchanged(groupSlug, slug, cur.file, reload);
    const writtenAt = Date.now();
    const file = await this.guarded(
      groupSlug,
      slug,
      replaceIfUnchanged(path, text, this.folder.tmpDir, cur.file),
      [],
      reload,
    );
    const entry: RecipeEntry = {
      ...cur,
      doc: written,
      file,
      vocabularyVersion: this.opts.vocabularyVersion(groupSlug),
    };
    this.index.put(entry);
    this.rememberWrite(groupSlug, slug, file, writtenAt, written);
    this.emit([{ type: "updated", groupSlug, slug, id: cur.id }]);
    return entry;
  }

  /**
   * Run `fn` as lone work: no save, watcher batch or re-read of the store's runs meanwhile. `save`
   * writes as `save()` does, without waiting for the gate `fn` holds.
   */
  alone<T>(fn: (save: LockedSave) => Promise<T>): Promise<T> {
    return this.exclusive(() =>
      fn((groupSlug, slug, doc, opts = {}) => this.saveLocked(groupSlug, slug, doc, opts)),
    );
  }

  /** Save under a new slug: the file and its media folder `recipes/<slug>/` move; the id stays. */
  async rename(
    groupSlug: string,
    oldSlug: string,
    newSlug: string,
    doc: RecipeDoc,
    opts: SaveOptions = {},
  ): Promise<RecipeEntry> {
    return this.exclusive(async () => {
      if (oldSlug === newSlug) return this.saveLocked(groupSlug, oldSlug, doc, opts);
      const { cur, path: oldPath } = this.writable(groupSlug, oldSlug, opts);
      const newPath = this.folder.recipeFile(groupSlug, newSlug);
      if (this.slugTaken(groupSlug, newSlug))
        throw new ConflictError(`A recipe named "${newSlug}" already exists`);
      const { text, doc: written } = this.prepare(
        groupSlug,
        { ...doc, id: cur.id, owner: doc.owner ?? cur.doc.owner },
        oldSlug,
      );
      await this.verifyUnchanged(groupSlug, oldSlug, cur.file);
      if (await exists(newPath)) {
        await this.syncLocked([{ groupSlug, slug: newSlug }], "reload");
        throw changedOnDisk(groupSlug, newSlug);
      }
      const oldMedia = this.folder.recipeMediaDir(groupSlug, oldSlug);
      const newMedia = this.folder.recipeMediaDir(groupSlug, newSlug);
      // Left behind by a hand-deleted recipe, say: merging two recipes' images is never right.
      if (await exists(newMedia))
        throw new ConflictError(`A media folder recipes/${newSlug}/ already exists in group ${groupSlug}`);
      // A kill between the file's move and the folder's is finished at the next open (media-move.ts).
      const moving = (await exists(oldMedia)) ? await markMediaMove(this.folder, oldMedia, newMedia) : null;
      try {
        // The file moves first, with its old content: one atomic step after which exactly one file
        // holds the id. A crash later leaves a consistent recipe under the new name.
        await this.guarded(groupSlug, oldSlug, moveIfUnchanged(oldPath, newPath, cur.file), [
          { groupSlug, slug: newSlug },
        ]);
        this.index.delete(groupSlug, oldSlug);
        this.index.put({ ...cur, slug: newSlug });
        try {
          await rename(oldMedia, newMedia);
        } catch (e) {
          if (errnoCode(e) !== "ENOENT") {
            await rename(newPath, oldPath);
            this.index.delete(groupSlug, newSlug);
            this.index.put(cur);
            throw e;
          }
        }
      } finally {
        await moving?.done();
      }
      let entry: RecipeEntry = {
        ...cur,
        slug: newSlug,
        doc: written,
        vocabularyVersion: this.opts.vocabularyVersion(groupSlug),
      };
      const writtenAt = Date.now();
      if (hashText(text) !== cur.file.hash) {
        entry = {
          ...entry,
          file: await this.guarded(
            groupSlug,
            newSlug,
            replaceIfUnchanged(newPath, text, this.folder.tmpDir, cur.file),
          ),
        };
      }
      this.index.put(entry);
      this.cache?.forget({ groupSlug, slug: oldSlug });
      // Unchanged content keeps its mtime through rename(2); either way the entry is checked against
      // the disk before it is first written to the cache (its readAt is not after its mtime).
      this.rememberWrite(groupSlug, newSlug, entry.file, Math.min(writtenAt, entry.file.mtimeMs), written);
      this.emit([{ type: "renamed", groupSlug, slug: newSlug, oldSlug, id: cur.id }]);
      return entry;
    });
  }

  /** Delete the file and its media folder. */
  async remove(groupSlug: string, slug: string): Promise<void> {
    return this.exclusive(async () => {
      const { cur, path } = this.writable(groupSlug, slug, {});
      // Already gone is fine; changed since indexed is not: deleting would lose that hand edit.
      await this.guarded(groupSlug, slug, removeIfUnchanged(path, cur.file));
      await rm(this.folder.recipeMediaDir(groupSlug, slug), { recursive: true, force: true });
      this.index.delete(groupSlug, slug);
      this.cache?.forget({ groupSlug, slug });
      this.emit([{ type: "deleted", groupSlug, slug, id: cur.id }]);
    });
  }

  // ── Keeping current ──────────────────────────────────────────────────────────────────────────

  /** Re-read one file now (a changed file counts as a hand edit). */
  async reload(groupSlug: string, slug: string): Promise<void> {
    await this.sync([{ groupSlug, slug }], "reload");
  }

  /** Re-read every file of one group (or all): for a new group folder, or a sync done without the watcher. */
  async rescan(groupSlug?: string): Promise<void> {
    await this.exclusive(async () => {
      const files = await listRecipeFiles(this.folder, groupSlug);
      for (const g of groupSlug !== undefined ? [groupSlug] : this.index.groupSlugs()) {
        for (const slug of this.index.slugsOf(g)) files.push({ groupSlug: g, slug });
      }
      await this.syncLocked(files, "reload");
    });
  }

  /** Re-read the recipes of a group whose foods or units changed (ingredient lines read differently). */
  async refreshVocabulary(groupSlug: string): Promise<void> {
    await this.sync(
      this.index.list(groupSlug).map((e) => ({ groupSlug, slug: e.slug })),
      "vocabulary",
    );
  }

  // ── Internals ────────────────────────────────────────────────────────────────────────────────

  /**
   * The index, once the folder was scanned: a store left unopened (a CLI command that needs no
   * recipes, decision 0202) has an empty index, and an answer from it would be wrong, not empty.
   */
  private readable(): RecipeIndex {
    if (this.state === "new") throw new Error("RecipeStore: the recipes were not opened");
    return this.index;
  }

  private async sync(files: Location[], mode: SyncMode): Promise<void> {
    // A burst arriving while the store closes has nowhere to go; that is not an error.
    if (this.state !== "open") return;
    // The store's own writes coming back are settled without waiting for, or holding up, the saves.
    const rest = mode === "watch" ? needingLoneWork(this.ctx, files) : files;
    if (rest.length === 0) return;
    return this.exclusive(() => this.syncLocked(rest, mode));
  }

  private async syncLocked(files: Location[], mode: SyncMode): Promise<void> {
    if (this.state !== "open") return;
    const changes = await syncFiles(this.ctx, files, mode);
    await this.mediaFollowsRenames(changes);
    this.emit(changes);
  }

  /**
   * A recipe file renamed by hand (`mv`, `git mv`, a file manager) takes its media folder along, as a
   * rename through the API does: the folder is named after the file, and left behind, the recipe lost
   * its photo and the folder became an orphan. Not when the person moved the folder too, when the new
   * name has a folder of its own, or when a file has the old name again.
   */
  private async mediaFollowsRenames(changes: RecipeChange[]): Promise<void> {
    if (this.ctx.readOnly) return;
    for (const c of changes) {
      if (c.type !== "renamed" || !c.oldSlug) continue;
      const from = this.folder.recipeMediaDir(c.groupSlug, c.oldSlug);
      const to = this.folder.recipeMediaDir(c.groupSlug, c.slug);
      if (!(await exists(from)) || (await exists(to))) continue;
      if (await exists(this.folder.recipeFile(c.groupSlug, c.oldSlug))) continue;
      await rename(from, to).catch((e: unknown) =>
        this.log.warn(`the media folder of ${c.groupSlug}/${c.oldSlug} did not follow its renamed file:`, e),
      );
    }
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (this.state !== "open") return Promise.reject(new Error("RecipeStore is not open"));
    return this.gate.alone(fn);
  }

  private emit(changes: RecipeChange[]): void {
    this.cache?.changed(changes.length);
    for (const change of changes) {
      for (const listener of this.listeners) {
        try {
          listener(change);
        } catch (e) {
          // A failing subscriber (search index, webhook queue) must not undo or block a write.
          this.log.error(
            `recipe change listener failed on ${change.type} ${change.groupSlug}/${change.slug}:`,
            e,
          );
        }
      }
    }
  }

  /**
   * The entry a write may replace, and its file: it exists and parses, and the client has seen the last
   * hand edit. A recipes folder replaced by a symlink is refused first, by the path (409).
   */
  private writable(groupSlug: string, slug: string, opts: SaveOptions): { cur: RecipeEntry; path: string } {
    const path = this.folder.recipeFile(groupSlug, slug);
    const cur = this.index.get(groupSlug, slug);
    const where = `groups/${groupSlug}/recipes/${slug}.md`;
    const broken = cur?.broken ?? this.index.getBroken(groupSlug, slug)?.broken;
    if (broken)
      throw new ConflictError(
        `The recipe file ${where} cannot be read (${broken.message}); fix it by hand before changing it here`,
      );
    if (!cur) throw new NotFoundError("No Entry Found");
    if (predatesHandEdit(opts.ifUnchangedSince, cur.seenAt)) {
      throw new ConflictError(
        `The recipe file ${where} was changed on disk at ${cur.seenAt}, after your copy (${opts.ifUnchangedSince}); reload it and try again`,
      );
    }
    const base = opts.basedOn;
    if (base && base.id === cur.id && base.file.hash !== cur.file.hash && base.seenAt !== cur.seenAt)
      throw changedOnDisk(groupSlug, slug);
    return { cur, path };
  }

  /** Serialize, and refuse to write text that does not read back: a file we cannot read is a lost recipe. */
  private prepare(groupSlug: string, doc: RecipeDoc, replacing?: string): { text: string; doc: RecipeDoc } {
    const vocab = this.opts.vocabularyFor(groupSlug);
    const text = serializeRecipeFile(
      doc,
      vocab,
      replacing === undefined ? undefined : this.currentText(groupSlug, replacing),
    );
    let back: RecipeDoc;
    try {
      // The reader a restart and the watcher use (its fast path reads what the serializer writes; any
      // other text goes through parseRecipeFile), so memory holds exactly what they would read.
      back = readRecipeFile(text, vocab);
    } catch (e) {
      throw new Error(
        `refusing to write recipe ${doc.id ?? doc.name}: its file would not read back (${e instanceof Error ? e.message : String(e)})`,
      );
    }
    // Memory holds what a restart would read, so the index never drifts from the disk.
    return { text, doc: { ...back, id: doc.id, owner: doc.owner } };
  }

  /**
   * The file a save replaces, for the comments a person wrote in it (comments.ts). Read synchronously like
   * the save's other steps; a file changed since it was indexed is refused later (verifyUnchanged).
   */
  private currentText(groupSlug: string, slug: string): string | undefined {
    try {
      return readFileSync(this.folder.recipeFile(groupSlug, slug), "utf8");
    } catch {
      return undefined;
    }
  }

  /**
   * Invariant 4: the file must still be the version indexed. If not, the index takes the disk's
   * version (announced like any hand edit) and the write is refused. writeFileAtomic has no hook
   * between its fsync and its rename, so this runs just before it is called.
   */
  private async verifyUnchanged(
    groupSlug: string,
    slug: string,
    known: FileFingerprint,
    reload: Reload = (files) => this.syncLocked(files, "reload"),
  ): Promise<void> {
    // Read synchronously, like the save's own steps (replace-file.ts): a small file from the page cache.
    const disk = diskFingerprintSync(this.folder.recipeFile(groupSlug, slug));
    if (!differs(known, disk)) return;
    await reload([{ groupSlug, slug }]);
    throw changedOnDisk(groupSlug, slug);
  }

  /**
   * Await a compare-and-swap write (replace-file.ts); when the disk was not the version indexed, the
   * index takes what is there now (announced like any hand edit) and the write is refused with 409.
   */
  private async guarded<T>(
    groupSlug: string,
    slug: string,
    op: Promise<Guarded<T>>,
    alsoReload: Location[] = [],
    reload: Reload = (files) => this.syncLocked(files, "reload"),
  ): Promise<T> {
    const r = await op;
    if (r !== "changed") return r as T;
    await reload([{ groupSlug, slug }, ...alsoReload]);
    throw changedOnDisk(groupSlug, slug);
  }

  private commit(path: string, text: string, exclusive: boolean): Promise<FileFingerprint> {
    return commitFile(path, text, this.folder.tmpDir, exclusive);
  }
}

/** `RecipeStore.save` for work that already holds the store's gate (`RecipeStore.alone`). */
export type LockedSave = (
  groupSlug: string,
  slug: string,
  doc: RecipeDoc,
  opts?: SaveOptions,
) => Promise<RecipeEntry>;

/** How a write that found its file changed on disk has the disk's version read into the index. */
type Reload = (files: Location[]) => Promise<void>;

/** The `updatedAt` to report: the later of the front matter and the time a hand edit was seen (§8). */
export function entryUpdatedAt(entry: RecipeEntry): string | null {
  return laterStamp(entry.doc.dateUpdated, entry.seenAt);
}
