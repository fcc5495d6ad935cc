/**
 * Crash-safe file replacement (ARCHITECTURE §2: "temp file in .larder/tmp, fsync, rename"). A reader,
 * or the next start after a power cut or `kill -9`, sees either the whole old file or the whole new one.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  chmodSync,
  chownSync,
  closeSync,
  fchmodSync,
  fsync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFile,
  writeFileSync,
} from "node:fs";
import { readdir, stat, unlink } from "node:fs/promises";
import { promisify } from "node:util";
import path from "node:path";
import { onDiskThread, UNSYNCABLE_DIR_CODES } from "./disk-thread.js";
import { isProcessAlive } from "./process-alive.js";

export interface AtomicWriteOptions {
  /** Directory for the temp file; must be on the target's file system so the rename is atomic. */
  tmpDir: string;
  /** Permission bits of the new file (default 0o644; 0o600 for secrets). */
  mode?: number;
  /**
   * Create only: fail with EEXIST instead of replacing an existing target. Uses link(2), which is
   * atomic, so two processes racing to create the same file cannot both win.
   */
  exclusive?: boolean;
  /**
   * Replace only the version the caller knows: the target's `size:mtimeMs:ino` is `fingerprint`, or
   * its bytes' sha256 is `hash` (null: no file). Checked once the temp file is fsynced, just before
   * the rename, so a save by hand during the fsync (milliseconds, tens under load) is not replaced;
   * the write then fails with code ECHANGED and leaves the target as the person saved it.
   */
  ifStill?: KnownVersion;
  /**
   * The new file takes the target's permission bits, and when this process is root its owner, if the
   * target is there (`mode` is then for a new file only): a mode or owner given to a file by hand stays.
   * Read where the write is made, so a caller needs no turn of the event loop of its own for a stat.
   */
  keep?: boolean;
  /**
   * false: no fsync of the file or its folder, and no call on the disk thread. For a file worth nothing after
   * a crash — the folder's lock: a lock from before a reboot is stale, and one left empty by a power cut
   * is taken for stale — so that taking it does not wait for the disk (decision 0300).
   */
  durable?: boolean;
}

export interface KnownVersion {
  fingerprint: string | null;
  hash: string | null;
}

