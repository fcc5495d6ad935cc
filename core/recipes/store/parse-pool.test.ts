import { afterAll, describe, expect, it } from "vitest";
import { releaseIdleWorkers, runInPool, stopWorkerPool, workerPoolLoaded } from "../../workers/pool.js";
import { serializeRecipeFile } from "../file/recipe-file.js";
import { VOCAB } from "../file/test-support.js";
import { readRecipeFile } from "./fast-read.js";
import {
  outcomeOf,
  parsePacked,
  parseShared,
  poolSize,
  POOL_MIN_FILES,
  unpackOutcome,
  type ParseOutcome,
} from "./parse-pool.js";
import { recipe } from "./test-helpers.js";

/** Files as a folder holds them: canonical recipes, one hand-written oddity, and broken ones. */
function texts(n: number): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < n; i++) {
    const g = i % 3 === 0 ? "other" : "home";
    if (i % 97 === 5) out.push([g, `---\nname: [unclosed\n---\n\nBroken ${i}\n`]);
    else if (i % 89 === 7)
      out.push([
        g,
        `# Hand-written ${i}\n\nA note.\n\n## Ingredients\n\n- 2 cups flour, sifted\n- salt\n\n## Instructions\n\n1. Mix.\n`,
      ]);
    else {
      const doc = recipe(`Recipe ${i} — crème`, {
        tags: [`tag ${i % 7}`],
        ingredients: [
          {
            title: null,
            quantity: (i % 5) + 1,
            quantityMax: null,
            unit: "cup",
            food: "flour",
            note: i % 2 ? "sifted" : "",
            originalText: null,
            referencedRecipe: null,
          },
          {
            title: "For the top",
            quantity: null,
            quantityMax: null,
            unit: null,
            food: null,
            note: `a pinch of salt ${i}`,
            originalText: null,
            referencedRecipe: null,
          },
        ],
      });
      out.push([g, serializeRecipeFile(doc, VOCAB)]);
    }
  }
  return out;
}

function inline(_g: string, text: string): ParseOutcome {
  return outcomeOf(() => readRecipeFile(text, VOCAB));
}

afterAll(async () => {
  await stopWorkerPool();
});

describe("parse pool", () => {
  it("a worker's packed answer unpacks to what the main thread's parse gives, errors included", () => {
    const jobs = texts(200);
    const packed = parsePacked({ jobs, vocabularies: { home: VOCAB, other: VOCAB } });
    // Flat strings cross the thread boundary, not doc objects: each doc packed as text, each failure as it is.
    for (const o of packed) {
      if (typeof o === "object" && "error" in o) continue;
      expect(o).toMatchObject({
        head: expect.any(String),
        foods: expect.any(String),
        parts: expect.any(String),
        split: expect.any(Number),
      });
    }
    expect(packed.some((o) => typeof o === "object" && "error" in o)).toBe(true);
    expect(packed.map(unpackOutcome)).toEqual(jobs.map(([g, t]) => inline(g, t)));
  });

  it("uses no workers for small scans, and some for large ones where there are cores to spare", () => {
    expect(poolSize(POOL_MIN_FILES - 1, 8)).toBe(0);
    expect(poolSize(POOL_MIN_FILES, 1)).toBe(0);
    expect(poolSize(POOL_MIN_FILES, 2)).toBe(1);
    expect(poolSize(POOL_MIN_FILES * 10, 8)).toBe(3);
  });

  it("parses on the main thread alone when asked for no workers", async () => {
    const jobs = texts(50);
    expect(await parseShared(jobs, () => VOCAB, inline, 0)).toEqual(jobs.map(([g, t]) => inline(g, t)));
  });

  // From TypeScript source, as vitest and `npm run larder` run it: the old pool only worked from dist/,
  // so this test needed a build and the pool never ran in development.
  it("gives with worker threads exactly what the main thread gives, in order", async () => {
    const jobs = texts(POOL_MIN_FILES);
    let here = 0;
    const counted = (g: string, t: string): ParseOutcome => {
      here++;
      return inline(g, t);
    };
    const shared = await parseShared(jobs, () => VOCAB, counted, 2);
    // The main thread parsed only its own third: the workers' shares came back from the threads.
    expect(here).toBe(jobs.length - 2 * Math.ceil(jobs.length / 3));
    const alone = jobs.map(([g, t]) => inline(g, t));
    expect(shared).toHaveLength(jobs.length);
    expect(shared).toEqual(alone);
    expect(shared.filter((o) => "error" in o).length).toBeGreaterThan(10);
  });

  it("gives the threads back after a scan, unless a task is still running", async () => {
    const text = "---\nname: Toast\n---\n\n## Instructions\n\n1. Toast the bread.\n";
    const task = runInPool({ op: "parse", batch: { jobs: [["home", text]], vocabularies: { home: VOCAB } } });
    await releaseIdleWorkers();
    expect(workerPoolLoaded()).toBe(true);
    expect(await task).toHaveLength(1);
    await releaseIdleWorkers();
    expect(workerPoolLoaded()).toBe(false);
  });
});
