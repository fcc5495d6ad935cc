/**
 * The one-writer lock `.larder/lock` (ARCHITECTURE §2). `larder serve` holds it with its port and a
 * random local admin token, so CLI commands find the running server and talk to it instead of writing
 * the folder behind its back; without a server, a CLI command holds the lock itself.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readlinkSync, watch, type FSWatcher } from "node:fs";
import { link, readFile, rename, stat, unlink, utimes } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { ConflictError } from "../errors.js";
import { errnoCode, writeFileAtomic } from "./atomic-write.js";
import { canonicalJson } from "./canonical-json.js";
import { DataFolder, ensurePrivateDirs } from "./data-folder.js";
import { isProcessAlive, processStat } from "./process-alive.js";

export const LockInfo = z.object({
  pid: z.number().int().positive(),
  /** Where the server listens; null for a CLI process holding the lock without serving. */
  port: z.number().int().nullable(),
  host: z.string().nullable(),
  /** Local admin token: proves to the server that the caller can read `.larder/` (the CLI). */
  token: z.string().min(32),
  startedAt: z.string(),
  /** Host name of the machine, for the message when the lock is held. */
  machine: z.string().default(""),
  /**
   * The holder's start time as Linux counts it (clock ticks since boot, /proc/PID/stat): a pid alive
   * with another start time is a reused one. Absent where there is no /proc.
   */
  processStart: z.string().optional(),
  /**
   * The holder's PID namespace (`/proc/self/ns/pid`, "pid:[4026531836]"): a server in a container and
   * a command on the host number their processes apart, so a pid from another namespace says nothing
   * here. Absent where there is no /proc.
   */
  pidNamespace: z.string().optional(),
});
export type LockInfo = z.infer<typeof LockInfo>;

/** Another live process holds the lock. */
export class LockHeldError extends ConflictError {
  constructor(readonly holder: LockInfo) {
    const where = holder.port ? ` serving on ${holder.host ?? "localhost"}:${holder.port}` : "";
    super(
      `The data folder is in use by process ${holder.pid}${holder.machine ? ` on ${holder.machine}` : ""}${where} since ${holder.startedAt}`,
    );
  }
}

export interface HeldLock {
  readonly info: LockInfo;
  /** Remove the lock if it is still ours. Safe to call twice. */
  release(): Promise<void>;
}

/** Tokens of locks held by this process: a lock naming our pid but another token is a stale one. */
const heldTokens = new Set<string>();

/**
 * A holder touches its lock this often, so that a process that cannot check the holder's pid (another
 * PID namespace or machine) can still tell a live holder from a dead one.
 */
export const LOCK_HEARTBEAT_MS = 30_000;
/** A lock whose holder cannot be checked is stale once untouched this long (missed heartbeats). */
export const FOREIGN_LOCK_STALE_MS = 4 * LOCK_HEARTBEAT_MS;
/**
 * How long `.larder/` must be left alone before a lock removed from it is put back. An `rm -rf` of the
 * folder (or of the data folder) removes the lock among the folder's other entries: put back at once,
 * the lock was made again inside the folder being emptied, and the `rm` failed with "Directory not
 * empty" (decision 0269).
 */
export const LOCK_PUT_BACK_QUIET_MS = 1_000;

let namespace: string | null | undefined;
/** This process's PID namespace, or null where there is no /proc. */
function pidNamespace(): string | null {
  if (namespace === undefined) {
    try {
      namespace = readlinkSync("/proc/self/ns/pid");
    } catch {
      namespace = null;
    }
  }
  return namespace;
}

/**
 * Whether the lock's holder numbers its processes as this process does: same machine, same PID
 * namespace. Otherwise its pid names some other process here, or none.
 */
function checkable(info: LockInfo): boolean {
  if (info.machine !== "" && info.machine !== os.hostname()) return false;
  const ours = pidNamespace();
  return info.pidNamespace === undefined || ours === null || info.pidNamespace === ours;
}

