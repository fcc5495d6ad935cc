/**
 * The tagger at run time: a linear model over hashed features with first-order label transitions,
 * decoded with Viterbi (decision 0040). The model file is gzip'd binary:
 *
 *   "LPT1" | u32 features | f32 scale | f32 temperature | f32 transitions[(L+1)·L] | f32 end[L]
 *   | feature keys, sorted, as LEB128 deltas | u8 label mask per feature | i16 weight per set mask bit
 *
 * Weights are stored as int16 (`value / scale`) and only for the labels they touch.
 */
import { gunzipSync, gzipSync } from "node:zlib";
import { MAX_FEATURES, extract } from "./features.js";
import { NUM_LABELS } from "./labels.js";

const L = NUM_LABELS;
const MAGIC = 0x3154504c; // "LPT1" little-endian

export interface ModelParts {
  /** Feature hash → L weights. */
  keys: Int32Array;
  weights: Float32Array;
  /** (L+1)×L: row L is the start state. */
  transitions: Float32Array;
  end: Float32Array;
  /** Divides scores before the softmax that gives confidences (calibrated on held-out lines). */
  temperature: number;
}

export interface Tagged {
  labels: Uint8Array;
  /** Per token, the marginal probability of its label (forward-backward over the scores). */
  confidence: Float32Array;
}

export class TaggerModel {
  readonly features: number;
  /**
   * Open addressing with the weights inline, so a lookup touches one cache line: slot s holds the key
   * at int32 [5s] (0 = empty; no feature hashes to 0) and its L weights as int16 at [10s + 2 …].
   * Scores are kept in these integer units; transitions and temperature are scaled to match.
   */
  readonly #table: Int32Array;
  readonly #weights16: Int16Array;
  readonly #mask: number;
  readonly #t: Float64Array;
  readonly #end: Float64Array;
  readonly #temperature: number;
  /** exp(transition / temperature), for confidences. */
  readonly #expT: Float64Array;
  readonly #expEnd: Float64Array;
  /** Summed weights of the features that depend on a token's text alone, by token text. */
  readonly #staticScores = new Map<string, Float64Array>();
  // Reused buffers: tagging allocates only its results.
  #feats = new Int32Array(64 * MAX_FEATURES);
  #counts = new Uint8Array(64);
  #statics = new Uint8Array(64);
  #scores = new Float64Array(64 * L);
  #delta = new Float64Array(64 * L);
  #back = new Uint8Array(64 * L);
  #e = new Float64Array(64 * L);
  #alpha = new Float64Array(64 * L);
  #beta = new Float64Array(64 * L);

  constructor(parts: ModelParts) {
    const n = parts.keys.length;
    this.features = n;
    let max = 0;
    for (let i = 0; i < parts.weights.length; i++) max = Math.max(max, Math.abs(parts.weights[i]));
    const scale = max > 0 ? 32767 / max : 1;
    let cap = 16;
    while (cap < n * 1.4) cap <<= 1;
    this.#table = new Int32Array(cap * 5);
    this.#weights16 = new Int16Array(this.#table.buffer);
    this.#mask = cap - 1;
    for (let r = 0; r < n; r++) {
      let s = parts.keys[r] & this.#mask;
      while (this.#table[s * 5] !== 0) s = (s + 1) & this.#mask;
      this.#table[s * 5] = parts.keys[r];
      for (let y = 0; y < L; y++) this.#weights16[s * 10 + 2 + y] = Math.round(parts.weights[r * L + y] * scale);
    }
    this.#t = Float64Array.from(parts.transitions, (v) => v * scale);
    this.#end = Float64Array.from(parts.end, (v) => v * scale);
    this.#temperature = (parts.temperature > 0 ? parts.temperature : 1) * scale;
    this.#expT = Float64Array.from(this.#t, (v) => Math.exp(v / this.#temperature));
    this.#expEnd = Float64Array.from(this.#end, (v) => Math.exp(v / this.#temperature));
  }

  #grow(n: number): void {
    if (this.#counts.length >= n) return;
    let m = this.#counts.length;
    while (m < n) m *= 2;
    this.#feats = new Int32Array(m * MAX_FEATURES);
    this.#counts = new Uint8Array(m);
    this.#statics = new Uint8Array(m);
    this.#scores = new Float64Array(m * L);
    this.#delta = new Float64Array(m * L);
    this.#back = new Uint8Array(m * L);
    this.#e = new Float64Array(m * L);
    this.#alpha = new Float64Array(m * L);
    this.#beta = new Float64Array(m * L);
  }

  #addRow(key: number, into: Float64Array, at: number): void {
    const table = this.#table,
      mask = this.#mask;
    let s = key & mask;
    for (;;) {
      const k = table[s * 5];
      if (k === key) break;
      if (k === 0) return;
      s = (s + 1) & mask;
    }
    const w = this.#weights16,
      o = s * 10 + 2;
    for (let y = 0; y < L; y++) into[at + y] += w[o + y];
  }

