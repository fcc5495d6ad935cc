/**
 * `npm run train:parser`: trains the nlp ingredient tagger on the train split of
 * ../shared/fixtures/ingredients and writes plugins/parsers/nlp/model.bin.gz (decision 0040).
 *
 *   --dev            hold out one line in ten of train and report its scores after each epoch
 *   --epochs N       passes over the data (default below, chosen on the dev split)
 *   --seed N         shuffle seed (the same seed and data give the same model)
 *   --out PATH       where to write the model
 *   --keep N         keep the N strongest features (a smaller, faster model)
 *   --prune-scan     with --dev: score the model at several sizes
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { FIXTURES_DIR, TRAIN_FILES, isDev, readJsonl, type LabelledLine } from "../plugins/parsers/nlp/dataset.js";
import { Scores } from "../plugins/parsers/nlp/metrics.js";
import { TaggerModel, encodeModel, type ModelParts } from "../plugins/parsers/nlp/model.js";
import { trainPerceptron } from "../plugins/parsers/nlp/perceptron.js";

const DEFAULTS = { epochs: 14, seed: 16, minCount: 1, minWeight: 0.05, keep: 60_000, temperature: 24, pa: 0 };

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function score(model: TaggerModel, lines: readonly LabelledLine[]): Record<string, number> {
  const s = new Scores();
  for (const l of lines) s.add(l.tokens, l.labels, model.tag(l.tokens, false).labels);
  return s.summary();
}

/** The temperature that minimises the held-out log loss of the tagged labels' marginals. */
function calibrate(parts: ModelParts, dev: readonly LabelledLine[]): number {
  let best = 1,
    bestLoss = Infinity;
  for (const temp of [1, 2, 4, 8, 12, 16, 24, 32, 48, 64]) {
    const m = new TaggerModel({ ...parts, temperature: temp });
    let loss = 0;
    for (const l of dev.slice(0, 2000)) {
      const { labels, confidence } = m.tag(l.tokens);
      for (let i = 0; i < labels.length; i++) {
        const p = Math.min(Math.max(confidence[i], 1e-6), 1 - 1e-6);
        loss -= labels[i] === l.labels[i] ? Math.log(p) : Math.log(1 - p);
      }
    }
    if (loss < bestLoss) {
      bestLoss = loss;
      best = temp;
    }
  }
  return best;
}

function main(): void {
  const dev = process.argv.includes("--dev");
  const epochs = Number(arg("epochs") ?? DEFAULTS.epochs);
  const seed = Number(arg("seed") ?? DEFAULTS.seed);
  const minCount = Number(arg("min-count") ?? DEFAULTS.minCount);
  const minWeight = Number(arg("min-weight") ?? DEFAULTS.minWeight);
  const keep = Number(arg("keep") ?? DEFAULTS.keep);
  const out = arg("out") ?? fileURLToPath(new URL("../plugins/parsers/nlp/model.bin.gz", import.meta.url));

  const all = TRAIN_FILES.flatMap((f) => readJsonl(join(FIXTURES_DIR, f)));
  const train = dev ? all.filter((l) => !isDev(l)) : all;
  const held = dev ? all.filter(isDev) : [];
  console.log(`training on ${train.length} lines${dev ? `, ${held.length} held out` : ""}; ${epochs} epochs, seed ${seed}`);

  const started = performance.now();
  const parts = trainPerceptron(train, {
    epochs,
    seed,
    minCount,
    pa: Number(arg("pa") ?? DEFAULTS.pa),
    onEpoch(epoch, mistakes, model) {
      const secs = ((performance.now() - started) / 1000).toFixed(1);
      const line = `epoch ${epoch}: ${mistakes} lines wrong in training, ${secs} s`;
      if (dev && (epoch >= epochs - 6 || epoch % 3 === 0)) console.log(line, JSON.stringify(score(new TaggerModel(model()), held)));
      else console.log(line);
    },
  });
  const temperature = dev ? calibrate(parts, held) : DEFAULTS.temperature;
  const file = encodeModel({ ...parts, temperature }, minWeight, keep);
  const model = TaggerModel.decode(file);
  console.log(`model: ${model.features} features (of ${parts.keys.length}), ${(file.length / 1024).toFixed(0)} KiB, temperature ${temperature}`);
  if (dev) console.log("held out, encoded model:", JSON.stringify(score(model, held)));
  if (dev && process.argv.includes("--prune-scan")) {
    for (const k of [20_000, 40_000, 60_000, 80_000, 120_000]) {
      for (const mw of [minWeight, minWeight * 4]) {
        const f = encodeModel({ ...parts, temperature }, mw, k);
        const m = TaggerModel.decode(f);
        console.log(`keep ${k}, min weight ${mw}: ${m.features} features, ${(f.length / 1024).toFixed(0)} KiB`, JSON.stringify(score(m, held)));
      }
    }
  }
  writeFileSync(out, file);
  console.log(`wrote ${out} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

main();
