/**
 * Reading the labelled ingredient lines (shared/fixtures/ingredients/*.jsonl, see its SOURCE.md).
 * Training reads only `train` files; a held-out dev split of them is used for tuning.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { hashString } from "./features.js";
import { LABEL_INDEX } from "./labels.js";
import type { TrainingSentence } from "./perceptron.js";

export const FIXTURES_DIR =
  process.env.LARDER_INGREDIENT_FIXTURES ??
  fileURLToPath(new URL("../../../../shared/fixtures/ingredients/", import.meta.url));

export interface LabelledLine extends TrainingSentence {
  id: string;
  source: string;
  input: string;
}

/**
 * The files `train:parser` learns from: only `train` splits, never `test`. NYT's 2023 file follows other
 * labelling conventions and lowered the held-out scores when mixed in (decision 0040), so it is not used.
 */
export const TRAIN_FILES = ["train.jsonl"] as const;

export function readJsonl(path: string): LabelledLine[] {
  const out: LabelledLine[] = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as {
      id: string;
      source: string;
      input: string;
      tokens: string[];
      labels: string[] | null;
    };
    if (!r.labels) continue;
    out.push({ id: r.id, source: r.source, input: r.input, tokens: r.tokens, labels: r.labels.map((l) => LABEL_INDEX[l]) });
  }
  return out;
}

/** SOURCE.md's normalisation for comparing sentences across splits. */
export function normaliseSentence(s: string): string {
  return s.normalize("NFC").toLowerCase().trim().replace(/\s+/g, " ");
}

/** One line in ten of train is held out for tuning, by a hash of its text (stable, no leakage). */
export function isDev(line: { input: string }): boolean {
  return hashString(normaliseSentence(line.input)) % 10 === 0;
}
