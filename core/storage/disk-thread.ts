/**
 * A thread that makes the synchronous file calls of a small atomic write (decision 0187): the temp
 * file's open, write, chmod, fsync and close, the rename or link into place and the folder's fsync, in
 * one message and one answer. On ext4 a rename or an `open(O_CREAT)` waits for the journal while
 * another write's fsync commits it, so under issue 21's mixed load the main thread spent a tenth of its
 * time in these calls, and each of a write's two fsyncs through the thread pool waited a turn of the
 * event loop for its answer.
 *
 * The thread's code is a string run with `eval` (node's own modules only, taken with
 * `process.getBuiltinModule`, so it reads the same as a script or a module) and none of the parent's
 * node options (a `--import tsx` would load a TypeScript loader into it): the same code runs from the
 * bundle, from TypeScript under tsx and under Vitest. When no thread can be started the calls are made
 * on the main thread, as before.
 */
import { Worker } from "node:worker_threads";
import { APPLY_INHERITED_V8_FLAGS_SOURCE, keepV8FlagsAcross } from "../util/v8-flags.js";

/**
 * What opening or fsyncing a folder may fail with where folders cannot be synced (Windows cannot open
 * them; some network file systems refuse): not an error, here and in atomic-write.ts's own fsyncDir.
 */
export const UNSYNCABLE_DIR_CODES: readonly string[] = ["EISDIR", "EPERM", "EINVAL", "EACCES", "ENOTSUP"];

/** The thread's code: each message names an operation; the answer carries its result or error. */
const THREAD_SOURCE = `
${APPLY_INHERITED_V8_FLAGS_SOURCE}
const { parentPort } = process.getBuiltinModule("node:worker_threads");
const fs = process.getBuiltinModule("node:fs");
const path = process.getBuiltinModule("node:path");
const crypto = process.getBuiltinModule("node:crypto");

function removeQuietly(file) {
  try { fs.unlinkSync(file); } catch {}
}

function syncedTemp(tmp, data, mode, owner) {
  const fd = fs.openSync(tmp, "wx", mode);
  try {
    try {
      fs.writeFileSync(fd, data);
      // Before the chmod: a change of owner clears the set-id bits.
      if (owner) fs.fchownSync(fd, owner.uid, owner.gid);
      fs.fchmodSync(fd, mode);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch (e) {
    removeQuietly(tmp);
    throw e;
  }
}

const UNSYNCABLE_DIR = new Set(${JSON.stringify(UNSYNCABLE_DIR_CODES)});
function fsyncDir(dir) {
  let fd;
  try {
    fd = fs.openSync(dir, "r");
    fs.fsyncSync(fd);
  } catch (e) {
    if (!UNSYNCABLE_DIR.has(e && e.code)) throw e;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

// atomic-write.ts's isStill: the target is still the version the caller knows.
function isStill(target, known) {
  const st = fs.statSync(target, { throwIfNoEntry: false });
  if (st && st.size + ":" + st.mtimeMs + ":" + st.ino === known.fingerprint) return true;
  let bytes = null;
  try {
    bytes = fs.readFileSync(target);
  } catch (e) {
    if (!e || e.code !== "ENOENT") throw e;
  }
  return (bytes === null ? null : crypto.createHash("sha256").update(bytes).digest("hex")) === known.hash;
}

// atomic-write.ts's keptAttributes: the target's mode, and its owner when this process is root.
function keptAttributes(target, mode) {
  const st = fs.statSync(target, { throwIfNoEntry: false });
  if (!st) return { mode, owner: null };
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  return { mode: st.mode & 0o7777, owner: root && (st.uid !== 0 || st.gid !== 0) ? { uid: st.uid, gid: st.gid } : null };
}

function atomic(a) {
  const kept = a.keep ? keptAttributes(a.target, a.mode) : { mode: a.mode, owner: null };
  syncedTemp(a.tmp, a.data, kept.mode, kept.owner);
  let written;
  try {
    // What the target is once renamed (a rename keeps size, mtime and inode), taken before a save by
    // hand can replace it: a stat after the rename could take that save for this write. Before the
    // check, which is then followed by the rename alone.
    const st = fs.statSync(a.tmp);
    written = st.size + ":" + st.mtimeMs + ":" + st.ino;
    if (a.ifStill && !isStill(a.target, a.ifStill)) {
      const e = new Error(a.target + " was changed on disk");
      e.code = "ECHANGED";
      e.path = a.target;
      throw e;
    }
    if (a.exclusive) {
      fs.linkSync(a.tmp, a.target);
      fs.unlinkSync(a.tmp);
    } else {
      fs.renameSync(a.tmp, a.target);
    }
  } catch (e) {
    removeQuietly(a.tmp);
    throw e;
  }
  fsyncDir(path.dirname(a.target));
  return written;
}

// Per path: size and mtimeMs of a regular file, or -1 and -1 for anything else (gone, a folder, a link, unreadable).
function lstatMany(paths) {
  const out = new Float64Array(paths.length * 2);
  for (let i = 0; i < paths.length; i++) {
    let st;
    try {
      st = fs.lstatSync(paths[i], { throwIfNoEntry: false });
    } catch {}
    const file = st !== undefined && st.isFile();
    out[2 * i] = file ? st.size : -1;
    out[2 * i + 1] = file ? st.mtimeMs : -1;
  }
  return out;
}

parentPort.on("message", (m) => {
  try {
    if (m.op === "lstatMany") {
      const result = lstatMany(m.args.paths);
      parentPort.postMessage({ id: m.id, ok: true, result }, [result.buffer]);
      return;
    }
    let result;
    if (m.op === "atomic") result = atomic(m.args);
    else if (m.op === "temp") syncedTemp(m.args.tmp, m.args.data, m.args.mode);
    else if (m.op === "fsyncDir") fsyncDir(m.args.dir);
    else throw new Error("disk thread: unknown operation " + m.op);
    parentPort.postMessage({ id: m.id, ok: true, result });
  } catch (e) {
    const err = e || {};
    parentPort.postMessage({
      id: m.id,
      ok: false,
      error: { message: String(err.message), code: err.code, errno: err.errno, syscall: err.syscall, path: err.path, dest: err.dest },
    });
  }
});
`;