  /** Label the tokens. `withConfidence` adds forward-backward marginals. */
  tag(tokens: readonly string[], withConfidence = true): Tagged {
    const n = tokens.length;
    const labels = new Uint8Array(n);
    const confidence = new Float32Array(n);
    if (n === 0) return { labels, confidence };
    this.#grow(n);
    const feats = this.#feats,
      counts = this.#counts,
      statics = this.#statics,
      sc = this.#scores;
    extract(tokens, feats, counts, statics);
    for (let i = 0; i < n; i++) {
      const base = i * MAX_FEATURES;
      const o = i * L;
      let cached = this.#staticScores.get(tokens[i]);
      if (cached === undefined) {
        cached = new Float64Array(L);
        for (let k = 0; k < statics[i]; k++) this.#addRow(feats[base + k], cached, 0);
        if (this.#staticScores.size > 100_000) this.#staticScores.clear();
        this.#staticScores.set(tokens[i], cached);
      }
      for (let y = 0; y < L; y++) sc[o + y] = cached[y];
      for (let k = statics[i]; k < counts[i]; k++) this.#addRow(feats[base + k], sc, o);
    }
    viterbi(sc, n, this.#t, this.#end, this.#delta, this.#back, labels);
    if (withConfidence) this.#marginals(sc, n, labels, confidence);
    return { labels, confidence };
  }

  /**
   * Marginal probability of each chosen label, reading scores/temperature as log-potentials:
   * forward-backward in probability space, each step rescaled (the scale cancels per position).
   */
  #marginals(sc: Float64Array, n: number, labels: Uint8Array, out: Float32Array): void {
    const inv = 1 / this.#temperature;
    const et = this.#expT,
      ee = this.#expEnd;
    const e = this.#e,
      alpha = this.#alpha,
      beta = this.#beta;
    for (let i = 0; i < n; i++) {
      let m = -Infinity;
      for (let y = 0; y < L; y++) if (sc[i * L + y] > m) m = sc[i * L + y];
      for (let y = 0; y < L; y++) e[i * L + y] = Math.exp((sc[i * L + y] - m) * inv);
    }
    const start = L * L;
    let z = 0;
    for (let y = 0; y < L; y++) z += alpha[y] = et[start + y] * e[y];
    for (let y = 0; y < L; y++) alpha[y] /= z;
    for (let i = 1; i < n; i++) {
      z = 0;
      for (let y = 0; y < L; y++) {
        let s = 0;
        for (let q = 0; q < L; q++) s += alpha[(i - 1) * L + q] * et[q * L + y];
        z += alpha[i * L + y] = s * e[i * L + y];
      }
      for (let y = 0; y < L; y++) alpha[i * L + y] /= z;
    }
    for (let y = 0; y < L; y++) beta[(n - 1) * L + y] = ee[y];
    for (let i = n - 2; i >= 0; i--) {
      z = 0;
      for (let y = 0; y < L; y++) {
        let s = 0;
        for (let q = 0; q < L; q++) s += et[y * L + q] * e[(i + 1) * L + q] * beta[(i + 1) * L + q];
        z += beta[i * L + y] = s;
      }
      for (let y = 0; y < L; y++) beta[i * L + y] /= z;
    }
    for (let i = 0; i < n; i++) {
      let total = 0;
      for (let y = 0; y < L; y++) total += alpha[i * L + y] * beta[i * L + y];
      const p = (alpha[i * L + labels[i]] * beta[i * L + labels[i]]) / total;
      out[i] = Number.isFinite(p) ? p : 0;
    }
  }

  static decode(file: Uint8Array): TaggerModel {
    const buf = gunzipSync(file);
    const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    let at = 0;
    if (view.getUint32(at, true) !== MAGIC) throw new Error("not a Larder tagger model");
    const n = view.getUint32((at += 4), true);
    const scale = view.getFloat32((at += 4), true);
    const temperature = view.getFloat32((at += 4), true);
    at += 4;
    const transitions = new Float32Array((L + 1) * L);
    for (let i = 0; i < transitions.length; i++, at += 4) transitions[i] = view.getFloat32(at, true);
    const end = new Float32Array(L);
    for (let i = 0; i < L; i++, at += 4) end[i] = view.getFloat32(at, true);
    const keys = new Int32Array(n);
    let prev = 0;
    for (let r = 0; r < n; r++) {
      let v = 0,
        shift = 0,
        b: number;
      do {
        b = buf[at++];
        v += (b & 0x7f) * 2 ** shift;
        shift += 7;
      } while (b & 0x80);
      prev += v;
      keys[r] = prev | 0;
    }
    const masks = buf.subarray(at, at + n);
    at += n;
    const weights = new Float32Array(n * L);
    const inv = 1 / scale;
    // The i16 values start at an arbitrary offset: read them byte-wise.
    for (let r = 0; r < n; r++) {
      const m = masks[r];
      if (m === 0) continue;
      for (let y = 0; y < L; y++) {
        if (m & (1 << y)) {
          const v = buf[at] | (buf[at + 1] << 8);
          weights[r * L + y] = (v >= 0x8000 ? v - 0x10000 : v) * inv;
          at += 2;
        }
      }
    }
    return new TaggerModel({ keys, weights, transitions, end, temperature });
  }
}

/**
 * Encode a model, keeping the `keep` features with the largest weights (all by default), dropping
 * weights below `minWeight` and features left with none.
 */
export function encodeModel(parts: ModelParts, minWeight: number, keep = Infinity): Uint8Array {
  const n = parts.keys.length;
  let floor = 0;
  if (keep < n) {
    const strength = new Float64Array(n);
    for (let r = 0; r < n; r++) for (let y = 0; y < L; y++) strength[r] = Math.max(strength[r], Math.abs(parts.weights[r * L + y]));
    floor = Float64Array.from(strength).sort().reverse()[keep - 1];
  }
  let max = 0;
  for (let i = 0; i < parts.weights.length; i++) max = Math.max(max, Math.abs(parts.weights[i]));
  const scale = max > 0 ? 32767 / max : 1;
  const u = (r: number) => parts.keys[r] >>> 0;
  const order = [...Array(n).keys()].sort((a, b) => u(a) - u(b));
  const kept: number[] = [];
  const masks: number[] = [];
  for (const r of order) {
    let m = 0;
    let strongest = 0;
    for (let y = 0; y < L; y++) strongest = Math.max(strongest, Math.abs(parts.weights[r * L + y]));
    if (strongest < floor) continue;
    for (let y = 0; y < L; y++) {
      const q = Math.round(parts.weights[r * L + y] * scale);
      if (Math.abs(parts.weights[r * L + y]) >= minWeight && q !== 0) m |= 1 << y;
    }
    if (m) {
      kept.push(r);
      masks.push(m);
    }
  }
  const bytes: number[] = [];
  const u32 = (v: number) => bytes.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
  const f32 = (v: number) => {
    for (const b of new Uint8Array(new Float32Array([v]).buffer)) bytes.push(b);
  };
  u32(MAGIC);
  u32(kept.length);
  f32(scale);
  f32(parts.temperature);
  for (const v of parts.transitions) f32(v);
  for (const v of parts.end) f32(v);
  let prev = 0;
  for (const r of kept) {
    let d = u(r) - prev;
    prev = u(r);
    do {
      const b = d % 128;
      d = Math.floor(d / 128);
      bytes.push(d > 0 ? b | 0x80 : b);
    } while (d > 0);
  }
  for (const m of masks) bytes.push(m);
  for (let i = 0; i < kept.length; i++) {
    const r = kept[i];
    for (let y = 0; y < L; y++) {
      if (masks[i] & (1 << y)) {
        const q = Math.round(parts.weights[r * L + y] * scale) & 0xffff;
        bytes.push(q & 0xff, q >>> 8);
      }
    }
  }
  return gzipSync(Uint8Array.from(bytes), { level: 9 });
}

/** Best label sequence for emission scores `sc` (n×L). */
export function viterbi(
  sc: Float64Array,
  n: number,
  t: ArrayLike<number>,
  end: ArrayLike<number>,
  delta: Float64Array,
  back: Uint8Array,
  out: Uint8Array,
): void {
  const start = L * L;
  for (let y = 0; y < L; y++) delta[y] = t[start + y] + sc[y];
  for (let i = 1; i < n; i++) {
    const o = i * L,
      p = o - L;
    for (let y = 0; y < L; y++) {
      let best = -Infinity,
        arg = 0;
      for (let q = 0; q < L; q++) {
        const v = delta[p + q] + t[q * L + y];
        if (v > best) {
          best = v;
          arg = q;
        }
      }
      delta[o + y] = best + sc[o + y];
      back[o + y] = arg;
    }
  }
  let best = -Infinity,
    arg = 0;
  const last = (n - 1) * L;
  for (let y = 0; y < L; y++) {
    const v = delta[last + y] + end[y];
    if (v > best) {
      best = v;
      arg = y;
    }
  }
  for (let i = n - 1; i >= 0; i--) {
    out[i] = arg;
    arg = back[i * L + arg];
  }
}
