/**
 * Parsing many recipe files on every core: the scan at open of a folder nobody has cached (a first
 * start, an upgrade, a vocabulary change) spends nearly all its time parsing, one file after another.
 * Worker threads parse shares of the files while the main thread parses its own; docs come back by
 * structured clone, which also leaves them compact (fresh strings, no slices of the file's text).
 *
 * Only from compiled code (dist/): under tsx or vitest the worker's TypeScript source cannot be loaded
 * by a plain worker thread, and the caller parses everything itself, as it does for small scans.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { RecipeDoc, Vocabulary } from "../doc.js";
import type { BrokenInfo } from "./types.js";

export type ParseOutcome = { doc: RecipeDoc } | { error: BrokenInfo };

/** What one worker is sent: its files (group, text) and the vocabularies of their groups. */
export interface ParseBatch {
  jobs: [groupSlug: string, text: string][];
  vocabularies: Record<string, Vocabulary>;
}

/** Run one parse: its doc, or what failed and on which line (a RecipeFileError carries one). */
export function outcomeOf(parse: () => RecipeDoc): ParseOutcome {
  try {
    return { doc: parse() };
  } catch (e) {
    const line = typeof e === "object" && e !== null && "line" in e && typeof e.line === "number" ? e.line : null;
    return { error: { message: e instanceof Error ? e.message : String(e), line } };
  }
}

/** Below this many files, starting workers costs more than it saves. */
export const POOL_MIN_FILES = 1500;
const MAX_WORKERS = 3;

const WORKER_URL = new URL("./parse-worker.js", import.meta.url);

/** The worker script, when this module runs compiled and the script sits beside it. */
function workerScript(): URL | null {
  if (!import.meta.url.endsWith(".js")) return null;
  return existsSync(fileURLToPath(WORKER_URL)) ? WORKER_URL : null;
}

/** How many worker threads a scan of `files` files would use (0: parse on the main thread only). */
export function poolSize(files: number, cores = availableParallelism()): number {
  if (files < POOL_MIN_FILES || workerScript() === null) return 0;
  return Math.max(0, Math.min(MAX_WORKERS, cores - 1));
}

// Equal shares: giving the main thread less or more than a worker (0.6 to 1.6 times) was slower on 2
// cores; a worker's start and the clone of its docs back cost about what the main thread's compaction does.
function runBatch(script: URL, batch: ParseBatch): Promise<ParseOutcome[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(script);
    worker.once("message", (out: ParseOutcome[]) => {
      resolve(out);
      void worker.terminate();
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`parse worker exited with code ${code}`)));
    worker.postMessage(batch);
  });
}

/**
 * Parse `jobs` (group, text) with `workers` worker threads and the main thread (`parseHere`) sharing
 * the work; the outcomes come back in the order of `jobs`. A worker that fails leaves its share to
 * the main thread, so the result is the same, only slower.
 */
export async function parseShared(
  jobs: [groupSlug: string, text: string][],
  vocabularyFor: (groupSlug: string) => Vocabulary,
  parseHere: (groupSlug: string, text: string) => ParseOutcome,
  workers: number,
): Promise<ParseOutcome[]> {
  const script = workerScript();
  if (!script || workers <= 0) return jobs.map(([g, t]) => parseHere(g, t));
  const vocabularies: Record<string, Vocabulary> = {};
  for (const [g] of jobs) if (!(g in vocabularies)) vocabularies[g] = vocabularyFor(g);
  const share = Math.ceil(jobs.length / (workers + 1));
  const slices: [number, number][] = [];
  for (let w = 0; w < workers; w++) slices.push([Math.min(jobs.length, w * share), Math.min(jobs.length, (w + 1) * share)]);
  const pending = slices.map(([from, to]) =>
    from < to ? runBatch(script, { jobs: jobs.slice(from, to), vocabularies }).catch(() => null) : Promise.resolve([]),
  );
  // The main thread's share, while the workers parse theirs.
  const mineFrom = Math.min(jobs.length, workers * share);
  const mine = jobs.slice(mineFrom).map(([g, t]) => parseHere(g, t));
  const out: ParseOutcome[] = [];
  for (let w = 0; w < workers; w++) {
    const [from, to] = slices[w];
    const got = await pending[w];
    if (got && got.length === to - from) out.push(...got);
    else for (let i = from; i < to; i++) out.push(parseHere(jobs[i][0], jobs[i][1]));
  }
  out.push(...mine);
  return out;
}
