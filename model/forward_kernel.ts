/**
 * The network's forward pass in a small WebAssembly SIMD kernel (`kernel/`), fed by the weights
 * of the shipped ONNX file: the int8 embedding rows and their scales, the two dense layers. It
 * computes what the ONNX graph computes (`Cast · Mul → Gather → ReduceSum → Add → Relu → MatMul
 * → Add → Relu → MatMul → Add → Softmax`) without the graph's `[tokens, features, 32]` gather:
 * each token's rows are summed straight from the 4 MB int8 table. `onnx_equality_test.ts` checks
 * it against onnxruntime-node.
 */
import { FORWARD_KERNEL_BASE64 } from "./kernel/forward_kernel_wasm.ts";
import type { Initializer } from "./onnx_initializers.ts";

/** The ops of the graph the kernel stands in for, in order. */
export const KERNEL_GRAPH_OPS = [
  "Cast",
  "Mul",
  "Gather",
  "ReduceSum",
  "Add",
  "Relu",
  "MatMul",
  "Add",
  "Relu",
  "MatMul",
  "Add",
  "Softmax",
];

const DIM = 32, HIDDEN = 64, LABELS = 4;

interface KernelExports {
  layout(
    emb: number,
    b0: number,
    w1: number,
    b1: number,
    w2: number,
    b2: number,
    tmp: number,
  ): void;
  forward(idx: number, cnt: number, tokens: number, stride: number, out: number): void;
}

