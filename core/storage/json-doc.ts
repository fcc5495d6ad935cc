/**
 * JsonDoc: one JSON document of the data folder held in memory and written through the canonical
 * writer (ARCHITECTURE §2). lowdb holds the state; its adapter here replaces lowdb's default writer
 * (temp file beside the target, no fsync, unsorted) with canonicalJson + writeFileAtomic.
 *
 * A file that fails to parse or validate keeps the last good state in memory, is reported through
 * `broken`, and is never written until it is fixed on disk, so a hand edit gone wrong is not overwritten.
 */
import { createHash } from "node:crypto";
import { open } from "node:fs/promises";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { Low, type Adapter } from "lowdb";
import { z } from "zod";
import { ConflictError, ValidationError } from "../errors.js";
import { errnoCode, writeFileAtomic } from "./atomic-write.js";
import { assertRealFolders } from "./data-folder.js";
import { canonicalJson, canonicalParts, RecordTexts } from "./canonical-json.js";
import { noteChange } from "./change-count.js";
import { validateChanged, type Issue } from "./incremental-validate.js";
import { collectExtraKeys, withExtraKeys, type ExtraKeys } from "./extra-keys.js";

export interface JsonDocOptions<T> {
  /** State of a document whose file does not exist yet. Called for a fresh value each time. */
  defaults: () => T;
  /** Validates what is read and what is written; its output becomes `data` (defaults filled in). */
  schema?: z.ZodType<T>;
  /** Temp directory on the same file system (`.larder/tmp`). */
  tmpDir: string;
  /** Arrays ordered by position then id on write (see CanonicalJsonOptions.sortArraysAt). */
  arraysSortedBy?: readonly string[];
  /** File mode for writes (0o600 for documents under `.larder/`). */
  mode?: number;
  /**
   * The opener reports a file that cannot be read itself, in its own words (the sessions document,
   * which it puts aside; group and household documents, whose group or household it leaves out).
   */
  reportsOwnBreakage?: boolean;
  /**
   * A file deleted while the document is open is written back from memory, as its last good state,
   * instead of the document turning empty: documents the rest of the site stands on (the site, its
   * users, a group, a household), which nobody means to empty by deleting them (decision 0229).
   */
  writtenBackWhenDeleted?: boolean;
  /**
   * The data folder the document is in, so that no write goes through a symlink put in place of a
   * folder on the way (default: the folder whose `.larder/tmp` is `tmpDir`).
   */
  root?: string;
}

/**
 * Throws when a folder between the data folder and `file` is not a real folder (a household folder
 * replaced by a link to elsewhere): the write would land wherever it points. Checked again at each
 * write, since a document opened at start holds its path for as long as the server runs.
 */
function noLinkOnTheWay(root: string | null, file: string): void {
  if (root !== null) assertRealFolders(root, path.dirname(file));
}

/** The data folder of a document (JsonDocOptions.root); null when it cannot be told. */
function rootOf(options: { root?: string; tmpDir: string }): string | null {
  if (options.root !== undefined) return options.root;
  const larder = path.dirname(options.tmpDir);
  return path.basename(options.tmpDir) === "tmp" && path.basename(larder) === ".larder"
    ? path.dirname(larder)
    : null;
}

export type JsonDocEvent<T> =
  { type: "change"; origin: "update" | "reload"; data: T } | { type: "broken"; message: string };

/**
 * What `reload()` found on disk. "rewritten": the file was gone and is written back from memory
 * (`writtenBackWhenDeleted`); "kept": it was gone with its folder, and memory keeps its last state.
 */
export type ReloadOutcome = "unchanged" | "reloaded" | "missing" | "broken" | "rewritten" | "kept";
/** What `probe()` found on disk, without applying it. */
export type ProbeOutcome = "same" | "changed" | "invalid" | "missing";

