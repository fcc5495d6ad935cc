/**
 * One pool of worker threads for the CPU-heavy work that must stay off the event loop (ARCHITECTURE §5):
 * bcrypt (auth/passwords.ts), parsing many recipe files at once (recipes/store/parse-pool.ts) and
 * writing a backup's zip (backups/backup-store.ts).
 *
 * Nothing loads before it is needed: tinypool is imported, and its threads start, on the first task, so
 * a start-up that never signs anyone in nor scans a large uncached folder pays for neither. Idle threads
 * are unref'd (they never keep the process alive) and leave after a while, giving back the parser's heap.
 *
 * From compiled code the worker is worker.js beside this file (in the bundle, worker-<build>.js one folder
 * up, decision 0219). From TypeScript source (vitest, tsx) a
 * plain worker thread cannot load worker.ts, so it starts from a small module that registers tsx first:
 * the pool then behaves the same in tests as in `larder serve`.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import type Tinypool from "tinypool";
import type { PackedOutcome, ParseBatch, ParseOutcome } from "../recipes/store/parse-pool.js";
import type { Manifest } from "../backups/archive.js";
import { APPLY_INHERITED_V8_FLAGS_SOURCE, keepV8FlagsAcross } from "../util/v8-flags.js";
import { failureOf } from "./task-failure.js";

/** A task and what it answers. */
export type Task =
  | { op: "hash"; password: string; rounds: number }
  | { op: "compare"; password: string; hash: string }
  | { op: "parse"; batch: ParseBatch }
  | { op: "parsePacked"; batch: ParseBatch }
  | { op: "backup"; root: string; target: string; secrets: boolean };
export interface Answers {
  hash: string;
  compare: boolean;
  parse: ParseOutcome[];
  parsePacked: PackedOutcome[];
  backup: Manifest;
}

/** Two for bcrypt (a sign-in waits on one), up to three for a scan on a machine with the cores. */
export const POOL_MAX_THREADS = Math.max(2, Math.min(3, availableParallelism() - 1));
const IDLE_MS = 60_000;

/** The bundle's worker script, named per build (scripts/bundle.mjs, decision 0219); undefined elsewhere. */
declare const __LARDER_WORKER_FILE__: string | undefined;

function workerFile(): URL {
  const fromSource = import.meta.url.endsWith(".ts");
  const bundled = typeof __LARDER_WORKER_FILE__ === "string" ? __LARDER_WORKER_FILE__ : null;
  const worker = new URL(fromSource ? "./worker.ts" : `./${bundled ?? "worker.js"}`, import.meta.url);
  // In the bundle this code sits in a chunk one folder below the worker's script.
  if (!fromSource && !existsSync(worker)) {
    const up = new URL(`../${bundled ?? "worker.js"}`, import.meta.url);
    if (existsSync(up)) return up;
  }
  if (!fromSource) return worker;
  // tsx's ESM build of its API (its CommonJS build cannot register hooks from a data: module).
  const api = createRequire(import.meta.url)
    .resolve("tsx/esm/api")
    .replace(/\.cjs$/, ".mjs");
  const tsx = pathToFileURL(api).href;
  const boot = [
    // Before tsx loads (worker.ts sets them too, later): decision 0189.
    APPLY_INHERITED_V8_FLAGS_SOURCE,
    `const { register } = await import(${JSON.stringify(tsx)});`,
    `register();`,
    `const worker = await import(${JSON.stringify(worker.href)});`,
    `export default worker.default;`,
  ].join("\n");
  return new URL(`data:text/javascript,${encodeURIComponent(boot)}`);
}

let pool: Promise<Tinypool> | null = null;
let failure: Error | null = null;

function thePool(): Promise<Tinypool> {
  pool ??= import("tinypool").then(({ Tinypool }) => {
    failure = null;
    const made = new Tinypool({
      filename: workerFile().href,
      minThreads: 0,
      maxThreads: POOL_MAX_THREADS,
      idleTimeout: IDLE_MS,
    });
    // A thread that fails before it takes a task (it could not load its code) is reported here, not to
    // a task: the queued tasks would wait forever. Fail them with the cause; the next task starts afresh.
    made.on("error", (e: unknown) => {
      failure = e instanceof Error ? e : new Error(String(e));
      void pool?.then(async (p) => {
        if (p === made) await stopWorkerPool();
      });
    });
    return made;
  });
  return pool;
}

/** Tasks asked for and not yet answered. */
let running = 0;

/** Run one task on a worker thread; it waits in the pool's queue while every thread is busy. */
export async function runInPool<K extends Task["op"]>(task: Extract<Task, { op: K }>): Promise<Answers[K]> {
  running++;
  try {
    const p = await thePool();
    const answer = p.run(task);
    keepFlagsAcrossNewThreads(p);
    const got: unknown = await answer;
    const failed = failureOf(got);
    if (failed) throw failed;
    return got as Answers[K];
  } catch (e) {
    if (failure) throw new Error(`worker pool: ${failure.message}`, { cause: failure });
    throw e;
  } finally {
    running--;
  }
}

const watched = new WeakSet<object>();

/**
 * Tinypool starts its threads itself, as a task needs them: each one's start undoes the V8 flags set
 * since the process started (util/v8-flags.ts), so they are set again once it is online.
 */
function keepFlagsAcrossNewThreads(p: Tinypool): void {
  for (const t of p.threads) {
    if (watched.has(t)) continue;
    watched.add(t);
    keepV8FlagsAcross(t);
  }
}

/**
 * Stop the threads now if no task is running or waiting: a scan at open leaves a parser's heap in
 * each thread, held for the idle timeout otherwise, right when the server builds its search index and
 * writes its cache (decision 0130). The next task starts a new pool.
 */
export async function releaseIdleWorkers(): Promise<void> {
  if (running === 0) await stopWorkerPool();
}

/** Whether the pool has been loaded (start-up tests check that nothing loads it early). */
export function workerPoolLoaded(): boolean {
  return pool !== null;
}

/** Stop the threads (tests; a server never needs to: idle threads are unref'd). The next task starts a new pool. */
export async function stopWorkerPool(): Promise<void> {
  const p = pool;
  pool = null;
  if (p) await (await p).destroy();
}
