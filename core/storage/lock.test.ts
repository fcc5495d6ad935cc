import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, watch } from "node:fs";
import { mkdtemp, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { canonicalJson } from "./canonical-json.js";
import { DataFolder, ensurePrivateDirs } from "./data-folder.js";
import {
  FOREIGN_LOCK_STALE_MS,
  LOCK_HEARTBEAT_MS,
  LOCK_PUT_BACK_QUIET_MS,
  LockHeldError,
  acquireLock,
  readLock,
  type LockInfo,
} from "./lock.js";
import { processStat } from "./process-alive.js";

let dir: string;
let folder: DataFolder;
const children: ChildProcess[] = [];

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "larder-lock-"));
  folder = new DataFolder(dir);
  await ensurePrivateDirs(folder);
});
afterEach(async () => {
  for (const c of children.splice(0)) c.kill("SIGKILL");
  await rm(dir, { recursive: true, force: true });
});

function lockOf(pid: number, extra: Partial<LockInfo> = {}): LockInfo {
  return {
    pid,
    port: 9000,
    host: "127.0.0.1",
    token: "t".repeat(43),
    startedAt: new Date().toISOString(),
    machine: os.hostname(),
    ...extra,
  };
}

/** The timers the lock uses, faked: a put-back happens only when the test moves the clock. */
function fakeLockTimers(): void {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
}

/**
 * Resolves at the next event on `name` in `dir`. Watched after the lock's own watch of `.larder/`, so
 * by then the lock has heard of it too (libuv calls a path's watchers in the order they were made).
 */
function entryEvent(dir: string, name: string): Promise<void> {
  return new Promise((resolve) => {
    const w = watch(dir, { persistent: false }, (_event, entry) => {
      if (entry !== name) return;
      w.close();
      resolve();
    });
  });
}