/** Thrown by `update()` while the file on disk is broken: writing would overwrite the user's edit. */
export class BrokenDocumentError extends ConflictError {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path} cannot be parsed (${reason}); fix the file before changing it`);
  }
}

class DocumentParseError extends Error {}

/** A write found the file changed by someone else since it was read: the write is dropped, the file reloaded. */
/**
 * A document's text: strict UTF-8, as recipe files are read. A lenient decode would turn every byte of
 * a hand edit saved in another encoding into U+FFFD, and the next write would keep the damage. A
 * byte-order mark, which some editors write, is dropped.
 */
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });
function utf8Text(bytes: Buffer): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    throw new DocumentParseError(
      "not UTF-8 text: save the file in UTF-8 (the server never rewrites it until then)",
    );
  }
}

export class FileChangedOnDiskError extends ConflictError {
  constructor(readonly path: string) {
    super(
      `${path.split(/[\\/]/).slice(-3).join("/")} was changed on disk; the change was not saved, reload and try again`,
    );
  }
}

function fingerprint(st: { size: number; mtimeMs: number; ino: number }): string {
  return `${st.size}:${st.mtimeMs}:${st.ino}`;
}

/**
 * Set by the test suite: every update is validated both ways and must come out the same, and a
 * replace() updater must leave the state it is given as it was.
 */
const VERIFY_INCREMENTAL = process.env.LARDER_VERIFY_INCREMENTAL === "1";

/** A document this long or longer is encoded into a buffer its adapter keeps (CanonicalJsonAdapter.serialise). */
const LARGE_DOC_CHARS = 32 * 1024;

function issueKeys(issues: readonly Issue[]): string[] {
  return issues.map((i) => JSON.stringify([i.path.map(String), i.message, i.code])).sort();
}

function verifyIncremental<T>(
  schema: z.ZodType<T>,
  value: T,
  incremental: { success: true; data: T } | { success: false; issues: Issue[] },
): void {
  const full = schema.safeParse(value);
  const same = full.success
    ? incremental.success && isDeepStrictEqual(incremental.data, full.data)
    : !incremental.success && isDeepStrictEqual(issueKeys(incremental.issues), issueKeys(full.error.issues));
  if (!same)
    throw new Error(
      `incremental validation differs from the schema's: ${JSON.stringify(incremental)} against ${JSON.stringify(full)}`,
    );
}

const openListeners = new Set<(doc: JsonDoc<unknown>) => void>();

/**
 * Be told of every document opened from now on (the server watches them all for hand edits, whichever
 * service opened them). Returns the function that stops listening.
 */
export function onDocumentOpened(listener: (doc: JsonDoc<unknown>) => void): () => void {
  openListeners.add(listener);
  return () => openListeners.delete(listener);
}

const writtenBackListeners = new Set<(doc: JsonDoc<unknown>) => void>();

/**
 * Be told each time a document writes its deleted file back from memory (`writtenBackWhenDeleted`),
 * whichever reload did it: the watcher's, or the one a write that found the file gone runs. Told once
 * per file put back, after it is there. Returns the function that stops listening.
 */
export function onDocumentWrittenBack(listener: (doc: JsonDoc<unknown>) => void): () => void {
  writtenBackListeners.add(listener);
  return () => writtenBackListeners.delete(listener);
}

/** sha256 of a text's UTF-8 bytes (or of the bytes themselves): a file's bytes and their text hash alike. */
export function sha256(text: string | Buffer): string {
  return createHash("sha256").update(text).digest("hex");
}

/** lowdb adapter: parse + validate on read, canonical atomic write, and the text known to be on disk. */
class CanonicalJsonAdapter<T> implements Adapter<T> {
  /**
   * sha256 of the text last read from or written to the file; null when the file was missing. A hash,
   * not the text: kept from one write to the next, a large document's text outlived the young
   * generation on every write (decision 0190).
   */
  knownHash: string | null = null;
  /** sha256 of the write in progress: on disk from its rename until `knownHash` takes it. */
  writingHash: string | null = null;
  /** Writes completed: a read that spans one may have seen the file before it. */
  writes = 0;
  /** Size, mtime and inode of the file as last read or written: a write first checks nobody changed it. */
  private seen: string | null = null;
  /**
   * Set while the state came from replace(), whose unchanged records are the previous state's own
   * objects: a write then reuses their texts from the last write instead of writing them again.
   */
  reuseRecords = false;
  readonly #records = new RecordTexts();
  /** Keys of the file the schema does not know, written back with the document (extra-keys.ts). */
  extraKeys: ExtraKeys | null = null;
  /** Those of the text parse() read last, taken as `extraKeys` once what it read is accepted. */
  parsedExtraKeys: ExtraKeys | null = null;

  constructor(
    private readonly file: string,
    private readonly options: JsonDocOptions<T>,
  ) {}

