/**
 * Trains the sparse-feature network in plain TypeScript (Float32Array), one token at a time,
 * with AdaGrad on every parameter and feature dropout. Deterministic for a given seed.
 */
import { denseLayers, type Weights } from "../forward.ts";
import { Rng } from "./prng.ts";

export interface TrainConfig {
  dim: number;
  hidden: number;
  labels: number;
  lr: number;
  /** Probability of dropping each active feature of a training token. */
  featureDropout: number;
  seed: number;
}

export function initWeights(buckets: number, c: TrainConfig): Weights {
  const rng = new Rng(c.seed);
  const emb = new Float32Array((buckets + 1) * c.dim);
  for (let i = 0; i < buckets * c.dim; i++) emb[i] = rng.normal() * 0.02;
  const w1 = new Float32Array(c.dim * c.hidden);
  const s1 = Math.sqrt(2 / c.dim);
  for (let i = 0; i < w1.length; i++) w1[i] = rng.normal() * s1;
  const w2 = new Float32Array(c.hidden * c.labels);
  const s2 = Math.sqrt(1 / c.hidden);
  for (let i = 0; i < w2.length; i++) w2[i] = rng.normal() * s2;
  return {
    buckets,
    dim: c.dim,
    hidden: c.hidden,
    labels: c.labels,
    emb,
    b0: new Float32Array(c.dim).fill(0.05),
    w1,
    b1: new Float32Array(c.hidden).fill(0.01),
    w2,
    b2: new Float32Array(c.labels),
  };
}

export class Trainer {
  readonly w: Weights;
  readonly #c: TrainConfig;
  readonly #rng: Rng;
  // AdaGrad accumulators
  readonly #gEmb: Float32Array;
  readonly #gb0: Float32Array;
  readonly #gw1: Float32Array;
  readonly #gb1: Float32Array;
  readonly #gw2: Float32Array;
  readonly #gb2: Float32Array;
  // scratch
  readonly #a0: Float32Array;
  readonly #a1: Float32Array;
  readonly #z: Float32Array;
  readonly #d0: Float32Array;
  readonly #d1: Float32Array;
  readonly #act: Int32Array;
  lr: number;

  constructor(w: Weights, c: TrainConfig) {
    this.w = w;
    this.#c = c;
    this.lr = c.lr;
    this.#rng = new Rng(c.seed ^ 0x5bd1e995);
    const init = 0.1;
    this.#gEmb = new Float32Array(w.emb.length).fill(init);
    this.#gb0 = new Float32Array(w.dim).fill(init);
    this.#gw1 = new Float32Array(w.w1.length).fill(init);
    this.#gb1 = new Float32Array(w.hidden).fill(init);
    this.#gw2 = new Float32Array(w.w2.length).fill(init);
    this.#gb2 = new Float32Array(w.labels).fill(init);
    this.#a0 = new Float32Array(w.dim);
    this.#a1 = new Float32Array(w.hidden);
    this.#z = new Float32Array(w.labels);
    this.#d0 = new Float32Array(w.dim);
    this.#d1 = new Float32Array(w.hidden);
    this.#act = new Int32Array(1024);
  }

  /** One SGD step on one token; returns its cross-entropy loss. */
  step(indices: Int32Array, base: number, maxFeatures: number, label: number, weight = 1): number {
    const w = this.w;
    const { dim: D, hidden: H, labels: L, buckets: B } = w;
    const a0 = this.#a0, a1 = this.#a1, z = this.#z, d0 = this.#d0, d1 = this.#d1;
    const act = this.#act;
    let nAct = 0;
    const drop = this.#c.featureDropout;
    for (let k = 0; k < maxFeatures; k++) {
      const r = indices[base + k];
      if (r === B) continue;
      if (k > 3 && drop > 0 && this.#rng.next() < drop) continue;
      act[nAct++] = r;
    }
    a0.set(w.b0);
    for (let i = 0; i < nAct; i++) {
      const off = act[i] * D;
      for (let d = 0; d < D; d++) a0[d] += w.emb[off + d];
    }
    denseLayers(w, a0, a1, z);
    const loss = -Math.log(Math.max(z[label], 1e-12));
    // backward: dz = (p - y) * weight
    for (let l = 0; l < L; l++) z[l] = (z[l] - (l === label ? 1 : 0)) * weight;
    const lr = this.lr;
    // d1 = W2 dz (before updating W2)
    for (let h = 0; h < H; h++) {
      if (a1[h] === 0) {
        d1[h] = 0;
        continue;
      }
      let acc = 0;
      const off = h * L;
      for (let l = 0; l < L; l++) acc += w.w2[off + l] * z[l];
      d1[h] = acc;
    }
    // update W2, b2
    for (let h = 0; h < H; h++) {
      const v = a1[h];
      if (v === 0) continue;
      const off = h * L;
      for (let l = 0; l < L; l++) {
        const g = v * z[l];
        this.#gw2[off + l] += g * g;
        w.w2[off + l] -= lr * g / Math.sqrt(this.#gw2[off + l]);
      }
    }
    for (let l = 0; l < L; l++) {
      this.#gb2[l] += z[l] * z[l];
      w.b2[l] -= lr * z[l] / Math.sqrt(this.#gb2[l]);
    }
    // d0 = W1 d1
    for (let d = 0; d < D; d++) {
      if (a0[d] === 0) {
        d0[d] = 0;
        continue;
      }
      let acc = 0;
      const off = d * H;
      for (let h = 0; h < H; h++) acc += w.w1[off + h] * d1[h];
      d0[d] = acc;
    }
    for (let d = 0; d < D; d++) {
      const v = a0[d];
      if (v === 0) continue;
      const off = d * H;
      for (let h = 0; h < H; h++) {
        const g = v * d1[h];
        if (g === 0) continue;
        this.#gw1[off + h] += g * g;
        w.w1[off + h] -= lr * g / Math.sqrt(this.#gw1[off + h]);
      }
    }
    for (let h = 0; h < H; h++) {
      const g = d1[h];
      this.#gb1[h] += g * g;
      w.b1[h] -= lr * g / Math.sqrt(this.#gb1[h]);
    }
    for (let d = 0; d < D; d++) {
      const g = d0[d];
      this.#gb0[d] += g * g;
      w.b0[d] -= lr * g / Math.sqrt(this.#gb0[d]);
    }
    // embedding rows
    for (let i = 0; i < nAct; i++) {
      const off = act[i] * D;
      for (let d = 0; d < D; d++) {
        const g = d0[d];
        if (g === 0) continue;
        this.#gEmb[off + d] += g * g;
        w.emb[off + d] -= lr * g / Math.sqrt(this.#gEmb[off + d]);
      }
    }
    return loss;
  }
}