let compiled: WebAssembly.Module | null = null;
function kernelModule(): WebAssembly.Module {
  if (!compiled) {
    const bin = atob(FORWARD_KERNEL_BASE64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    compiled = new WebAssembly.Module(bytes);
  }
  return compiled;
}

const align = (n: number) => (n + 63) & ~63;

export class ForwardKernel {
  readonly #memory: WebAssembly.Memory;
  readonly #k: KernelExports;
  /** Start of the per-call area (indices, counts, logits). */
  readonly #dyn: number;
  #probs = new Float32Array(0);

  private constructor(memory: WebAssembly.Memory, k: KernelExports, dyn: number) {
    this.#memory = memory;
    this.#k = k;
    this.#dyn = dyn;
  }

  /**
   * A kernel for these initializers, or a reason why it cannot serve them (another shape or
   * data type than the graph it implements; the caller then uses an ONNX runtime).
   */
  static create(
    init: ReadonlyMap<string, Initializer>,
    buckets: number,
  ): ForwardKernel | string {
    const want: [string, number, number[]][] = [
      ["emb_q", 3, [buckets + 1, DIM]],
      ["emb_scale", 1, [buckets + 1, 1]],
      ["b0", 1, [DIM]],
      ["w1", 1, [DIM, HIDDEN]],
      ["b1", 1, [HIDDEN]],
      ["w2", 1, [HIDDEN, LABELS]],
      ["b2", 1, [LABELS]],
    ];
    for (const [name, type, dims] of want) {
      const t = init.get(name);
      if (!t) return `initializer ${name} missing`;
      const size = dims.reduce((a, b) => a * b, 1) * (type === 3 ? 1 : 4);
      if (t.dataType !== type || t.dims.join() !== dims.join() || t.raw.length !== size) {
        return `initializer ${name} has another shape or type than the kernel's`;
      }
    }
    // the table: row r at 64·r, its 32 int8 values then its float scale (one cache line a row)
    const at: Record<string, number> = {};
    let top = align(64 * (buckets + 1));
    for (const [name] of want.slice(2)) {
      at[name] = top;
      top = align(top + init.get(name)!.raw.length);
    }
    const tmp = top;
    top = align(tmp + 4 * (DIM + HIDDEN + 1));
    const memory = new WebAssembly.Memory({ initial: Math.ceil((top + (1 << 20)) / 65536) });
    const bytes = new Uint8Array(memory.buffer);
    for (const [name] of want.slice(2)) bytes.set(init.get(name)!.raw, at[name]);
    const q = init.get("emb_q")!.raw, scale = init.get("emb_scale")!.raw;
    for (let r = 0; r <= buckets; r++) {
      bytes.set(q.subarray(r * DIM, (r + 1) * DIM), 64 * r);
      bytes.set(scale.subarray(4 * r, 4 * r + 4), 64 * r + DIM);
    }
    if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) return "big-endian host";
    let instance: WebAssembly.Instance;
    try {
      instance = new WebAssembly.Instance(kernelModule(), { env: { memory } });
    } catch {
      return "WebAssembly SIMD unavailable";
    }
    const k = instance.exports as unknown as KernelExports;
    k.layout(0, at.b0, at.w1, at.b1, at.w2, at.b2, tmp);
    return new ForwardKernel(memory, k, top);
  }

  /**
   * Room in the kernel's memory for the unpadded rows of `tokens` tokens (`stride` slots each) and
   * their counts, to featurize into (no copy); valid until the next call.
   */
  rows(tokens: number, stride: number): { indices: Int32Array; counts: Int32Array } {
    const cnt = this.#dyn + align(tokens * stride * 4);
    const need = cnt + align(tokens * 4) + tokens * LABELS * 4;
    if (need > this.#memory.buffer.byteLength) {
      this.#memory.grow(Math.ceil((need - this.#memory.buffer.byteLength) / 65536));
    }
    const buf = this.#memory.buffer;
    return {
      indices: new Int32Array(buf, this.#dyn, tokens * stride),
      counts: new Int32Array(buf, cnt, tokens),
    };
  }

  /**
   * Per-token label probabilities (`tokens × 4`) from unpadded rows: token `t` uses
   * `indices[t * stride, t * stride + counts[t])` (copied in unless they are the arrays `rows`
   * gave). The result is this kernel's buffer, valid until its next call.
   */
  probabilities(
    indices: Int32Array,
    counts: Int32Array,
    tokens: number,
    stride: number,
  ): Float32Array {
    const idxBytes = tokens * stride * 4;
    const cnt = this.#dyn + align(idxBytes);
    const out = cnt + align(tokens * 4);
    const need = out + tokens * LABELS * 4;
    if (need > this.#memory.buffer.byteLength) {
      this.#memory.grow(Math.ceil((need - this.#memory.buffer.byteLength) / 65536));
    }
    const buf = this.#memory.buffer;
    if (indices.buffer !== buf || indices.byteOffset !== this.#dyn) {
      new Int32Array(buf, this.#dyn, tokens * stride).set(indices.subarray(0, tokens * stride));
    }
    if (counts.buffer !== buf || counts.byteOffset !== cnt) {
      new Int32Array(buf, cnt, tokens).set(counts.subarray(0, tokens));
    }
    this.#k.forward(this.#dyn, cnt, tokens, stride, out);
    const logits = new Float32Array(buf, out, tokens * LABELS);
    if (this.#probs.length < tokens * LABELS) this.#probs = new Float32Array(tokens * LABELS * 2);
    const probs = this.#probs;
    // softmax per token as onnxruntime computes it: exp(z - max), then times 1 / sum
    for (let t = 0; t < tokens; t++) {
      const o = t * LABELS;
      const z0 = logits[o], z1 = logits[o + 1], z2 = logits[o + 2], z3 = logits[o + 3];
      let m = z0 > z1 ? z0 : z1;
      if (z2 > m) m = z2;
      if (z3 > m) m = z3;
      const e0 = Math.fround(Math.exp(Math.fround(z0 - m)));
      const e1 = Math.fround(Math.exp(Math.fround(z1 - m)));
      const e2 = Math.fround(Math.exp(Math.fround(z2 - m)));
      const e3 = Math.fround(Math.exp(Math.fround(z3 - m)));
      const r = Math.fround(1 / Math.fround(Math.fround(Math.fround(e0 + e1) + e2) + e3));
      probs[o] = e0 * r;
      probs[o + 1] = e1 * r;
      probs[o + 2] = e2 * r;
      probs[o + 3] = e3 * r;
    }
    return probs;
  }
}