/**
 * Whether the process named by the lock in `file` is still running it (not a dead pid, a reused pid, or
 * us after a restart). A holder in another PID namespace or on another machine is judged by its
 * heartbeat: the lock file's modification time.
 */
async function isLive(info: LockInfo, file: string): Promise<boolean> {
  if (!checkable(info)) return Date.now() - (await touchedAt(file)) < FOREIGN_LOCK_STALE_MS;
  if (info.pid === process.pid) return heldTokens.has(info.token);
  // A lock written before the last boot is stale even if its pid has been reused since.
  const bootedAt = Date.now() - os.uptime() * 1000;
  const started = Date.parse(info.startedAt);
  if (Number.isFinite(started) && started < bootedAt - 5000) return false;
  const start = processStat(info.pid)?.start;
  if (start !== undefined && info.processStart !== undefined && start !== info.processStart) return false;
  return isProcessAlive(info.pid);
}

async function readText(file: string): Promise<string | null> {
  try {
    return await readFile(file, "utf8");
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return null;
    throw e;
  }
}

/** When the lock file was last touched (its holder's heartbeat); 0 when it is gone. */
async function touchedAt(file: string): Promise<number> {
  try {
    return (await stat(file)).mtimeMs;
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return 0;
    throw e;
  }
}

function parse(text: string): LockInfo | null {
  try {
    const result = LockInfo.safeParse(JSON.parse(text));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}

/** The live lock of a folder, or null when there is none or it is stale. */
export async function readLock(dataDir: string): Promise<LockInfo | null> {
  const file = new DataFolder(dataDir).lockFile;
  const text = await readText(file);
  const info = text === null ? null : parse(text);
  return info && (await isLive(info, file)) ? info : null;
}

/**
 * Take the lock of a folder. Fails with LockHeldError while a live process holds it; takes over a
 * stale lock (dead pid, or written before the last boot). Creation is atomic (link), so two processes
 * starting at once cannot both succeed.
 */
export async function acquireLock(
  dataDir: string,
  options: {
    port?: number | null;
    host?: string | null;
    /** The lock file now names another process (someone removed ours and a second one started). */
    onLost?: (holder: LockInfo | null) => void;
  } = {},
): Promise<HeldLock> {
  const folder = new DataFolder(dataDir);
  await ensurePrivateDirs(folder);
  const info: LockInfo = {
    pid: process.pid,
    port: options.port ?? null,
    host: options.host ?? null,
    token: randomBytes(32).toString("base64url"),
    startedAt: new Date().toISOString(),
    machine: os.hostname(),
  };
  const start = processStat(process.pid)?.start;
  if (start !== undefined) info.processStart = start;
  const ns = pidNamespace();
  if (ns !== null) info.pidNamespace = ns;
  const text = canonicalJson(info);
  // Registered before the file exists, so a concurrent acquire in this process sees it as live.
  heldTokens.add(info.token);
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await writeLockFile(folder, text);
        let lost = false;
        const beat = (touch = true) =>
          void heartbeat(folder, info.token, text, touch).then((holder) => {
            // The folder is not there to hold a lock (being removed, or removed): nobody else holds it.
            if (holder === "away") return;
            if (holder === "ours") lost = false;
            else if (!lost) {
              lost = true;
              options.onLost?.(holder);
            }
          });
        const timer = setInterval(() => beat(), LOCK_HEARTBEAT_MS).unref();
        // A removed lock (a clean-up script, `rm .larder/lock`) is put back within a moment: a second
        // server started meanwhile would otherwise take the folder beside this one, and each would
        // overwrite the other's writes. Not at once: once `.larder/` has been left alone for
        // LOCK_PUT_BACK_QUIET_MS, so an `rm -rf` removing the folder's entries one by one ends first.
        let putBack: NodeJS.Timeout | null = null;
        const onEntry = (name: string | null) => {
          const lockEntry = name === null || name === path.basename(folder.lockFile);
          if (!lockEntry && putBack === null) return;
          if (putBack !== null) clearTimeout(putBack);
          putBack = setTimeout(() => {
            putBack = null;
            // No touch from here: touching the lock is itself an event on it.
            beat(false);
          }, LOCK_PUT_BACK_QUIET_MS);
          putBack.unref();
        };
        let watcher: FSWatcher | null = null;
        try {
          watcher = watch(folder.privateDir, { persistent: false }, (_event, name) => onEntry(name));
          watcher.on("error", () => undefined);
        } catch {
          // No watching here (some network file systems): the heartbeat puts it back.
        }
        return {
          info,
          release: () => {
            clearInterval(timer);
            if (putBack !== null) clearTimeout(putBack);
            watcher?.close();
            return releaseLock(folder, info.token);
          },
        };
      } catch (e) {
        if (errnoCode(e) !== "EEXIST") throw e;
      }
      const existingText = await readText(folder.lockFile);
      if (existingText === null) continue;
      const existing = parse(existingText);
      if (existing && (await isLive(existing, folder.lockFile))) throw new LockHeldError(existing);
      await removeStale(folder, existingText);
    }
    throw new ConflictError(`Could not take the lock ${folder.lockFile}: other processes keep replacing it`);
  } catch (e) {
    heldTokens.delete(info.token);
    throw e;
  }
}