export type DiskOp =
  | {
      op: "atomic";
      args: {
        tmp: string;
        target: string;
        data: string | Uint8Array;
        mode: number;
        exclusive: boolean;
        keep: boolean;
        ifStill?: { fingerprint: string | null; hash: string | null };
      };
    }
  | { op: "temp"; args: { tmp: string; data: string | Uint8Array; mode: number } }
  | { op: "fsyncDir"; args: { dir: string } };

interface Pending {
  resolve: (result: unknown) => void;
  reject: (e: Error) => void;
}

interface ThreadError {
  message: string;
  code?: string;
  errno?: number;
  syscall?: string;
  path?: string;
  dest?: string;
}

/** The thread's error as the main thread's calls throw it: same message, code, errno, syscall, path. */
function asError(e: ThreadError): Error {
  const err = new Error(e.message) as NodeJS.ErrnoException & { dest?: string };
  if (e.code !== undefined) err.code = e.code;
  if (e.errno !== undefined) err.errno = e.errno;
  if (e.syscall !== undefined) err.syscall = e.syscall;
  if (e.path !== undefined) err.path = e.path;
  if (e.dest !== undefined) err.dest = e.dest;
  return err;
}

let thread: Worker | null = null;
/**
 * Whether the thread runs yet: a thread takes tens of milliseconds to start (hundreds on a busy
 * machine), and the first writes come at start-up (the folder's lock) — they are made on the main
 * thread meanwhile rather than wait for it.
 */
let online: Promise<void> | null = null;
let isOnline = false;
/** Set when a thread could not be started: the calls stay on the main thread from then on. */
let unavailable = false;
const pending = new Map<number, Pending>();
let nextId = 1;
let calls = 0;

function settle(id: number, outcome: { ok: boolean; error?: ThreadError; result?: unknown }): void {
  const p = pending.get(id);
  if (!p) return;
  pending.delete(id);
  // Idle, the thread must not keep a finished command's process alive.
  if (pending.size === 0) thread?.unref();
  if (outcome.ok) p.resolve(outcome.result);
  else p.reject(asError(outcome.error ?? { message: "disk thread: unknown failure" }));
}