/** A pid that certainly belonged to a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((r) => child.once("exit", r));
  return child.pid!;
}

describe("server lock", () => {
  it("records pid, port, host and a random token in a private file, and releases it", async () => {
    const held = await acquireLock(dir, { port: 9123, host: "127.0.0.1" });
    const onDisk = JSON.parse(await readFile(folder.lockFile, "utf8"));
    expect(onDisk).toMatchObject({ pid: process.pid, port: 9123, host: "127.0.0.1", token: held.info.token });
    expect(held.info.token.length).toBeGreaterThanOrEqual(43);
    if (process.platform !== "win32") expect((await stat(folder.lockFile)).mode & 0o777).toBe(0o600);
    expect(await readLock(dir)).toEqual(held.info);
    await held.release();
    await held.release();
    expect(await readLock(dir)).toBeNull();
    await expect(stat(folder.lockFile)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("refuses a second holder while the first is alive, with a message naming the holder", async () => {
    const held = await acquireLock(dir, { port: 9000, host: "localhost" });
    await expect(acquireLock(dir)).rejects.toThrow(LockHeldError);
    await expect(acquireLock(dir)).rejects.toThrow(new RegExp(`process ${process.pid}.*localhost:9000`));
    await held.release();
  });

  it("lets exactly one of two simultaneous acquirers win", async () => {
    const results = await Promise.allSettled([acquireLock(dir), acquireLock(dir), acquireLock(dir)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "fulfilled") await r.value.release();
  });

  it("refuses a lock held by another live process", async () => {
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    children.push(child);
    await writeFile(folder.lockFile, canonicalJson(lockOf(child.pid!)));
    expect((await readLock(dir))?.pid).toBe(child.pid);
    await expect(acquireLock(dir)).rejects.toBeInstanceOf(LockHeldError);
  });

  it("takes over a stale lock left by a dead process", async () => {
    await writeFile(folder.lockFile, canonicalJson(lockOf(await deadPid())));
    expect(await readLock(dir)).toBeNull();
    const held = await acquireLock(dir);
    expect(JSON.parse(await readFile(folder.lockFile, "utf8")).pid).toBe(process.pid);
    await held.release();
  });

  it("takes over a lock naming this process's pid that this process never took (restart with a reused pid)", async () => {
    await writeFile(folder.lockFile, canonicalJson(lockOf(process.pid)));
    const held = await acquireLock(dir);
    expect(held.info.token).not.toBe("t".repeat(43));
    await held.release();
  });

  it("takes over a lock written before the machine booted even if its pid is alive now", async () => {
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    children.push(child);
    const beforeBoot = new Date(Date.now() - os.uptime() * 1000 - 60 * 60 * 1000).toISOString();
    await writeFile(folder.lockFile, canonicalJson(lockOf(child.pid!, { startedAt: beforeBoot })));
    const held = await acquireLock(dir);
    await held.release();
  });

  const hasProc = processStat(process.pid) !== null;

  it.skipIf(!hasProc)(
    "takes over a lock whose holder was killed and is not yet reaped (a zombie)",
    async () => {
      // The shell starts a child, then becomes `sleep`, which never reaps it: the child stays a zombie.
      // The child exits only once its parent is `sleep` (in a subshell `$$` is still the shell's pid):
      // a child that ended first could be reaped by the shell, and the wait below would never end.
      const script = 'while read c < /proc/$$/comm && [ "$c" != sleep ]; do :; done & echo $!; exec sleep 30';
      const parent = spawn("sh", ["-c", script], { stdio: ["ignore", "pipe", "ignore"] });
      children.push(parent);
      const pid = Number(
        await new Promise<string>((r) => parent.stdout!.once("data", (d: Buffer) => r(d.toString()))),
      );
      for (let state = processStat(pid)?.state; state !== "Z"; state = processStat(pid)?.state) {
        if (state === undefined)
          throw new Error(`child ${pid} was reaped before the test could see it a zombie`);
        await new Promise((r) => setTimeout(r, 10));
      }
      await writeFile(folder.lockFile, canonicalJson(lockOf(pid)));
      expect(await readLock(dir)).toBeNull();
      const held = await acquireLock(dir);
      await held.release();
    },
  );

  it.skipIf(!hasProc)(
    "records its start time, and takes over a live pid that started at another time (reused)",
    async () => {
      const held = await acquireLock(dir);
      expect(held.info.processStart).toBe(processStat(process.pid)!.start);
      await held.release();

      const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
      children.push(child);
      const start = processStat(child.pid!)!.start;
      await writeFile(folder.lockFile, canonicalJson(lockOf(child.pid!, { processStart: start })));
      await expect(acquireLock(dir)).rejects.toBeInstanceOf(LockHeldError);
      await writeFile(folder.lockFile, canonicalJson(lockOf(child.pid!, { processStart: `${start}1` })));
      expect(await readLock(dir)).toBeNull();
      const taken = await acquireLock(dir);
      await taken.release();
    },
  );

  it("refuses a lock held from another PID namespace (a server in a container) while its holder's heartbeat is fresh", async () => {
    // Its pid names no process here: a check of the pid alone would have taken the lock from a live server.
    await writeFile(
      folder.lockFile,
      canonicalJson(lockOf(await deadPid(), { pidNamespace: "pid:[4026530000]", machine: "container-1" })),
    );
    await expect(acquireLock(dir)).rejects.toBeInstanceOf(LockHeldError);
    expect((await readLock(dir))?.machine).toBe("container-1");
  });

  it("takes over a lock from another PID namespace or machine once its heartbeat has stopped", async () => {
    const stopped = new Date(Date.now() - FOREIGN_LOCK_STALE_MS - 60_000);
    for (const extra of [{ pidNamespace: "pid:[4026530000]" }, { machine: "another-machine" }]) {
      await writeFile(folder.lockFile, canonicalJson(lockOf(process.pid, extra)));
      await utimes(folder.lockFile, stopped, stopped);
      expect(await readLock(dir)).toBeNull();
      const held = await acquireLock(dir);
      await held.release();
    }
  });

  it("touches the lock while it holds it, and not after release", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    try {
      const held = await acquireLock(dir);
      const past = new Date(Date.now() - 60 * 60 * 1000);
      await utimes(folder.lockFile, past, past);
      await vi.advanceTimersByTimeAsync(LOCK_HEARTBEAT_MS);
      await vi.waitFor(async () =>
        expect((await stat(folder.lockFile)).mtimeMs).toBeGreaterThan(past.getTime()),
      );
      await held.release();
      await expect(stat(folder.lockFile)).rejects.toThrow();
    } finally {
      vi.useRealTimers();
    }
  });

  it("puts a removed lock back once `.larder/` is left alone for a moment, so a second server cannot take the folder beside it", async () => {
    fakeLockTimers();
    try {
      const held = await acquireLock(dir);
      const text = await readFile(folder.lockFile, "utf8");
      const removed = entryEvent(folder.privateDir, "lock");
      await rm(folder.lockFile);
      await removed;
      await vi.advanceTimersByTimeAsync(LOCK_PUT_BACK_QUIET_MS - 1);
      expect(existsSync(folder.lockFile)).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await vi.waitFor(async () => expect(await readFile(folder.lockFile, "utf8")).toBe(text), {
        timeout: 5000,
      });
      await expect(acquireLock(dir)).rejects.toThrow(LockHeldError);
      await held.release();
    } finally {
      vi.useRealTimers();
    }
  });

  it("lets an `rm -rf` of `.larder/` that removes the lock first finish, without making the lock again inside it", async () => {
    fakeLockTimers();
    try {
      const lost: Array<LockInfo | null> = [];
      const held = await acquireLock(dir, { onLost: (h) => lost.push(h) });
      // The lock goes first, as `rm -rf` may take it, and the server hears of it before the rest goes.
      const removed = entryEvent(folder.privateDir, "lock");
      await rm(folder.lockFile);
      await removed;
      await vi.advanceTimersByTimeAsync(LOCK_PUT_BACK_QUIET_MS - 1);
      await rm(folder.privateDir, { recursive: true });
      await vi.advanceTimersByTimeAsync(LOCK_PUT_BACK_QUIET_MS);
      expect(existsSync(folder.privateDir)).toBe(false);
      // Nothing holds a folder that is not there: no false alarm of a second server.
      expect(lost).toEqual([]);
      await held.release();
    } finally {
      vi.useRealTimers();
    }
  });

  it("takes the folder again when it was removed and put back without `.larder/` (a re-clone)", async () => {
    fakeLockTimers();
    try {
      const held = await acquireLock(dir);
      const text = await readFile(folder.lockFile, "utf8");
      await rm(folder.privateDir, { recursive: true });
      await writeFile(folder.usersJson, "{}\n");
      await vi.advanceTimersByTimeAsync(LOCK_HEARTBEAT_MS);
      await vi.waitFor(async () => expect(await readFile(folder.lockFile, "utf8")).toBe(text), {
        timeout: 5000,
      });
      await expect(acquireLock(dir)).rejects.toThrow(LockHeldError);
      await held.release();
    } finally {
      vi.useRealTimers();
    }
  });

  it("says so when the lock names another process", async () => {
    const lost: Array<LockInfo | null> = [];
    const held = await acquireLock(dir, { onLost: (h) => lost.push(h) });
    const other = lockOf(process.pid, { token: "o".repeat(43) });
    await writeFile(folder.lockFile, canonicalJson(other));
    await vi.waitFor(() => expect(lost).toHaveLength(1), { timeout: 5000 });
    expect(lost[0]?.token).toBe(other.token);
    await held.release();
  });

  it("takes over an unreadable lock file", async () => {
    await writeFile(folder.lockFile, "garbage");
    const held = await acquireLock(dir);
    await held.release();
  });

  it("takes over an empty lock file, as a power cut can leave the lock it writes without fsync", async () => {
    await writeFile(folder.lockFile, "");
    const held = await acquireLock(dir);
    expect(JSON.parse(await readFile(folder.lockFile, "utf8"))).toMatchObject({ token: held.info.token });
    await held.release();
  });

  it("does not remove a lock that is no longer its own on release", async () => {
    const held = await acquireLock(dir);
    const other = canonicalJson(lockOf(process.pid, { token: "o".repeat(43) }));
    await writeFile(folder.lockFile, other);
    await held.release();
    expect(await readFile(folder.lockFile, "utf8")).toBe(other);
  });
});
