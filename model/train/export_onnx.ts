/**
 * Writes the trained network as an ONNX graph with `onnx-proto`. The embedding table is
 * quantised to int8 with one float scale per row:
 *
 *   Cast(emb_q) · emb_scale (constant-folded by the runtime at load) → Gather(indices)
 *   → ReduceSum(axis 1) → Add(b0) → Relu → MatMul(w1) → Add(b1) → Relu → MatMul(w2) → Add(b2)
 *   → Softmax
 *
 * Input `indices`: int32 [tokens, maxFeatures]; output `probs`: float [tokens, labels].
 */
import onnxProto from "onnx-proto";
import type { onnx as OnnxNs } from "onnx-proto";

const { onnx } = onnxProto;
import type { Weights } from "../forward.ts";

export interface QuantizedEmbedding {
  q: Int8Array;
  scale: Float32Array;
}

/** Symmetric per-row int8 quantisation. */
export function quantizeRows(emb: Float32Array, rows: number, dim: number): QuantizedEmbedding {
  const q = new Int8Array(rows * dim);
  const scale = new Float32Array(rows);
  for (let r = 0; r < rows; r++) {
    let m = 0;
    for (let d = 0; d < dim; d++) m = Math.max(m, Math.abs(emb[r * dim + d]));
    const s = m / 127;
    scale[r] = s;
    if (s === 0) continue;
    for (let d = 0; d < dim; d++) q[r * dim + d] = Math.round(emb[r * dim + d] / s);
  }
  return { q, scale };
}

/** The float weights the quantised graph computes with (for reports and tests). */
export function dequantized(w: Weights, qe: QuantizedEmbedding): Weights {
  const emb = new Float32Array(w.emb.length);
  const D = w.dim;
  for (let r = 0; r < w.buckets + 1; r++) {
    for (let d = 0; d < D; d++) emb[r * D + d] = qe.q[r * D + d] * qe.scale[r];
  }
  return { ...w, emb };
}

function tensor(
  name: string,
  dataType: OnnxNs.TensorProto.DataType,
  dims: number[],
  bytes: Uint8Array,
): OnnxNs.TensorProto {
  return onnx.TensorProto.create({ name, dataType, dims, rawData: bytes });
}
const f32 = (a: Float32Array) =>
  new Uint8Array(a.buffer.slice(a.byteOffset, a.byteOffset + a.byteLength));

export function exportOnnx(w: Weights, qe: QuantizedEmbedding, docString: string): Uint8Array {
  const T = onnx.TensorProto.DataType;
  const { buckets: B, dim: D, hidden: H, labels: L } = w;
  const init = [
    tensor("emb_q", T.INT8, [B + 1, D], new Uint8Array(qe.q.buffer.slice(0))),
    tensor("emb_scale", T.FLOAT, [B + 1, 1], f32(qe.scale)),
    tensor("b0", T.FLOAT, [D], f32(w.b0)),
    tensor("w1", T.FLOAT, [D, H], f32(w.w1)),
    tensor("b1", T.FLOAT, [H], f32(w.b1)),
    tensor("w2", T.FLOAT, [H, L], f32(w.w2)),
    tensor("b2", T.FLOAT, [L], f32(w.b2)),
    tensor("axes", T.INT64, [1], new Uint8Array(new BigInt64Array([1n]).buffer)),
  ];
  const node = (
    op: string,
    inputs: string[],
    outputs: string[],
    attrs: OnnxNs.IAttributeProto[] = [],
  ) =>
    onnx.NodeProto.create({
      opType: op,
      input: inputs,
      output: outputs,
      attribute: attrs,
      name: outputs[0],
    });
  const A = onnx.AttributeProto.AttributeType;
  const nodes = [
    // dequantise the table from constants only: the runtime folds these two nodes at load
    node("Cast", ["emb_q"], ["emb_f"], [{ name: "to", type: A.INT, i: T.FLOAT }]),
    node("Mul", ["emb_f", "emb_scale"], ["emb"]),
    node("Gather", ["emb", "indices"], ["g"], [{ name: "axis", type: A.INT, i: 0 }]),
    node("ReduceSum", ["g", "axes"], ["bag"], [{ name: "keepdims", type: A.INT, i: 0 }]),
    node("Add", ["bag", "b0"], ["z0"]),
    node("Relu", ["z0"], ["a0"]),
    node("MatMul", ["a0", "w1"], ["m1"]),
    node("Add", ["m1", "b1"], ["z1"]),
    node("Relu", ["z1"], ["a1"]),
    node("MatMul", ["a1", "w2"], ["m2"]),
    node("Add", ["m2", "b2"], ["logits"]),
    node("Softmax", ["logits"], ["probs"], [{ name: "axis", type: A.INT, i: -1 }]),
  ];
  const vi = (name: string, elem: number, dims: (number | string)[]) =>
    onnx.ValueInfoProto.create({
      name,
      type: {
        tensorType: {
          elemType: elem,
          shape: {
            dim: dims.map((d) => (typeof d === "number" ? { dimValue: d } : { dimParam: d })),
          },
        },
      },
    });
  const graph = onnx.GraphProto.create({
    name: "name_tagger",
    node: nodes,
    initializer: init,
    input: [vi("indices", T.INT32, ["tokens", "features"])],
    output: [vi("probs", T.FLOAT, ["tokens", L])],
  });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: "name-model-train",
    docString,
    opsetImport: [{ domain: "", version: 17 }],
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

/** Reads the float weights back out of an exported graph (dequantising the table). */
export function weightsFromOnnx(bytes: Uint8Array): Weights {
  const m = onnx.ModelProto.decode(bytes);
  const get = (name: string) => {
    const t = (m.graph?.initializer ?? []).find((x) => x.name === name);
    if (!t) throw new Error(`initializer ${name} missing`);
    return t;
  };
  const fl = (name: string) => {
    const raw = get(name).rawData!;
    return new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
  };
  const eq = get("emb_q");
  const [rows, D] = (eq.dims ?? []).map(Number);
  const q = new Int8Array(
    eq.rawData!.buffer.slice(
      eq.rawData!.byteOffset,
      eq.rawData!.byteOffset + eq.rawData!.byteLength,
    ),
  );
  const scale = fl("emb_scale");
  const w1 = fl("w1");
  const H = Number((get("w1").dims ?? [])[1]);
  const b2 = fl("b2");
  const emb = new Float32Array(rows * D);
  for (let r = 0; r < rows; r++) {
    for (let d = 0; d < D; d++) emb[r * D + d] = q[r * D + d] * scale[r];
  }
  return {
    buckets: rows - 1,
    dim: D,
    hidden: H,
    labels: b2.length,
    emb,
    b0: fl("b0"),
    w1,
    b1: fl("b1"),
    w2: fl("w2"),
    b2,
  };
}
