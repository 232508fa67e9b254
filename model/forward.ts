/**
 * The network in plain TypeScript: embedding-bag (sum of hashed rows) → ReLU → dense → ReLU →
 * dense → softmax per token. Used by training, by the held-out report, and by the test that
 * checks the ONNX graph computes the same numbers.
 */

/** Labels of the token classifier; GIVEN+MIDDLE form the given block, PARTICLE+SURNAME the surname. */
export const LABELS = ["GIVEN", "MIDDLE", "PARTICLE", "SURNAME"] as const;
export const NUM_LABELS = LABELS.length;

export interface Weights {
  buckets: number;
  dim: number;
  hidden: number;
  labels: number;
  /** (buckets + 1) × dim; the last row is the zero padding row. */
  emb: Float32Array;
  b0: Float32Array;
  /** dim × hidden, row-major. */
  w1: Float32Array;
  b1: Float32Array;
  /** hidden × labels, row-major. */
  w2: Float32Array;
  b2: Float32Array;
}

/** Per-token label probabilities, `tokens × labels`. */
export function forwardTs(
  w: Weights,
  indices: Int32Array,
  tokens: number,
  maxFeatures: number,
): Float32Array {
  const { dim: D, hidden: H, labels: L, buckets: B } = w;
  const out = new Float32Array(tokens * L);
  const a0 = new Float32Array(D);
  const a1 = new Float32Array(H);
  const z = new Float32Array(L);
  for (let t = 0; t < tokens; t++) {
    a0.set(w.b0);
    const base = t * maxFeatures;
    for (let k = 0; k < maxFeatures; k++) {
      const r = indices[base + k];
      if (r === B) continue;
      const off = r * D;
      for (let d = 0; d < D; d++) a0[d] += w.emb[off + d];
    }
    denseLayers(w, a0, a1, z);
    for (let l = 0; l < L; l++) out[t * L + l] = z[l];
  }
  return out;
}

/**
 * The dense part of the network, shared by inference and training: ReLU on the summed embedding
 * `a0` (in place) → `a1` = ReLU(b1 + a0·W1) → `z` = softmax(b2 + a1·W2). Leaves the activations
 * in `a0` and `a1` for the backward pass.
 */
export function denseLayers(w: Weights, a0: Float32Array, a1: Float32Array, z: Float32Array): void {
  const { dim: D, hidden: H, labels: L } = w;
  for (let d = 0; d < D; d++) if (a0[d] < 0) a0[d] = 0;
  a1.set(w.b1);
  for (let d = 0; d < D; d++) {
    const v = a0[d];
    if (v === 0) continue;
    const off = d * H;
    for (let h = 0; h < H; h++) a1[h] += v * w.w1[off + h];
  }
  for (let h = 0; h < H; h++) if (a1[h] < 0) a1[h] = 0;
  z.set(w.b2);
  for (let h = 0; h < H; h++) {
    const v = a1[h];
    if (v === 0) continue;
    const off = h * L;
    for (let l = 0; l < L; l++) z[l] += v * w.w2[off + l];
  }
  let m = -Infinity;
  for (let l = 0; l < L; l++) if (z[l] > m) m = z[l];
  let s = 0;
  for (let l = 0; l < L; l++) {
    z[l] = Math.exp(z[l] - m);
    s += z[l];
  }
  for (let l = 0; l < L; l++) z[l] /= s;
}