  /**
   * The file's bytes. Hashed as bytes, and decoded only when they differ from what this document knows:
   * decoding a large document and encoding it again to hash it was most of the watcher's look at each
   * of the store's own writes (0.8 of 1.2 ms for a 160 kB ratings document).
   */
  async readBytes(): Promise<Buffer | null> {
    let fh;
    try {
      fh = await open(this.file, "r");
    } catch (e) {
      if (errnoCode(e) === "ENOENT") {
        this.lastRead = null;
        return null;
      }
      throw e;
    }
    try {
      // The stat of the very file read (a rename meanwhile cannot mix another file's stat in).
      const st = await fh.stat();
      const bytes = await fh.readFile();
      this.lastRead = fingerprint(st);
      return bytes;
    } finally {
      await fh.close();
    }
  }

  /** The fingerprint of the last readBytes(), taken as `seen` once what it read is accepted. */
  private lastRead: string | null = null;

  /** What was just read is now what the document holds (read at open, a reload). */
  acceptRead(): void {
    this.seen = this.lastRead;
  }

  parse(text: string): T {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      throw new DocumentParseError(`invalid JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (!this.options.schema) return raw as T;
    // jitless: zod otherwise writes and compiles a parser per object schema on its first parse, which
    // pays off over many parses; a document is parsed when it is read (the start, an edit on disk), and
    // that code generation was a measurable share of a start (decision 0139).
    const result = this.options.schema.safeParse(raw, { jitless: true });
    if (!result.success)
      throw new DocumentParseError(`invalid content: ${z.prettifyError(result.error).replace(/\n/g, "; ")}`);
    this.parsedExtraKeys = collectExtraKeys(raw, result.data);
    return result.data;
  }

  async read(): Promise<T | null> {
    const bytes = await this.readBytes();
    if (bytes === null) return null;
    const value = this.parse(utf8Text(bytes));
    this.knownHash = sha256(bytes);
    this.extraKeys = this.parsedExtraKeys;
    this.acceptRead();
    return value;
  }

  /**
   * The document's canonical text as UTF-8. Valid until the next call: a large document is encoded
   * into a buffer this adapter keeps (writes of one document never overlap), piece by piece.
   */
  serialise(data: T): Buffer {
    const sortArraysAt = this.options.arraysSortedBy;
    if (!this.reuseRecords) this.#records.clear();
    let value: unknown = data;
    if (this.extraKeys) {
      const kept: ExtraKeys = new Map();
      value = withExtraKeys(data, this.extraKeys, kept);
      this.extraKeys = kept.size > 0 ? kept : null;
    }
    const parts = canonicalParts(value, {
      sortArraysAt,
      records: this.reuseRecords ? this.#records : undefined,
    });
    const bytes = this.#encode(parts);
    // Under the test suite, a record changed in place (which would keep its old text) fails loudly.
    if (VERIFY_INCREMENTAL && !bytes.equals(Buffer.from(canonicalJson(value, { sortArraysAt }))))
      throw new Error(`JsonDoc: ${this.file} would be written with a record's old text`);
    return bytes;
  }

  /** Kept for documents of LARGE_DOC_CHARS or more; grown as they grow. */
  #scratch: Buffer | null = null;

  /**
   * The pieces as UTF-8. A large document's text joined into one string, then encoded, was two large
   * objects per write (a group's ratings, written on every rating): one in the old generation,
   * one outside the heap that the collector counts too, and together they brought on its full
   * collections every few seconds under load (decision 0200).
   */
  #encode(parts: string[]): Buffer {
    let chars = 0;
    for (const p of parts) chars += p.length;
    if (chars < LARGE_DOC_CHARS) {
      this.#scratch = null;
      return Buffer.from(parts.join(""), "utf8");
    }
    // Sized for ASCII with room to spare, and grown (by half) when a piece might not fit: a UTF-16
    // unit is at most three bytes of UTF-8. Kept close to the text's size, since the disk thread is
    // sent a copy of the whole buffer.
    let out = this.#scratch;
    if (!out || out.length < chars) out = Buffer.allocUnsafeSlow(Math.ceil(chars * 1.25));
    let at = 0;
    for (const p of parts) {
      if (out.length - at < p.length * 3) {
        const grown = Buffer.allocUnsafeSlow(Math.ceil((at + p.length * 3) * 1.5));
        out.copy(grown, 0, 0, at);
        out = grown;
      }
      at += out.write(p, at);
    }
    this.#scratch = out;
    return out.subarray(0, at);
  }