function started(): Worker | null {
  if (thread || unavailable) return thread;
  try {
    const w = new Worker(THREAD_SOURCE, {
      eval: true,
      name: "larder-disk",
      execArgv: [],
      // It holds one write's data at a time: a heap of its own this small keeps its memory to a few MB
      // (node's flags would give it the server's young generation).
      resourceLimits: { maxYoungGenerationSizeMb: 3, maxOldGenerationSizeMb: 48 },
    });
    keepV8FlagsAcross(w);
    // Settled by the thread's start or by its loss, whichever comes first: a caller waiting for it
    // (a warm start's stats) must not wait forever on a thread that never ran.
    let settleOnline: () => void = () => undefined;
    online = new Promise<void>((resolve) => (settleOnline = resolve));
    w.once("online", () => {
      if (thread === w) isOnline = true;
      // Referenced until now: a caller awaiting `online` (a warm start's stats) has nothing else that
      // keeps a short command's process alive, and node would end it in the middle of its work.
      if (pending.size === 0) w.unref();
      settleOnline();
    });
    w.on("message", (m: { id: number; ok: boolean; error?: ThreadError; result?: unknown }) =>
      settle(m.id, m),
    );
    const lost = (why: Error) => {
      if (thread === w) {
        thread = null;
        isOnline = false;
      }
      settleOnline();
      // What it was doing is unknown: each caller hears so; the next call starts a new thread.
      for (const id of [...pending.keys()]) settle(id, { ok: false, error: { message: why.message } });
    };
    w.on("error", lost);
    w.on("exit", (code) => lost(new Error(`disk thread stopped (exit code ${code})`)));
    thread = w;
  } catch {
    unavailable = true;
  }
  return thread;
}

/**
 * Runs `op` on the disk thread. Null when there is no thread (the caller makes the calls itself).
 * An atomic write answers with the `size:mtimeMs:ino` of the file it put in place.
 * Data is copied to the thread; a view into a larger buffer is cut to its own bytes first.
 */
export function onDiskThread(op: DiskOp): Promise<string | undefined> | null {
  const w = started();
  if (!w || !isOnline) return null;
  if ("data" in op.args) {
    const d = op.args.data;
    if (typeof d !== "string" && d.byteLength !== d.buffer.byteLength)
      op.args.data = Uint8Array.prototype.slice.call(d);
  }
  // An atomic write answers with the fingerprint of the file it put in place; the rest with nothing.
  return post(w, op) as Promise<string | undefined>;
}

function post(w: Worker, op: { op: string; args: unknown }): Promise<unknown> {
  const id = nextId++;
  calls++;
  return new Promise<unknown>((resolve, reject) => {
    if (pending.size === 0) w.ref();
    pending.set(id, { resolve, reject });
    w.postMessage({ id, ...op });
  });
}

/**
 * The lstat of each path, made on the disk thread while the main thread does something else (a warm
 * start decoding its index cache): per path, the size and mtimeMs of a regular file, or -1 and -1 for
 * anything else. Waits for the thread to come online; null when there is no thread, or it failed.
 */
export async function lstatManyOnDiskThread(paths: readonly string[]): Promise<Float64Array | null> {
  const w = started();
  if (!w) return null;
  await online;
  if (thread !== w || !isOnline) return null;
  try {
    return (await post(w, { op: "lstatMany", args: { paths } })) as Float64Array;
  } catch {
    return null;
  }
}

/**
 * Starts the thread without waiting for it: a server asks at once, so that the thread's tens of
 * milliseconds of start overlap the loading of the server's modules, where a warm start's file stats
 * (lstatManyOnDiskThread) would otherwise wait for them. The folder's lock, written before, started
 * it until it was written without fsync (decision 0300).
 */
export function startDiskThread(): void {
  started();
}

/** Starts the thread if need be and resolves once it runs (tests). */
export async function diskThreadOnline(): Promise<void> {
  if (started()) await online;
}

/** Calls handed to the disk thread since start (tests and figures). */
export function diskThreadCalls(): number {
  return calls;
}

/** Stops the thread as a crash would (tests): its calls in flight fail, the next call starts a new one. */
export async function stopDiskThread(): Promise<void> {
  const w = thread;
  if (!w) return;
  await w.terminate();
  if (thread === w) {
    thread = null;
    isOnline = false;
  }
}
