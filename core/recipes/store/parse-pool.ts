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
  // Equal shares: giving the main thread less or more than a worker (0.6 to 1.6 times) was slower on 2
  // cores; a worker's start and the clone of its docs back cost about what the main thread's compaction does.
  const share = Math.ceil(jobs.length / (workers + 1));
  const slices: [number, number][] = [];
  for (let w = 0; w < workers; w++)
    slices.push([Math.min(jobs.length, w * share), Math.min(jobs.length, (w + 1) * share)]);
  const pending = slices.map(([from, to]) =>
    from < to
      ? runInPool({ op: "parse", batch: { jobs: jobs.slice(from, to), vocabularies } }).catch(() => null)
      : Promise.resolve([]),
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