/**
 * Create the lock file, failing with EEXIST when there is one. Without fsync (decision 0300): a lock
 * is worth nothing after a crash — written before the boot, it is stale; left empty, it is stale too.
 */
function writeLockFile(folder: DataFolder, text: string): Promise<string> {
  return writeFileAtomic(folder.lockFile, text, {
    tmpDir: folder.tmpDir,
    mode: 0o600,
    exclusive: true,
    durable: false,
  });
}

/**
 * Remove a stale lock without removing a fresh one another process wrote meanwhile: move it aside (only
 * one contender's rename succeeds), and put it back if it is not the one judged stale.
 */
async function removeStale(folder: DataFolder, staleText: string): Promise<void> {
  const aside = path.join(folder.tmpDir, `lock.stale.${process.pid}.${randomBytes(4).toString("hex")}`);
  try {
    await rename(folder.lockFile, aside);
  } catch (e) {
    if (errnoCode(e) === "ENOENT") return;
    throw e;
  }
  const moved = await readText(aside);
  if (moved !== staleText) await link(aside, folder.lockFile).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

/**
 * Touch the lock while it is still ours (see LOCK_HEARTBEAT_MS); write it again when it is gone.
 * Returns "ours", "away" when `.larder/` is not there to write it into (removed, or being removed), or
 * what holds the folder now (null: unreadable, or the disk refused).
 */
async function heartbeat(
  folder: DataFolder,
  token: string,
  text: string,
  touch: boolean,
): Promise<"ours" | "away" | LockInfo | null> {
  try {
    const now = await readText(folder.lockFile);
    if (now === null) {
      // `.larder/` went with the folder (a re-clone: it is never in git). Made again on a timed beat
      // only, and only once the folder is back, so as not to fight an `rm -rf` still under way.
      if (
        touch &&
        !existsSync(folder.tmpDir) &&
        (existsSync(folder.usersJson) || existsSync(folder.groupsDir))
      )
        await ensurePrivateDirs(folder);
      try {
        await writeLockFile(folder, text);
        return "ours";
      } catch (e) {
        const code = errnoCode(e);
        if (code === "ENOENT") return "away";
        if (code !== "EEXIST") return null;
        // Put back meanwhile by the other beat (the timed one and a put-back after a removal can meet).
        const holder = parse((await readText(folder.lockFile)) ?? "");
        return holder?.token === token ? "ours" : holder;
      }
    }
    const holder = parse(now);
    if (holder?.token !== token) return holder;
    if (touch) {
      const at = new Date();
      await utimes(folder.lockFile, at, at);
    }
    return "ours";
  } catch {
    // The disk refused: the next beat tries again.
    return "ours";
  }
}

async function releaseLock(folder: DataFolder, token: string): Promise<void> {
  heldTokens.delete(token);
  const text = await readText(folder.lockFile);
  if (text !== null && parse(text)?.token === token) await unlink(folder.lockFile).catch(() => undefined);
}
