/**
 * A worker thread of the parse pool (parse-pool.ts): parses the recipe files it is sent with the same
 * reader the main thread uses, and sends back each doc or the error with its line.
 */
import { parentPort } from "node:worker_threads";
import { readRecipeFile } from "./fast-read.js";
import type { ParseBatch, ParseOutcome } from "./parse-pool.js";

parentPort?.on("message", (batch: ParseBatch) => {
  const out: ParseOutcome[] = batch.jobs.map(([groupSlug, text]) => {
    try {
      return { doc: readRecipeFile(text, batch.vocabularies[groupSlug]) };
    } catch (e) {
      const line = typeof e === "object" && e !== null && "line" in e && typeof e.line === "number" ? e.line : null;
      return { error: { message: e instanceof Error ? e.message : String(e), line } };
    }
  });
  parentPort?.postMessage(out);
});
