/**
 * Parsing many recipe files on every core: the scan at open of a folder nobody has cached (a first
 * start, an upgrade, a vocabulary change) spends nearly all its time parsing, one file after another.
 * Threads of the shared worker pool (workers/pool.ts) parse shares of the files while the main thread
 * parses its own. Docs come back packed as text (packOutcome) and their heads are parsed on the main
 * thread: a structured clone kept each string as the file's text had it (two bytes a character when
 * the file had one non-Latin-1 character), where JSON.parse gives what compactDoc gives a doc parsed
 * on the main thread and shares short repeated strings. The pool runs the same from compiled code and
 * from TypeScript source.
 */
import { availableParallelism } from "node:os";
import type { RecipeDoc, Vocabulary } from "../doc.js";
import { runInPool } from "../../workers/pool.js";
import { readRecipeFile } from "./fast-read.js";
import { docFromPackedText, jsonSafe, packDocText, type PackedDocText } from "./index-cache.js";
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

/** One job of a batch: the same reader the main thread uses. */
function parseJob(batch: ParseBatch, [groupSlug, text]: Job): ParseOutcome {
  return outcomeOf(() => readRecipeFile(text, batch.vocabularies[groupSlug]));
}

/** A worker's share. */
export function parseBatch(batch: ParseBatch): ParseOutcome[] {
  return batch.jobs.map((job) => parseJob(batch, job));
}

/**
 * A worker's answer: each doc packed as text (index-cache.ts `packDocText`), or as JSON text when rows
 * would not split it, or as it is when JSON cannot carry it; failures as they are.
 */
export type PackedOutcome = string | ParseOutcome | PackedDocText;

/**
 * An outcome as it crosses from a worker (see the comment at the top). Packed where it was parsed:
 * the main thread then parses only each doc's head and foods' names, and keeps the rest as text,
 * where it parsed every doc whole and packed it again itself (decision 0180).
 */
export function packOutcome(o: ParseOutcome): PackedOutcome {
  if (!("doc" in o)) return o;
  return packDocText(o.doc) ?? (jsonSafe(o.doc) ? JSON.stringify(o) : o);
}

/**
 * parseBatch, answered as the main thread wants it. Each doc is packed as soon as it is parsed, so its
 * objects die young: parsing the whole chunk first kept 500 docs alive through a dozen scavenges,
 * each copying them, and a cold start of 10,000 recipes spent 384 ms of the thread's time in
 * scavenges where it now spends 275 (decision 0217).
 */
export function parsePacked(batch: ParseBatch): PackedOutcome[] {
  return batch.jobs.map((job) => packOutcome(parseJob(batch, job)));
}

export function unpackOutcome(o: PackedOutcome): ParseOutcome {
  if (typeof o === "string") return JSON.parse(o) as ParseOutcome;
  return "parts" in o ? { doc: docFromPackedText(o) } : o;
}

/** Below this many files, starting workers costs more than it saves. */
export const POOL_MIN_FILES = 1500;
const MAX_WORKERS = 3;
/** Files per task sent to a worker. */
export const PARSE_CHUNK = 500;

/** How many worker threads a scan of `files` files would use (0: parse on the main thread only). */
export function poolSize(files: number, cores = availableParallelism()): number {
  if (files < POOL_MIN_FILES) return 0;
  return Math.max(0, Math.min(MAX_WORKERS, cores - 1));
}

type Job = [groupSlug: string, text: string];

/** Files the main thread parses between two looks at the workers' answers. */
const LOCAL_STEP = 50;

/**
 * Parses chunks of files as a scan reads them, so no more than a few chunks' texts are alive at once
 * (decision 0113: holding every text until every file was parsed set the 50,000-recipe peak). Chunks
 * wait in a short queue for the `workers` worker threads; the main thread, which also reads the files,
 * parses a chunk itself only when the queue is full, and at the end takes chunks from the back while
 * the workers take them from the front. Each chunk's outcomes are handed to `done` in the order of its
 * jobs, on the main thread, by the time `finish` resolves. A worker that fails (or a group whose
 * vocabulary cannot be had) leaves its chunk to the main thread: the outcomes are the same, only later.
 */
