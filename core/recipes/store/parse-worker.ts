/**
 * A worker thread of the parse pool (parse-pool.ts): parses the recipe files it is sent with the same
 * reader the main thread uses, and sends back each doc or the error with its line.
 */
import { parentPort } from "node:worker_threads";
import { readRecipeFile } from "./fast-read.js";
import { outcomeOf, type ParseBatch, type ParseOutcome } from "./parse-pool.js";

parentPort?.on("message", (batch: ParseBatch) => {
  const out: ParseOutcome[] = batch.jobs.map(([groupSlug, text]) =>
    outcomeOf(() => readRecipeFile(text, batch.vocabularies[groupSlug])),
  );
  parentPort?.postMessage(out);
});