/** The error of a write whose target is no longer the version its caller knew. */
export function changedError(target: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${target} was changed on disk`), { code: "ECHANGED", path: target });
}

/** The target's mode, and its owner when this process is root and it is not root's (disk-thread.ts has a copy). */
function keptAttributes(
  target: string,
  mode: number,
): { mode: number; owner: { uid: number; gid: number } | null } {
  const st = statSync(target, { throwIfNoEntry: false });
  if (!st) return { mode, owner: null };
  const root = process.getuid?.() === 0;
  return {
    mode: st.mode & 0o7777,
    owner: root && (st.uid !== 0 || st.gid !== 0) ? { uid: st.uid, gid: st.gid } : null,
  };
}

/** Whether `target` is still `known` (see AtomicWriteOptions.ifStill); the disk thread has a copy. */
function isStill(target: string, known: KnownVersion): boolean {
  const st = statSync(target, { throwIfNoEntry: false });
  if (st && `${st.size}:${st.mtimeMs}:${st.ino}` === known.fingerprint) return true;
  let bytes: Buffer | null = null;
  try {
    bytes = readFileSync(target);
  } catch (e) {
    if (errnoCode(e) !== "ENOENT") throw e;
  }
  return (bytes === null ? null : createHash("sha256").update(bytes).digest("hex")) === known.hash;
}

const TMP_SUFFIX = ".tmp";

/**
 * Data up to this size is written with one synchronous call (the page cache takes it in microseconds);
 * larger data goes through the thread pool so that it never holds up the event loop.
 */
const SYNC_WRITE_MAX_BYTES = 1024 * 1024;

const fsyncFd = promisify(fsync);
const writeFd = promisify(writeFile);

/**
 * Write `data` to `target` atomically and durably (temp file, fsync, rename, fsync of the directory).
 * Answers the written file's `size:mtimeMs:ino`, as it was put in place (decision 0298).
 *
 * Data up to 1 MiB is written by the disk thread in one call (decision 0187): each asynchronous call
 * waits for a turn of the event loop, which under load is milliseconds (decision 0179), and the
 * "quick" calls — open, rename, link — wait for the file system's journal while another write's fsync
 * commits it. Larger data goes through the thread pool as before, so that one large write never holds
 * up the small ones queued behind it on the disk thread.
 */
export async function writeFileAtomic(
  target: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions,
): Promise<string> {
  const mode = options.mode ?? 0o644;
  const durable = options.durable !== false;
  // A file worth checking is worth syncing.
  if (!durable && (options.keep || options.ifStill))
    throw new Error("writeFileAtomic: durable: false takes no keep or ifStill");
  if (durable && byteLength(data) <= SYNC_WRITE_MAX_BYTES) {
    // All of it in one call on the disk thread (decision 0187).
    const tmp = tempName(options.tmpDir, target);
    const args = {
      tmp,
      target,
      data,
      mode,
      exclusive: options.exclusive === true,
      keep: options.keep === true,
      ifStill: options.ifStill,
    };
    const done = onDiskThread({ op: "atomic", args });
    if (done) {
      try {
        return (await done)!;
      } catch (e) {
        throw crossDevice(e, options.tmpDir, target);
      }
    }
  }
  const kept = options.keep ? keptAttributes(target, mode) : { mode, owner: null };
  const tmp = await writeSyncedTemp(options.tmpDir, target, data, kept.mode, durable);
  let committed = false;
  let written: string;
  try {
    if (kept.owner) {
      chownSync(tmp, kept.owner.uid, kept.owner.gid);
      // A change of owner clears the set-id bits.
      chmodSync(tmp, kept.mode);
    }
    // What the target is once renamed (a rename keeps size, mtime and inode), taken before a save by
    // hand can replace it: a stat after the rename could take that save for this write. Before the
    // check, which is then followed by the rename alone.
    const st = statSync(tmp);
    written = `${st.size}:${st.mtimeMs}:${st.ino}`;
    if (options.ifStill && !isStill(target, options.ifStill)) throw changedError(target);
    if (options.exclusive) {
      linkSync(tmp, target);
      unlinkSync(tmp);
    } else {
      try {
        renameSync(tmp, target);
      } catch (e) {
        throw crossDevice(e, options.tmpDir, target);
      }
    }
    committed = true;
    if (durable) await fsyncDir(path.dirname(target));
  } finally {
    if (!committed) removeQuietly(tmp);
  }
  return written;
}

/**
 * A new temp file in `tmpDir` holding `data` with exactly `mode`, fsynced and closed: the first half
 * of every atomic write (this one and the recipe store's compare-and-swap). Its name carries the
 * target's and this process's id, so removeStaleTempFiles can tell a dead writer's leftovers.
 */
export async function writeSyncedTemp(
  tmpDir: string,
  target: string,
  data: string | Uint8Array,
  mode: number,
  /** false: not fsynced, and not on the disk thread (AtomicWriteOptions.durable). */
  durable = true,
): Promise<string> {
  const tmp = tempName(tmpDir, target);
  if (durable && byteLength(data) <= SYNC_WRITE_MAX_BYTES) {
    const done = onDiskThread({ op: "temp", args: { tmp, data, mode } });
    if (done) {
      await done;
      return tmp;
    }
  }
  const fd = openSync(tmp, "wx", mode);
  try {
    try {
      if (byteLength(data) <= SYNC_WRITE_MAX_BYTES) writeFileSync(fd, data);
      else await writeFd(fd, data);
      // open()'s mode is filtered by the umask; set it exactly so 0o600 means 0o600.
      fchmodSync(fd, mode);
      // Without this, a rename can reach the disk before the data and leave an empty file after a crash.
      if (durable) await fsyncFd(fd);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    removeQuietly(tmp);
    throw e;
  }
  return tmp;
}

/**
 * The temp file's name: the target's, this process's id (removeStaleTempFiles tells a dead writer's
 * leftovers by it) and a random part.
 */
function tempName(tmpDir: string, target: string): string {
  return path.join(
    tmpDir,
    `${path.basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}${TMP_SUFFIX}`,
  );
}

function byteLength(data: string | Uint8Array): number {
  return typeof data === "string" ? Buffer.byteLength(data) : data.byteLength;
}

/** A rename across file systems is not atomic: said plainly rather than as EXDEV. */
function crossDevice(e: unknown, tmpDir: string, target: string): unknown {
  if (errnoCode(e) !== "EXDEV") return e;
  return new Error(
    `temp directory ${tmpDir} is not on the same file system as ${target}; atomic rename impossible`,
  );
}

/** Unlink a file that may be gone already; any failure is ignored. */
export function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Gone already, or the folder is read-only: nothing more to do.
  }
}

/** fsync a directory so a rename in it survives a power cut. Some platforms cannot; that is not an error. */
export async function fsyncDir(dir: string): Promise<void> {
  const done = onDiskThread({ op: "fsyncDir", args: { dir } });
  if (done) {
    await done;
    return;
  }
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    await fsyncFd(fd);
  } catch (e) {
    if (!UNSYNCABLE_DIR_CODES.includes(errnoCode(e) ?? "")) throw e;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The process id a temp file name carries (`<name>.<pid>.<random>[.zip].tmp`), or null. */
function writerPid(name: string): number | null {
  const m = /\.(\d+)\.[0-9a-f]{8,}(?:\.[a-z]+)?\.tmp$/.exec(name);
  return m ? Number(m[1]) : null;
}

/**
 * Remove temp files left by writers that died mid-write (a `kill -9` leaves one behind). Files older
 * than `maxAgeMs` go, and with `deadWriters` (at start-up) also every file whose writer process is
 * gone, whatever its age; a write in progress in a live process is never touched. Returns how many
 * were removed.
 */
export async function removeStaleTempFiles(
  tmpDir: string,
  maxAgeMs = 60 * 60 * 1000,
  now = Date.now(),
  opts: { deadWriters?: boolean } = {},
): Promise<number> {
  let names: string[];
  try {
    names = await readdir(tmpDir);
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return 0;
    throw e;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.endsWith(TMP_SUFFIX)) continue;
    const file = path.join(tmpDir, name);
    try {
      const st = await stat(file);
      const pid = opts.deadWriters ? writerPid(name) : null;
      const dead = pid !== null && pid !== process.pid && !isProcessAlive(pid);
      if (st.isFile() && (dead || now - st.mtimeMs > maxAgeMs)) {
        await unlink(file);
        removed++;
      }
    } catch {
      // Raced with another cleaner or the writer itself: nothing to do.
    }
  }
  return removed;
}

/** The `code` of a Node system error, if it is one. */
export function errnoCode(e: unknown): string | undefined {
  if (typeof e === "object" && e !== null && "code" in e) {
    const code = (e as { code: unknown }).code;
    return typeof code === "string" ? code : undefined;
  }
  return undefined;
}

/**
 * A watched directory that is not there (any more): gone, moved, or (Windows) being deleted. Nothing
 * to watch and nothing to report; what was in it is looked at again.
 */
export function isGoneDir(e: unknown): boolean {
  const code = errnoCode(e);
  return code === "ENOENT" || code === "ENOTDIR" || code === "EPERM";
}
