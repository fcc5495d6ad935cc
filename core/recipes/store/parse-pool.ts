/**
 * Parsing many recipe files on every core: the scan at open of a folder nobody has cached (a first
 * start, an upgrade, a vocabulary change) spends nearly all its time parsing, one file after another.
 * Threads of the shared worker pool (workers/pool.ts) parse shares of the files while the main thread
 * parses its own; docs come back by structured clone, which also leaves them compact (fresh strings, no
 * slices of the file's text). The pool runs the same from compiled code and from TypeScript source.
 */
import { availableParallelism } from "node:os";
import type { RecipeDoc, Vocabulary } from "../doc.js";
import { runInPool } from "../../workers/pool.js";
import { readRecipeFile } from "./fast-read.js";
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
    const line =
      typeof e === "object" && e !== null && "line" in e && typeof e.line === "number" ? e.line : null;
    return { error: { message: e instanceof Error ? e.message : String(e), line } };
  }
}

/** A worker's share: the same reader the main thread uses. */
export function parseBatch(batch: ParseBatch): ParseOutcome[] {
  return batch.jobs.map(([groupSlug, text]) =>
    outcomeOf(() => readRecipeFile(text, batch.vocabularies[groupSlug])),
  );
}

/** Below this many files, starting workers costs more than it saves. */
export const POOL_MIN_FILES = 1500;
const MAX_WORKERS = 3;
/** Files per task sent to a worker. */
export const PARSE_CHUNK = 1000;

/** How many worker threads a scan of `files` files would use (0: parse on the main thread only). */
export function poolSize(files: number, cores = availableParallelism()): number {
  if (files < POOL_MIN_FILES) return 0;
  return Math.max(0, Math.min(MAX_WORKERS, cores - 1));
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
  if (workers <= 0) return jobs.map(([g, t]) => parseHere(g, t));
  const vocabularies: Record<string, Vocabulary> = {};
  for (const [g] of jobs) if (!(g in vocabularies)) vocabularies[g] = vocabularyFor(g);
  // Chunks, not one share per worker: a worker holds one chunk's texts and docs at a time, so its
  // heap stays small and each chunk's docs leave it as soon as they are parsed (one share of 16,000
  // files at 50,000 recipes kept every doc twice, in the worker and in the message, decision 0112).
  // Every (workers + 1)-th chunk is the main thread's: the equal split measured best on 2 cores (0007).
  const size = Math.min(PARSE_CHUNK, Math.ceil(jobs.length / (workers + 1)));
  const chunks: [number, number][] = [];
  for (let from = 0; from < jobs.length; from += size)
    chunks.push([from, Math.min(jobs.length, from + size)]);
  const mineAt = (i: number) => i % (workers + 1) === workers;
  const pending = chunks.map(([from, to], i) =>
    mineAt(i)
      ? null
      : runInPool({ op: "parse", batch: { jobs: jobs.slice(from, to), vocabularies } }).catch(() => null),
  );
  // The main thread's chunks, while the workers parse theirs.
  const parsed: (ParseOutcome[] | null)[] = chunks.map(([from, to], i) =>
    mineAt(i) ? jobs.slice(from, to).map(([g, t]) => parseHere(g, t)) : null,
  );
  const out: ParseOutcome[] = [];
  for (let i = 0; i < chunks.length; i++) {
    const [from, to] = chunks[i];
    const got = parsed[i] ?? (await pending[i]);
    if (got && got.length === to - from) out.push(...got);
    else for (let k = from; k < to; k++) out.push(parseHere(jobs[k][0], jobs[k][1]));
  }
  return out;
}
