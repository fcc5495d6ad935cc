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
  keys: Uint32Array;
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
  readonly #slots: Uint32Array;
  readonly #rows: Int32Array;
  readonly #mask: number;
  readonly #w: Float32Array;
  readonly #t: Float32Array;
  readonly #end: Float32Array;
  readonly #temperature: number;
  // Reused buffers: tagging allocates only its results.
  #feats = new Uint32Array(64 * MAX_FEATURES);
  #counts = new Uint8Array(64);
  #scores = new Float64Array(64 * L);
  #delta = new Float64Array(64 * L);
  #back = new Uint8Array(64 * L);

  constructor(parts: ModelParts) {
    const n = parts.keys.length;
    this.features = n;
    let cap = 16;
    while (cap < n * 2) cap <<= 1;
    this.#slots = new Uint32Array(cap);
    this.#rows = new Int32Array(cap);
    this.#mask = cap - 1;
    for (let r = 0; r < n; r++) {
      let s = parts.keys[r] & this.#mask;
      while (this.#slots[s] !== 0) s = (s + 1) & this.#mask;
      this.#slots[s] = parts.keys[r];
      this.#rows[s] = r;
    }
    this.#w = parts.weights;
    this.#t = parts.transitions;
    this.#end = parts.end;
    this.#temperature = parts.temperature;
  }

  #row(key: number): number {
    let s = key & this.#mask;
    for (;;) {
      const k = this.#slots[s];
      if (k === key) return this.#rows[s];
      if (k === 0) return -1;
      s = (s + 1) & this.#mask;
    }
  }

  #grow(n: number): void {
    if (this.#counts.length >= n) return;
    let m = this.#counts.length;
    while (m < n) m *= 2;
    this.#feats = new Uint32Array(m * MAX_FEATURES);
    this.#counts = new Uint8Array(m);
    this.#scores = new Float64Array(m * L);
    this.#delta = new Float64Array(m * L);
    this.#back = new Uint8Array(m * L);
  }

  /** Label the tokens. `withConfidence` adds forward-backward marginals (about twice the work). */
  tag(tokens: readonly string[], withConfidence = true): Tagged {
    const n = tokens.length;
    const labels = new Uint8Array(n);
    const confidence = new Float32Array(n);
    if (n === 0) return { labels, confidence };
    this.#grow(n);
    const feats = this.#feats,
      counts = this.#counts,
      sc = this.#scores,
      w = this.#w;
    extract(tokens, feats, counts);
    sc.fill(0, 0, n * L);
    for (let i = 0; i < n; i++) {
      const base = i * MAX_FEATURES;
      const o = i * L;
      for (let k = 0; k < counts[i]; k++) {
        const r = this.#row(feats[base + k]);
        if (r < 0) continue;
        const wr = r * L;
        for (let y = 0; y < L; y++) sc[o + y] += w[wr + y];
      }
    }
    viterbi(sc, n, this.#t, this.#end, this.#delta, this.#back, labels);
    if (withConfidence) marginals(sc, n, this.#t, this.#end, this.#temperature, labels, confidence);
    return { labels, confidence };
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
    const keys = new Uint32Array(n);
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
      keys[r] = prev;
    }
    const masks = buf.subarray(at, at + n);
    at += n;
    const weights = new Float32Array(n * L);
    const inv = 1 / scale;
    for (let r = 0; r < n; r++) {
      const m = masks[r];
      for (let y = 0; y < L; y++) {
        if (m & (1 << y)) {
          weights[r * L + y] = view.getInt16(at, true) * inv;
          at += 2;
        }
      }
    }
    return new TaggerModel({ keys, weights, transitions, end, temperature });
  }
}

/** Encode a model, dropping weights below `minWeight` and features left with none. */
export function encodeModel(parts: ModelParts, minWeight: number): Uint8Array {
  const n = parts.keys.length;
  let max = 0;
  for (let i = 0; i < parts.weights.length; i++) max = Math.max(max, Math.abs(parts.weights[i]));
  const scale = max > 0 ? 32767 / max : 1;
  const order = [...Array(n).keys()].sort((a, b) => parts.keys[a] - parts.keys[b]);
  const kept: number[] = [];
  const masks: number[] = [];
  for (const r of order) {
    let m = 0;
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
    let d = parts.keys[r] - prev;
    prev = parts.keys[r];
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

/** Marginal probability of each chosen label, treating scores/temperature as log-potentials. */
function marginals(
  sc: Float64Array,
  n: number,
  t: ArrayLike<number>,
  end: ArrayLike<number>,
  temp: number,
  labels: Uint8Array,
  out: Float32Array,
): void {
  const inv = 1 / (temp > 0 ? temp : 1);
  const alpha = new Float64Array(n * L);
  const beta = new Float64Array(n * L);
  const tmp = new Float64Array(L);
  const start = L * L;
  for (let y = 0; y < L; y++) alpha[y] = (t[start + y] + sc[y]) * inv;
  for (let i = 1; i < n; i++) {
    for (let y = 0; y < L; y++) {
      for (let q = 0; q < L; q++) tmp[q] = alpha[(i - 1) * L + q] + t[q * L + y] * inv;
      alpha[i * L + y] = logSumExp(tmp) + sc[i * L + y] * inv;
    }
  }
  for (let y = 0; y < L; y++) beta[(n - 1) * L + y] = end[y] * inv;
  for (let i = n - 2; i >= 0; i--) {
    for (let y = 0; y < L; y++) {
      for (let q = 0; q < L; q++) tmp[q] = t[y * L + q] * inv + sc[(i + 1) * L + q] * inv + beta[(i + 1) * L + q];
      beta[i * L + y] = logSumExp(tmp);
    }
  }
  for (let y = 0; y < L; y++) tmp[y] = alpha[(n - 1) * L + y] + beta[(n - 1) * L + y];
  const z = logSumExp(tmp);
  for (let i = 0; i < n; i++) out[i] = Math.exp(alpha[i * L + labels[i]] + beta[i * L + labels[i]] - z);
}

function logSumExp(v: Float64Array): number {
  let m = -Infinity;
  for (let i = 0; i < v.length; i++) if (v[i] > m) m = v[i];
  if (m === -Infinity) return m;
  let s = 0;
  for (let i = 0; i < v.length; i++) s += Math.exp(v[i] - m);
  return m + Math.log(s);
}