  async write(data: T): Promise<void> {
    // Encoded once, for the hash and the write.
    const bytes = this.serialise(data);
    // Saving an unchanged document writes nothing: no mtime change, no watcher event, no git noise.
    const hash = sha256(bytes);
    if (hash === this.knownHash) return;
    this.writingHash = hash;
    try {
      noLinkOnTheWay(rootOf(this.options), this.file);
      // Unless this document knows no version of the file, the write replaces only the version it last
      // read or wrote: a hand edit the watcher has not reported yet stays. Looked at where the write is
      // made, between the fsync and the rename, not in a stat of its own before it (decision 0299).
      const ifStill =
        this.seen === null && this.knownHash === null
          ? undefined
          : { fingerprint: this.seen, hash: this.knownHash };
      const written = await writeFileAtomic(this.file, bytes, {
        tmpDir: this.options.tmpDir,
        // A mode or owner given to the file by hand stays (documents under `.larder/` have a fixed mode).
        mode: this.options.mode,
        keep: this.options.mode === undefined,
        ifStill,
      }).catch((e: unknown) => {
        throw errnoCode(e) === "ECHANGED" ? new FileChangedOnDiskError(this.file) : e;
      });
      this.knownHash = hash;
      this.writes++;
      // The file this write put in place, not whatever is there by now: a save by hand landing just
      // after the rename was taken for this write, and the next write replaced it (decision 0298).
      this.seen = written;
    } finally {
      this.writingHash = null;
    }
  }
}

/** Write `data` where the file was deleted, only if nothing has been put there meanwhile. */
async function writeBackDeleted<T>(
  adapter: CanonicalJsonAdapter<T>,
  file: string,
  data: T,
  options: JsonDocOptions<T>,
): Promise<"written" | "exists" | "no-folder"> {
  const bytes = adapter.serialise(data);
  try {
    noLinkOnTheWay(rootOf(options), file);
  } catch {
    // Its folder was replaced by a link: memory keeps the last state, as when the folder is gone.
    return "no-folder";
  }
  try {
    await writeFileAtomic(file, bytes, { tmpDir: options.tmpDir, mode: options.mode, exclusive: true });
  } catch (e) {
    const code = errnoCode(e);
    if (code === "EEXIST") return "exists";
    if (code === "ENOENT") return "no-folder";
    throw e;
  }
  adapter.knownHash = sha256(bytes);
  await adapter.readBytes();
  adapter.acceptRead();
  return "written";
}

/**
 * One update as it can be made again: from a state to the next. `error` is set when, made again on a
 * version saved by hand (decision 0293), it threw or its result failed the schema.
 */
interface Op<T> {
  run: (current: T) => T;
  replaced: boolean;
  error?: unknown;
}

interface Batch<T> {
  promise: Promise<void>;
  resolve: () => void;
  reject: (e: unknown) => void;
  /** The updates the batch's write carries, in the order they were made. */
  ops: Op<T>[];
}

function newBatch<T>(): Batch<T> {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Callers that do not await a write must not cause an unhandled rejection; awaiting callers still see it.
  promise.catch(() => undefined);
  return { promise, resolve, reject, ops: [] };
}

/** How often one write is made again on a newer hand save before the caller gets the 409. */
const REPLAYS = 3;

export class JsonDoc<T> {
  readonly path: string;
  readonly #low: Low<T>;
  readonly #adapter: CanonicalJsonAdapter<T>;
  readonly #options: JsonDocOptions<T>;
  readonly #listeners = new Set<(event: JsonDocEvent<T>) => void>();
  #broken: { message: string } | null = null;
  /** Updates waiting for the next write; they share one write (bursts coalesced). */
  #batch: Batch<T> | null = null;
  /** Tail of the write queue: writes never overlap. */
  #queue: Promise<void> = Promise.resolve();
  #inFlight = 0;
  /** Updates so far: a reload applies what it read only if no update came while it read. */
  #updates = 0;
  /** Whether `data` came out of the schema (read or updated), so an update need only validate its changes. */
  #validated = false;

