/**
 * Offline training of the tagger: an averaged structured perceptron (Collins 2002) with Viterbi
 * decoding, over the same features the run-time model uses (decision 0040). Deterministic for a seed.
 */
import { MAX_FEATURES, extract } from "./features.js";
import { NUM_LABELS } from "./labels.js";
import { viterbi, type ModelParts } from "./model.js";
import { mulberry32 } from "../../../core/util/seeded-random.js";

const L = NUM_LABELS;

export interface TrainingSentence {
  tokens: readonly string[];
  /** Label indexes (see labels.ts). */
  labels: readonly number[];
}

export interface TrainOptions {
  epochs: number;
  seed: number;
  /** Features seen fewer times than this are not learned (smaller model, less overfitting). */
  minCount: number;
  /**
   * Passive-aggressive step cap (MIRA-style): each mistaken line moves the weights just enough to
   * score the gold labels above the prediction by its number of wrong tokens, at most `pa`. 0 = the
   * plain perceptron step of 1.
   */
  pa?: number;
  /** Called after each epoch with the model averaged so far (for held-out scoring). */
  onEpoch?: (epoch: number, mistakes: number, model: () => ModelParts) => void;
}

export function trainPerceptron(data: readonly TrainingSentence[], opts: TrainOptions): ModelParts {
  // 1. Features of every sentence, once; count them and give the frequent ones a row.
  let feats = new Int32Array(64 * MAX_FEATURES);
  let counts = new Uint8Array(64);
  const perSentence: Array<{ keys: Int32Array; offsets: Int32Array }> = [];
  const freq = new Map<number, number>();
  for (const s of data) {
    const n = s.tokens.length;
    if (counts.length < n) {
      feats = new Int32Array(n * 2 * MAX_FEATURES);
      counts = new Uint8Array(n * 2);
    }
    extract(s.tokens, feats, counts);
    const offsets = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) offsets[i + 1] = offsets[i] + counts[i];
    const keys = new Int32Array(offsets[n]);
    for (let i = 0; i < n; i++)
      for (let k = 0; k < counts[i]; k++) {
        const key = feats[i * MAX_FEATURES + k];
        keys[offsets[i] + k] = key;
        freq.set(key, (freq.get(key) ?? 0) + 1);
      }
    perSentence.push({ keys, offsets });
  }
  const rowOf = new Map<number, number>();
  const rowKeys: number[] = [];
  for (const [key, c] of freq) {
    if (c >= opts.minCount) {
      rowOf.set(key, rowKeys.length);
      rowKeys.push(key);
    }
  }
  const rows = perSentence.map(({ keys, offsets }) => {
    const r = new Int32Array(keys.length);
    for (let j = 0; j < keys.length; j++) r[j] = rowOf.get(keys[j]) ?? -1;
    return { rows: r, offsets };
  });

  // 2. Perceptron with lazy averaging: avg = w - u / c.
  const R = rowKeys.length;
  const w = new Float64Array(R * L),
    u = new Float64Array(R * L);
  const T = (L + 1) * L;
  const t = new Float64Array(T + L),
    tu = new Float64Array(T + L); // transitions, then end weights
  let c = 1;
  // Seeded, so shuffles (and so models) are reproducible.
  const random = mulberry32(opts.seed);
  const order = [...data.keys()];
  let sc = new Float64Array(64 * L),
    delta = new Float64Array(64 * L),
    back = new Uint8Array(64 * L),
    pred = new Uint8Array(64);
  const endView = () => t.subarray(T);

  const averaged = (): ModelParts => {
    const weights = new Float32Array(R * L);
    for (let i = 0; i < R * L; i++) weights[i] = w[i] - u[i] / c;
    const tt = new Float32Array(T),
      end = new Float32Array(L);
    for (let i = 0; i < T; i++) tt[i] = t[i] - tu[i] / c;
    for (let i = 0; i < L; i++) end[i] = t[T + i] - tu[T + i] / c;
    return { keys: Int32Array.from(rowKeys), weights, transitions: tt, end, temperature: 1 };
  };

  for (let epoch = 1; epoch <= opts.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    let mistakes = 0;
    for (const idx of order) {
      const gold = data[idx].labels;
      const { rows: fr, offsets } = rows[idx];
      const n = gold.length;
      if (pred.length < n) {
        sc = new Float64Array(n * 2 * L);
        delta = new Float64Array(n * 2 * L);
        back = new Uint8Array(n * 2 * L);
        pred = new Uint8Array(n * 2);
      }
      sc.fill(0, 0, n * L);
      for (let i = 0; i < n; i++)
        for (let j = offsets[i]; j < offsets[i + 1]; j++) {
          const r = fr[j];
          if (r < 0) continue;
          for (let y = 0; y < L; y++) sc[i * L + y] += w[r * L + y];
        }
      viterbi(sc, n, t, endView(), delta, back, pred);
      let wrong = false;
      for (let i = 0; i < n; i++) if (pred[i] !== gold[i]) wrong = true;
      if (wrong) {
        mistakes++;
        let step = 1;
        if (opts.pa) {
          // margin = score(gold) - score(pred); loss = wrong tokens; |Δφ|² ≈ 2 per feature of a wrong token.
          let margin = 0,
            loss = 0,
            norm = 0;
          for (let i = 0; i < n; i++) {
            const g = gold[i],
              p = pred[i];
            margin += sc[i * L + g] - sc[i * L + p];
            const gp = i === 0 ? L : gold[i - 1],
              pp = i === 0 ? L : pred[i - 1];
            margin += t[gp * L + g] - t[pp * L + p];
            if (g !== p) {
              loss++;
              norm += 2 * (offsets[i + 1] - offsets[i]);
            }
            if (gp !== pp || g !== p) norm += 2;
          }
          margin += t[T + gold[n - 1]] - t[T + pred[n - 1]];
          step = Math.min(opts.pa, Math.max(0, loss - margin) / Math.max(norm, 1));
        }
        const sc_ = step * c;
        for (let i = 0; i < n; i++) {
          const g = gold[i],
            p = pred[i];
          if (g !== p) {
            for (let j = offsets[i]; j < offsets[i + 1]; j++) {
              const r = fr[j];
              if (r < 0) continue;
              w[r * L + g] += step;
              u[r * L + g] += sc_;
              w[r * L + p] -= step;
              u[r * L + p] -= sc_;
            }
          }
          const gp = i === 0 ? L : gold[i - 1],
            pp = i === 0 ? L : pred[i - 1];
          if (gp !== pp || g !== p) {
            t[gp * L + g] += step;
            tu[gp * L + g] += sc_;
            t[pp * L + p] -= step;
            tu[pp * L + p] -= sc_;
          }
        }
        const ge = gold[n - 1],
          pe = pred[n - 1];
        if (ge !== pe) {
          t[T + ge] += step;
          tu[T + ge] += sc_;
          t[T + pe] -= step;
          tu[T + pe] -= sc_;
        }
      }
      c++;
    }
    opts.onEpoch?.(epoch, mistakes, averaged);
  }
  return averaged();
}