export class ChunkParser {
  private readonly queue: Chunk[] = [];
  private inFlight = 0;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly workers: number,
    private readonly vocabularyFor: (groupSlug: string) => Vocabulary,
    private readonly parseHere: (groupSlug: string, text: string) => ParseOutcome,
    /** Chunks read ahead while every worker is busy, before the main thread parses one itself. */
    private readonly readAhead = 1,
  ) {}

  /** Resolves once the chunk is handed on (or, when the main thread takes it, parsed). */
  async add(jobs: Job[], done: (outcomes: ParseOutcome[]) => void): Promise<void> {
    if (jobs.length === 0 || this.workers === 0) return this.parseLocally({ jobs, done });
    this.queue.push({ jobs, done });
    this.dispatch();
    if (this.queue.length > this.readAhead) await this.parseInSteps(this.queue.pop()!);
  }

  /** Lets the workers' answers in (and hands them their next chunk) between two steps of a scan. */
  async turn(): Promise<void> {
    if (this.pending.size > 0) await new Promise((ok) => setImmediate(ok));
  }

  async finish(): Promise<void> {
    while (this.queue.length > 0 || this.pending.size > 0) {
      if (this.queue.length > 0) await this.parseInSteps(this.queue.pop()!);
      else await Promise.race(this.pending);
    }
  }

  /**
   * The main thread's share, a few files at a time: a worker that finishes meanwhile gets its next
   * chunk within a step instead of idling until the whole chunk is parsed here.
   */
  private async parseInSteps(chunk: Chunk): Promise<void> {
    const out: ParseOutcome[] = [];
    for (const [g, t] of chunk.jobs) {
      out.push(this.parseHere(g, t));
      if (out.length % LOCAL_STEP === 0) await this.turn();
    }
    chunk.done(out);
  }

  private dispatch(): void {
    while (this.inFlight < this.workers && this.queue.length > 0) {
      const chunk = this.queue.shift()!;
      const vocabularies = this.vocabulariesOf(chunk.jobs);
      if (vocabularies === null) {
        this.parseLocally(chunk);
        continue;
      }
      this.inFlight++;
      const task: Promise<void> = runInPool({ op: "parsePacked", batch: { jobs: chunk.jobs, vocabularies } })
        .catch(() => null)
        .then((got) => {
          this.inFlight--;
          this.pending.delete(task);
          if (got && got.length === chunk.jobs.length) chunk.done(got.map(unpackOutcome));
          else this.parseLocally(chunk);
          this.dispatch();
        });
      this.pending.add(task);
    }
  }

  private parseLocally(chunk: Chunk): void {
    chunk.done(chunk.jobs.map(([g, t]) => this.parseHere(g, t)));
  }

  private vocabulariesOf(jobs: Job[]): Record<string, Vocabulary> | null {
    const out: Record<string, Vocabulary> = {};
    try {
      for (const [g] of jobs) if (!(g in out)) out[g] = this.vocabularyFor(g);
    } catch {
      // A group without a vocabulary yet: parsed here, where each of its files reports why.
      return null;
    }
    return out;
  }
}

interface Chunk {
  jobs: Job[];
  done: (outcomes: ParseOutcome[]) => void;
}

/**
 * Parse `jobs` (group, text) with up to `workers` worker threads and the main thread (`parseHere`)
 * sharing the work; the outcomes come back in the order of `jobs`.
 */
export async function parseShared(
  jobs: Job[],
  vocabularyFor: (groupSlug: string) => Vocabulary,
  parseHere: (groupSlug: string, text: string) => ParseOutcome,
  workers: number,
): Promise<ParseOutcome[]> {
  const out = new Array<ParseOutcome>(jobs.length);
  const parser = new ChunkParser(workers, vocabularyFor, parseHere);
  for (let from = 0; from < jobs.length; from += PARSE_CHUNK) {
    const at = from;
    await parser.add(jobs.slice(from, from + PARSE_CHUNK), (got) => {
      for (let i = 0; i < got.length; i++) out[at + i] = got[i];
    });
    await parser.turn();
  }
  await parser.finish();
  return out;
}
