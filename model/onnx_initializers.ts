/**
 * Reads the constant tensors (initializers) of an ONNX file without a protobuf library: the
 * forward kernel serves from the same file the ONNX runtimes load. Only what the name model's
 * graph uses is decoded (name, dims, data type, raw data); anything else is skipped by wire type.
 * Throws on bytes that are not a well-formed protobuf message.
 */

export interface Initializer {
  name: string;
  dims: number[];
  /** ONNX TensorProto.DataType: 1 float, 3 int8, 7 int64. */
  dataType: number;
  /** The tensor's little-endian bytes (a view into the file). */
  raw: Uint8Array;
}

class Reader {
  pos: number;
  constructor(readonly buf: Uint8Array, start: number, readonly end: number) {
    this.pos = start;
  }
  varint(): number {
    let result = 0;
    let mul = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new Error("truncated varint");
      const b = this.buf[this.pos++];
      result += (b & 0x7f) * mul;
      if (b < 0x80) return result;
      mul *= 128;
    }
    throw new Error("varint too long");
  }
  /** [start, end) of a length-delimited field's contents. */
  bytes(): [number, number] {
    const len = this.varint();
    const start = this.pos;
    if (start + len > this.end) throw new Error("truncated field");
    this.pos += len;
    return [start, start + len];
  }
  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) this.bytes();
    else if (wire === 5) this.pos += 4;
    else throw new Error(`unsupported wire type ${wire}`);
    if (this.pos > this.end) throw new Error("truncated field");
  }
}

function readTensor(buf: Uint8Array, start: number, end: number): Initializer {
  const r = new Reader(buf, start, end);
  const t: Initializer = { name: "", dims: [], dataType: 0, raw: new Uint8Array(0) };
  while (r.pos < r.end) {
    const key = r.varint();
    const field = Math.floor(key / 8), wire = key & 7;
    if (field === 1 && wire === 0) t.dims.push(r.varint());
    else if (field === 1 && wire === 2) {
      const [s, e] = r.bytes();
      const p = new Reader(buf, s, e);
      while (p.pos < p.end) t.dims.push(p.varint());
    } else if (field === 2 && wire === 0) t.dataType = r.varint();
    else if (field === 8 && wire === 2) {
      const [s, e] = r.bytes();
      t.name = new TextDecoder().decode(buf.subarray(s, e));
    } else if (field === 9 && wire === 2) {
      const [s, e] = r.bytes();
      t.raw = buf.subarray(s, e);
    } else r.skip(wire);
  }
  return t;
}

function readOpType(buf: Uint8Array, start: number, end: number): string {
  const r = new Reader(buf, start, end);
  let op = "";
  while (r.pos < r.end) {
    const key = r.varint();
    if (Math.floor(key / 8) === 4 && (key & 7) === 2) {
      const [s, e] = r.bytes();
      op = new TextDecoder().decode(buf.subarray(s, e));
    } else r.skip(key & 7);
  }
  return op;
}

/** The initializers of an ONNX model by name, and the op types of its nodes in order. */
export function readOnnxGraph(
  bytes: Uint8Array,
): { initializers: Map<string, Initializer>; ops: string[] } {
  const out = new Map<string, Initializer>();
  const ops: string[] = [];
  const model = new Reader(bytes, 0, bytes.length);
  let sawGraph = false;
  while (model.pos < model.end) {
    const key = model.varint();
    const field = Math.floor(key / 8), wire = key & 7;
    if (field === 7 && wire === 2) {
      sawGraph = true;
      const [s, e] = model.bytes();
      const g = new Reader(bytes, s, e);
      while (g.pos < g.end) {
        const gk = g.varint();
        if (Math.floor(gk / 8) === 1 && (gk & 7) === 2) {
          const [ns, ne] = g.bytes();
          ops.push(readOpType(bytes, ns, ne));
        } else if (Math.floor(gk / 8) === 5 && (gk & 7) === 2) {
          const [ts, te] = g.bytes();
          const t = readTensor(bytes, ts, te);
          out.set(t.name, t);
        } else g.skip(gk & 7);
      }
    } else model.skip(wire);
  }
  if (!sawGraph) throw new Error("no graph in the model file");
  return { initializers: out, ops };
}