  private constructor(file: string, options: JsonDocOptions<T>) {
    this.path = path.resolve(file);
    this.#options = options;
    this.#adapter = new CanonicalJsonAdapter(this.path, options);
    this.#low = new Low<T>(this.#adapter, options.defaults());
  }

  /** Open a document: read and validate it now, or start from `defaults` when the file does not exist. */
  static async open<T>(file: string, options: JsonDocOptions<T>): Promise<JsonDoc<T>> {
    const doc = new JsonDoc<T>(file, options);
    try {
      await doc.#low.read();
      doc.#validated = doc.#adapter.knownHash !== null;
    } catch (e) {
      if (!(e instanceof DocumentParseError)) throw e;
      doc.#broken = { message: e.message };
    }
    // A document read for the first time (or again, after a restore) is new state for every reader.
    noteChange();
    for (const listener of openListeners) listener(doc as JsonDoc<unknown>);
    return doc;
  }

  /** The last good state. Treat it as read-only: change it through `update()`. */
  get data(): T {
    return this.#low.data;
  }

  /** Why the file on disk is unusable, or null when it is fine. */
  get broken(): { message: string } | null {
    return this.#broken;
  }

  /** Whether whoever opened the document reports its file being unreadable (JsonDocOptions). */
  get reportsOwnBreakage(): boolean {
    return this.#options.reportsOwnBreakage === true;
  }

  /** sha256 of the text last read or written, so a watcher can recognise the store's own writes. */
  get contentHash(): string | null {
    return this.#adapter.knownHash;
  }

