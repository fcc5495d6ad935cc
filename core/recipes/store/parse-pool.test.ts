import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { serializeRecipeFile } from "../file/recipe-file.js";
import { VOCAB } from "../file/test-support.js";
import { readRecipeFile } from "./fast-read.js";
import { outcomeOf, parseShared, poolSize, POOL_MIN_FILES, type ParseOutcome } from "./parse-pool.js";
import { recipe } from "./test-helpers.js";

/** Files as a folder holds them: canonical recipes, one hand-written oddity, and broken ones. */
function texts(n: number): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < n; i++) {
    const g = i % 3 === 0 ? "other" : "home";
    if (i % 97 === 5) out.push([g, `---\nname: [unclosed\n---\n\nBroken ${i}\n`]);
    else if (i % 89 === 7) out.push([g, `# Hand-written ${i}\n\nA note.\n\n## Ingredients\n\n- 2 cups flour, sifted\n- salt\n\n## Instructions\n\n1. Mix.\n`]);
    else {
      const doc = recipe(`Recipe ${i} — crème`, {
        tags: [`tag ${i % 7}`],
        ingredients: [
          { title: null, quantity: (i % 5) + 1, quantityMax: null, unit: "cup", food: "flour", note: i % 2 ? "sifted" : "", originalText: null, referencedRecipe: null },
          { title: "For the top", quantity: null, quantityMax: null, unit: null, food: null, note: `a pinch of salt ${i}`, originalText: null, referencedRecipe: null },
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

describe("parse pool", () => {
  it("uses no workers for small scans, or where the worker script is not compiled", () => {
    expect(poolSize(POOL_MIN_FILES - 1, 8)).toBe(0);
    // These tests run from TypeScript source: a plain worker thread could not load parse-worker.ts.
    expect(poolSize(POOL_MIN_FILES * 10, 8)).toBe(0);
  });

  it("parses on the main thread alone when asked for no workers", async () => {
    const jobs = texts(50);
    expect(await parseShared(jobs, () => VOCAB, inline, 0)).toEqual(jobs.map(([g, t]) => inline(g, t)));
  });

  // The compiled pool, as `larder serve` runs it (npm test builds dist/ first).
  const compiled = fileURLToPath(new URL("../../../dist/core/recipes/store/parse-pool.js", import.meta.url));
  const haveDist = existsSync(compiled);
  if (!haveDist) console.warn("parse pool: dist/ is not built (npm run build:ts); the worker-thread test is skipped");

  it.skipIf(!haveDist)("gives with worker threads exactly what the main thread gives, in order", async () => {
    const pool = (await import(compiled)) as typeof import("./parse-pool.js");
    const fast = (await import(compiled.replace(/parse-pool\.js$/, "fast-read.js"))) as typeof import("./fast-read.js");
    const here = (_g: string, text: string): ParseOutcome => pool.outcomeOf(() => fast.readRecipeFile(text, VOCAB));
    const jobs = texts(POOL_MIN_FILES);
    expect(pool.poolSize(jobs.length, 4)).toBe(3);
    const shared = await pool.parseShared(jobs, () => VOCAB, here, 2);
    const alone = jobs.map(([g, t]) => here(g, t));
    expect(shared).toHaveLength(jobs.length);
    expect(shared).toEqual(alone);
    expect(shared.filter((o) => "error" in o).length).toBeGreaterThan(10);
  });
});
