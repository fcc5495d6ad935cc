/**
 * What commands share: which data folder, the configuration, opening core, and the one-writer rule
 * (ARCHITECTURE §2): a command that writes either goes through the live server that holds the lock,
 * or holds the lock itself while core has the folder open.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { Option } from "commander";
import { join, resolve } from "node:path";
import { loadConfig, type Config } from "../core/config.js";
// Type only: core/larder.js pulls in everything (recipes, images, auth); commands load it when they open a folder.
import type { Larder } from "../core/larder.js";
import { consoleLogger, type Logger } from "../core/log/logger.js";
import { acquireLock, LockHeldError, readLock, type HeldLock, type LockInfo } from "../core/storage/lock.js";
import { restoreInterrupted } from "../core/backups/restore-paths.js";
import { CliError, EXIT } from "./output.js";

/** What a live server leaves in `.larder/lock`: a lock with a port. */
export type LiveServer = LockInfo & { port: number };

let longRunning = false;
/** Called by `serve` once it listens: cli/index.ts then leaves the process running instead of exiting. */
export function keepProcessAlive(): void {
  longRunning = true;
}
export function isLongRunning(): boolean {
  return longRunning;
}

/**
 * The `--data` option, declared once for every command that works on a folder (`extra` adds a note,
 * as `serve` does for a folder it creates).
 */
export function dataOption(extra?: string): Option {
  return new Option(
    "--data <dir>",
    `data folder (default: $LARDER_DATA or ./data${extra ? `; ${extra}` : ""})`,
  );
}

/** `--data`, else LARDER_DATA, else ./data — as an absolute path, so messages name the real folder. */
export function resolveDataDir(flag?: string): string {
  return resolve(flag ?? (process.env.LARDER_DATA || "./data"));
}

export function configFor(dataDir: string, overrides: Parameters<typeof loadConfig>[1] = {}): Config {
  return loadConfig(process.env, { ...overrides, dataDir });
}

/** One-shot commands keep quiet; LARDER_DEBUG=1 shows core's log on stderr. */
export function cliLogger(): Logger {
  return consoleLogger(process.env.LARDER_DEBUG === "1" ? "info" : "silent");
}

/**
 * Refuse a folder that is not a Larder data folder: core would initialise an empty one, which is
 * right for `serve` and `init` but a surprise for `check` or `user add` pointed at the wrong path.
 */
export function requireDataFolder(dataDir: string): void {
  if (!existsSync(dataDir) || !statSync(dataDir).isDirectory()) {
    throw new CliError(
      `No data folder at ${dataDir} (create one with: larder init ${dataDir})`,
      EXIT.failure,
    );
  }
  if (!existsSync(join(dataDir, "larder.json")) && !restoreInterrupted(dataDir)) {
    throw new CliError(`${dataDir} is not a Larder data folder (no larder.json)`, EXIT.failure);
  }
}

/** What a fresh `git init` or `git clone` of an empty repository leaves: still an empty folder for us. */
const ADOPTABLE = new Set([".git"]);

/** True for a Larder folder, false for a missing or empty one (safe to initialise); throws for anything else. */
export function isLarderFolder(dir: string): boolean {
  if (!existsSync(dir)) return false;
  if (!statSync(dir).isDirectory()) throw new CliError(`${dir} exists and is not a folder`, EXIT.failure);
  const entries = readdirSync(dir);
  // A restore killed while it swapped the folder's contents: opening the folder finishes or undoes it.
  if (entries.includes("larder.json") || restoreInterrupted(dir)) return true;
  if (entries.some((e) => !ADOPTABLE.has(e))) {
    throw new CliError(
      `${dir} is not empty and is not a Larder data folder (no larder.json); refusing to write into it`,
      EXIT.failure,
    );
  }
  return false;
}

/**
 * The server holding the folder, or null when none is running. A lock without a port is another CLI
 * command holding the folder for a moment; withLock() waits for it.
 */
export async function liveServer(dataDir: string): Promise<LiveServer | null> {
  const lock = await readLock(dataDir);
  return lock && lock.port !== null ? (lock as LiveServer) : null;
}

/** How long to wait for another CLI command to finish with the folder. */
const LOCK_WAIT_MS = 10_000;

/**
 * A folder on a read-only file system, said as such: core's own words for EROFS ("the change was not
 * saved") read as if `larder check` had tried to change something. Even reading takes the folder's
 * lock and keeps caches in `.larder/`, so the folder must be writable.
 */
export function refuseReadOnly(error: unknown, dataDir: string): void {
  if ((error as NodeJS.ErrnoException | null)?.code === "EROFS")
    throw new CliError(
      `${dataDir} is on a read-only file system: Larder writes its lock and caches in .larder/ even to read a folder; mount it read-write or copy it somewhere writable`,
      EXIT.failure,
    );
}

/** Hold the folder's lock for the duration of `fn`: nobody else writes while core has it open. */
export async function withLock<T>(dataDir: string, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  let lock: HeldLock;
  for (;;) {
    try {
      lock = await acquireLock(dataDir);
      break;
    } catch (e) {
      refuseReadOnly(e, dataDir);
      if (!(e instanceof LockHeldError)) throw e;
      // A server that started meanwhile keeps the folder: say so rather than wait for it.
      if (e.holder.port !== null || Date.now() > deadline)
        throw new CliError(`${e.message}. Try again later.`, EXIT.failure);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await fn();
  } finally {
    await lock.release();
  }
}

type OpenFor = { seed?: boolean; recipes?: "now" | "when-needed" };

/** Open the folder with core for a command that runs once (no watcher); the caller closes it. */
export async function openLarder(config: Config, opts: OpenFor = {}): Promise<Larder> {
  const { Larder } = await import("../core/larder.js");
  const { builtinPlugins } = await import("../plugins/builtins.js");
  return Larder.open(config, {
    log: cliLogger(),
    watch: false,
    plugins: builtinPlugins,
    seed: opts.seed,
    recipes: opts.recipes,
  });
}

/** Open the folder with core for a one-shot command (no watcher), run `fn`, close it. */
export async function withLarder<T>(
  config: Config,
  fn: (larder: Larder) => Promise<T>,
  opts: OpenFor = {},
): Promise<T> {
  const larder = await openLarder(config, opts);
  try {
    return await fn(larder);
  } finally {
    await larder.close();
  }
}