  /** Listen to changes (own updates and reloads) and to the document turning broken. Returns an unsubscribe. */
  onChange(listener: (event: JsonDocEvent<T>) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Change the document and write it. `fn` edits a copy (or returns a new value); if it throws, or the
   * result fails the schema, nothing changes. The new state is visible at once; the returned promise
   * settles when it is on disk. Updates in the same tick share one write; writes never overlap.
   * Throws BrokenDocumentError while the file on disk is broken.
   */
  update(fn: (draft: T) => T | void): Promise<void> {
    if (this.#broken) throw new BrokenDocumentError(this.path, this.#broken.message);
    const run = (current: T): T => {
      const draft = structuredClone(current);
      const returned = fn(draft);
      if (returned instanceof Promise) throw new TypeError("JsonDoc.update: the updater must be synchronous");
      return returned === undefined ? draft : returned;
    };
    return this.#apply({ run, replaced: false });
  }

  /**
   * update() without the deep copy: `fn` gets the current state itself and returns the new one, built
   * from new objects where something changed and the current state's own objects everywhere else. It
   * must not change what it is given, nor move a part of it to another place. For a document that
   * grows with use (a group's ratings), the copy was most of a small change's cost, and it grew with
   * the document.
   */
  replace(fn: (current: Readonly<T>) => T): Promise<void> {
    if (this.#broken) throw new BrokenDocumentError(this.path, this.#broken.message);
    const run = (current: T): T => {
      // Under the test suite, an updater that changes what it was given fails loudly instead of
      // changing the state behind the validation's back.
      const before = VERIFY_INCREMENTAL ? JSON.stringify(current) : null;
      const returned = fn(current);
      if (returned instanceof Promise)
        throw new TypeError("JsonDoc.replace: the updater must be synchronous");
      if (before !== null && JSON.stringify(current) !== before)
        throw new Error(`JsonDoc.replace: the updater of ${this.path} changed the current state`);
      return returned;
    };
    return this.#apply({ run, replaced: true });
  }

  #apply(op: Op<T>): Promise<void> {
    const prev = this.#low.data;
    const next = this.#validate(op.run(prev), this.#validated ? prev : undefined);
    this.#low.data = next;
    this.#adapter.reuseRecords = op.replaced;
    this.#validated = true;
    this.#updates++;
    this.#emit({ type: "change", origin: "update", data: next });
    const batch = this.#scheduleWrite();
    batch.ops.push(op);
    // Each caller hears of its own update: made again on a hand save, one may fail where others hold.
    const settled = batch.promise.then(() => {
      if (op.error !== undefined) throw op.error;
    });
    settled.catch(() => undefined);
    return settled;
  }

  /**
   * The write of `batch` met a save by hand the watcher had not reported (FileChangedOnDiskError):
   * take that version in and make the batch's updates again on it, then those made since (decision
   * 0293), as an API write meeting a hand edit of a recipe does (0282): "again", write once more. A
   * document written back when deleted is written back with the change ("written"). "refused" when
   * there is nothing to build on — the file is gone or does not parse — and the caller gets the 409.
   */
  async #takeInHandSave(batch: Batch<T>): Promise<"again" | "written" | "refused"> {
    const bytes = await this.#adapter.readBytes();
    if (bytes === null) {
      if (!this.#options.writtenBackWhenDeleted) return "refused";
      const back = await writeBackDeleted(this.#adapter, this.path, this.#low.data, this.#options);
      if (back === "exists") return "again";
      if (back !== "written") return "refused";
      this.#broken = null;
      this.#toldWrittenBack();
      return "written";
    }
    let base: T;
    try {
      base = this.#adapter.parse(utf8Text(bytes));
    } catch (e) {
      if (e instanceof DocumentParseError) return "refused";
      throw e;
    }
    // Read after the wait: updates made meanwhile are in the open batch and are made again too.
    const ops = [...batch.ops, ...(this.#batch && this.#batch !== batch ? this.#batch.ops : [])];
    let state = base;
    for (const op of ops) {
      try {
        state = this.#validate(op.run(state), state);
        op.error = undefined;
      } catch (e) {
        op.error = e;
      }
    }
    this.#updates++;
    this.#takeRead(sha256(bytes), state);
    return "again";
  }

  /** A valid version read from the file becomes the state (a reload, or a hand save a write met). */
  #takeRead(hash: string, data: T): void {
    this.#broken = null;
    this.#adapter.knownHash = hash;
    this.#adapter.extraKeys = this.#adapter.parsedExtraKeys;
    this.#adapter.acceptRead();
    this.#low.data = data;
    this.#adapter.reuseRecords = false;
    this.#validated = true;
    this.#emit({ type: "change", origin: "reload", data });
  }

  /** Tell who listens that this document's deleted file is back from memory (decision 0268). */
  #toldWrittenBack(): void {
    for (const listener of writtenBackListeners) {
      try {
        listener(this as JsonDoc<unknown>);
      } catch {
        // Listeners report; one failing must not undo the put-back.
      }
    }
  }

  /** Resolves when every write scheduled so far has settled. */
  async idle(): Promise<void> {
    while (this.#batch || this.#inFlight > 0) {
      await (this.#batch?.promise ?? this.#queue).catch(() => undefined);
    }
  }

  /**
   * Compare the file with what this document last read or wrote, without applying it: the watcher's
   * way to tell the store's own writes from external edits, and a half-written file from a broken one.
   */
  async probe(): Promise<ProbeOutcome> {
    let bytes: Buffer | null;
    let hash: string;
    for (;;) {
      const writes = this.#adapter.writes;
      bytes = await this.#adapter.readBytes();
      if (bytes === null) return this.#adapter.knownHash === null ? "same" : "missing";
      hash = sha256(bytes);
      // Restoring a broken file to its last good text (`git checkout`) is a change: it ends the broken state.
      if (hash === this.#adapter.knownHash) return this.#broken ? "changed" : "same";
      // Our own write, renamed into place and waiting for the folder's fsync.
      if (hash === this.#adapter.writingHash) return "same";
      // One of our writes landed while the file was read: what was read may be the version before it.
      // Look again rather than parse it as someone else's (under load, several a second, each a parse
      // of the whole document and a reload).
      if (this.#adapter.writes === writes) break;
    }
    try {
      this.#adapter.parse(utf8Text(bytes));
      return "changed";
    } catch (e) {
      if (e instanceof DocumentParseError) return "invalid";
      throw e;
    }
  }

  /**
   * Re-read the file after an external change (hand edit, git pull). A valid file replaces the state;
   * an invalid one marks the document broken and keeps the last good state; a deleted one resets to
   * the defaults. Pending own writes settle first, so they are not mistaken for external edits.
   */
  async reload(force = false): Promise<ReloadOutcome> {
    let bytes: Buffer | null;
    for (;;) {
      await this.idle();
      const seen = this.#updates;
      bytes = await this.#adapter.readBytes();
      // An update made while the file was read is newer than what was read, and its write may already
      // be in place: applying the text read would undo it in memory and on the next write.
      if (this.#updates === seen && !this.#batch && this.#inFlight === 0) break;
    }
    const hash = bytes === null ? null : sha256(bytes);
    if (hash !== null && hash === this.#adapter.knownHash && !this.#broken && !force) {
      this.#adapter.acceptRead();
      return "unchanged";
    }
    if (bytes === null && this.#options.writtenBackWhenDeleted && this.#adapter.knownHash !== null) {
      // The last good state goes back where it was; a file someone put there meanwhile is read instead.
      // In the write queue: an update meanwhile writes after it, never beside it.
      const data = this.#low.data;
      this.#inFlight++;
      const run = this.#queue.then(() => writeBackDeleted(this.#adapter, this.path, data, this.#options));
      this.#queue = run.then(
        () => undefined,
        () => undefined,
      );
      const back = await run.finally(() => {
        this.#inFlight--;
      });
      if (back === "exists") return this.reload(force);
      this.#broken = null;
      if (back !== "written") return "kept";
      // Told here, not by the watcher from this call's outcome: a write that found the file gone puts
      // it back through this same reload, and nobody heard of that put-back (decision 0268).
      this.#toldWrittenBack();
      return "rewritten";
    }
    if (bytes === null) {
      const hadFile = this.#adapter.knownHash !== null || this.#broken !== null;
      this.#adapter.knownHash = null;
      this.#adapter.extraKeys = null;
      this.#adapter.acceptRead();
      this.#broken = null;
      if (!hadFile && !force) return "unchanged";
      this.#low.data = this.#options.defaults();
      this.#adapter.reuseRecords = false;
      this.#validated = false;
      this.#emit({ type: "change", origin: "reload", data: this.#low.data });
      return "missing";
    }
    let value: T;
    try {
      value = this.#adapter.parse(utf8Text(bytes));
    } catch (e) {
      if (!(e instanceof DocumentParseError)) throw e;
      const already = this.#broken?.message === e.message;
      this.#broken = { message: e.message };
      if (!already) this.#emit({ type: "broken", message: e.message });
      return "broken";
    }
    this.#takeRead(hash!, value);
    return "reloaded";
  }

  /** `value` through the schema; with `prev` (the valid state it was copied from), only what changed. */
  #validate(value: T, prev: T | undefined): T {
    const schema = this.#options.schema;
    if (!schema) return value;
    let result: { success: true; data: T } | { success: false; issues: Issue[] };
    if (prev === undefined) {
      const full = schema.safeParse(value);
      result = full.success ? full : { success: false, issues: full.error.issues };
    } else {
      result = validateChanged(schema, prev, value);
      if (VERIFY_INCREMENTAL) verifyIncremental(schema, value, result);
    }
    if (result.success) return result.data;
    throw new ValidationError(
      result.issues.map((i) => ({
        loc: i.path.map((p) => (typeof p === "number" ? p : String(p))),
        msg: i.message,
        type: i.code,
      })),
    );
  }

  #scheduleWrite(): Batch<T> {
    if (this.#batch) return this.#batch;
    const batch = newBatch<T>();
    this.#batch = batch;
    // setImmediate runs after the current tick's microtasks, so a burst of updates joins one batch.
    setImmediate(() => {
      this.#inFlight++;
      this.#queue = this.#queue
        .then(async () => {
          // Close the batch only when its write starts: updates made while the previous write ran join it.
          if (this.#batch === batch) this.#batch = null;
          for (let replay = 0; ; replay++) {
            try {
              await this.#low.write();
              return;
            } catch (e) {
              if (!(e instanceof FileChangedOnDiskError) || replay >= REPLAYS) throw e;
              const next = await this.#takeInHandSave(batch);
              if (next === "written") return;
              if (next === "refused") throw e;
            }
          }
        })
        .catch((e: unknown) => {
          // The disk's version wins: memory takes it (or the document turns broken), as if the watcher
          // had reported it before this write; the callers get the 409. A write that failed for any
          // other reason (no permission, a full disk) was not saved either: memory goes back to the
          // file, or a later write would save the change its caller was told was lost.
          void this.reload(!(e instanceof FileChangedOnDiskError)).catch(() => undefined);
          throw e;
        })
        .then(batch.resolve, batch.reject)
        .finally(() => {
          this.#inFlight--;
        });
    });
    return batch;
  }

  #emit(event: JsonDocEvent<T>): void {
    noteChange();
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // A failing listener must not undo or block a write that already happened in memory.
      }
    }
  }
}
