/**
 * Loads the shipped name model once: ONNX graph + metadata + lexicon from `model/weights/`.
 * By default the graph's weights are run by the forward kernel (`forward_kernel.ts`, WebAssembly
 * SIMD in the process: no native addon, no per-call runtime overhead); where it cannot serve the
 * file, by `onnxruntime-node` (needs `--allow-ffi`), or by `onnxruntime-web` (WASM) where the
 * native addon cannot load. Never throws: a missing or corrupt file gives
 * `{ model: null, reason }` (the reason never contains user data).
 */
import { decodeName, type SyllableTest } from "./decode.ts";
import { type FeatureConfig, Featurizer, parseLexicon } from "./featurize.ts";
import { NUM_LABELS } from "./forward.ts";
import { ForwardKernel, KERNEL_GRAPH_OPS } from "./forward_kernel.ts";
import { readOnnxGraph } from "./onnx_initializers.ts";
import type { NameModel, NameModelInput, NameReading } from "./types.ts";

export interface LoadNameModelOptions {
  /** Path of the `.onnx` file; its `.json` metadata and lexicon sit beside it. */
  path?: string;
  /**
   * Force a runtime: `kernel` (the WebAssembly forward kernel), `node` (onnxruntime-node) or
   * `web` (onnxruntime-web); by default the kernel, then node, then web.
   */
  runtime?: NameModelRuntime;
}

export type NameModelRuntime = "kernel" | "node" | "web";

export type LoadNameModelResult = { model: NameModel } | { model: null; reason: string };

interface Meta {
  version: string;
  threshold: number;
  features: FeatureConfig;
  labels: string[];
  /** Temperature scaling of the readings' log-probabilities (absent: 1, none). */
  calibration?: { temperature: number };
}

/** The minimal part of an onnxruntime session we use (node and web share it). */
interface OrtLike {
  Tensor: new (type: "int32", data: Int32Array, dims: number[]) => unknown;
  InferenceSession: {
    create(bytes: Uint8Array, opts?: Record<string, unknown>): Promise<SessionLike>;
  };
}
interface SessionLike {
  run(feeds: Record<string, unknown>): Promise<Record<string, { data: unknown }>>;
  release?(): Promise<void>;
}

function defaultPath(): string {
  return new URL("./weights/name_model.onnx", import.meta.url).pathname;
}

/** Per-token label probabilities for many names (tokens × labels) and token offsets. */
type Probabilities = (
  names: readonly (readonly string[])[],
) => Promise<{ probs: Float32Array; offsets: Int32Array }> | {
  probs: Float32Array;
  offsets: Int32Array;
};

/** Probabilities from an ONNX runtime session (padded index matrix in, probabilities out). */
function onnxProbabilities(feat: Featurizer, ort: OrtLike, session: SessionLike): Probabilities {
  return async (names) => {
    const batch = feat.featurizeBatch(names);
    if (batch.tokens === 0) return { probs: new Float32Array(0), offsets: batch.offsets };
    const input = new ort.Tensor("int32", batch.indices, [batch.tokens, batch.width]);
    const out = await session.run({ indices: input });
    return { probs: out.probs.data as Float32Array, offsets: batch.offsets };
  };
}

/** Probabilities from the forward kernel (unpadded rows in; its buffer out, valid per call). */
function kernelProbabilities(feat: Featurizer, kernel: ForwardKernel): Probabilities {
  const stride = feat.config.maxFeatures;
  return (names) => {
    let tokens = 0;
    for (const n of names) tokens += n.length;
    const rows = feat.featurizeRows(names, kernel.rows(tokens, stride));
    const probs = kernel.probabilities(rows.indices, rows.counts, rows.tokens, stride);
    return { probs: probs.subarray(0, rows.tokens * NUM_LABELS), offsets: rows.offsets };
  };
}

class OnnxNameModel implements NameModel {
  readonly version: string;
  readonly threshold: number;
  readonly runtime: NameModelRuntime;
  readonly temperature: number;
  readonly #probabilities: Probabilities;
  readonly #isSyllable: SyllableTest;

  constructor(
    meta: Meta,
    probabilities: Probabilities,
    runtime: NameModelRuntime,
    isSyllable: SyllableTest,
  ) {
    this.version = meta.version;
    this.threshold = meta.threshold;
    this.temperature = meta.calibration?.temperature ?? 1;
    this.#probabilities = probabilities;
    this.runtime = runtime;
    this.#isSyllable = isSyllable;
  }

  /** Per-token label probabilities for many names (tokens × labels) and token offsets. */
  async probabilities(
    names: readonly (readonly string[])[],
  ): Promise<{ probs: Float32Array; offsets: Int32Array }> {
    let computed = this.#probabilities(names);
    // copied before anything else can run: the kernel's buffer is reused by the next call
    if (!(computed instanceof Promise)) computed = { ...computed, probs: computed.probs.slice() };
    const { probs, offsets } = await computed;
    return { probs, offsets };
  }

  async readMany(inputs: readonly NameModelInput[]): Promise<NameReading[]> {
    if (inputs.length === 0) return [];
    for (const inp of inputs) {
      if (inp.words.length < 2) throw new RangeError("each name needs at least two words");
      const c = inp.constraint;
      if (c && (c.split < 1 || c.split > inp.words.length - 1)) {
        throw new RangeError("a constraint's split must leave both blocks non-empty");
      }
    }
    // The kernel answers synchronously into its own buffer: decode before anything else can run
    // (no await in between), so that two calls never share it.
    let computed = this.#probabilities(inputs.map((x) => x.words));
    if (computed instanceof Promise) computed = await computed;
    const { probs, offsets } = computed;
    return inputs.map((inp, i) =>
      decodeName(
        inp.words,
        probs,
        offsets[i],
        NUM_LABELS,
        inp.constraint,
        this.temperature,
        this.#isSyllable,
      )
    );
  }
}

async function importRuntime(kind: NameModelRuntime): Promise<OrtLike> {
  // deno-lint-ignore no-explicit-any
  const mod: any = kind === "node"
    ? await import("onnxruntime-node")
    : await import("onnxruntime-web");
  const ort = mod.default?.InferenceSession ? mod.default : mod;
  if (kind === "web") {
    ort.env.wasm.numThreads = 1;
    ort.env.logLevel = "error";
  }
  return ort as OrtLike;
}

const cache = new Map<string, Promise<LoadNameModelResult>>();

/** Loads the model once per path and runtime choice; later calls share the result. */
export function loadNameModel(options: LoadNameModelOptions = {}): Promise<LoadNameModelResult> {
  const path = options.path ?? defaultPath();
  const key = `${options.runtime ?? "auto"}:${path}`;
  let p = cache.get(key);
  if (!p) {
    p = load(path, options.runtime);
    cache.set(key, p);
  }
  return p;
}

async function load(path: string, runtime?: NameModelRuntime): Promise<LoadNameModelResult> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (e) {
    const what = e instanceof Deno.errors.NotFound ? "not found" : "not readable";
    return { model: null, reason: `name model file ${what}` };
  }
  let meta: Meta;
  let feat: Featurizer;
  try {
    const metaPath = path.replace(/\.onnx$/, "") + ".json";
    meta = JSON.parse(await Deno.readTextFile(metaPath)) as Meta;
    if (
      typeof meta.version !== "string" || typeof meta.threshold !== "number" ||
      typeof meta.features?.buckets !== "number" ||
      typeof meta.features?.maxFeatures !== "number" ||
      meta.labels?.length !== NUM_LABELS ||
      (meta.calibration !== undefined &&
        !(typeof meta.calibration.temperature === "number" && meta.calibration.temperature > 0))
    ) {
      return { model: null, reason: "name model metadata is invalid" };
    }
    const lexPath = path.replace(/[^/\\]*$/, "") + "name_lexicon.txt";
    feat = new Featurizer(parseLexicon(await Deno.readTextFile(lexPath)), meta.features);
  } catch {
    return { model: null, reason: "name model metadata or lexicon missing or invalid" };
  }
  const kinds: NameModelRuntime[] = runtime ? [runtime] : ["kernel", "node", "web"];
  const failures: string[] = [];
  for (const kind of kinds) {
    if (kind === "kernel") {
      let graph: ReturnType<typeof readOnnxGraph>;
      try {
        graph = readOnnxGraph(bytes);
      } catch {
        return { model: null, reason: "name model file is corrupt or not a valid ONNX graph" };
      }
      if (graph.initializers.size === 0) {
        return { model: null, reason: "name model file is corrupt or not a valid ONNX graph" };
      }
      let kernel: ForwardKernel | string;
      try {
        kernel = graph.ops.join() === KERNEL_GRAPH_OPS.join()
          ? ForwardKernel.create(graph.initializers, meta.features.buckets)
          : "another graph than the kernel's";
      } catch {
        kernel = "it could not be set up";
      }
      if (typeof kernel === "string") {
        failures.push(`forward kernel unavailable (${kernel})`);
        continue;
      }
      try {
        const model = new OnnxNameModel(
          meta,
          kernelProbabilities(feat, kernel),
          "kernel",
          feat.isEastAsianSyllable,
        );
        const smoke = await smokeTest(model);
        if (smoke) return smoke;
        return { model };
      } catch {
        failures.push("forward kernel does not run");
      }
      continue;
    }
    let ort: OrtLike;
    try {
      ort = await importRuntime(kind);
    } catch {
      failures.push(`onnxruntime-${kind} unavailable`);
      continue;
    }
    let session: SessionLike;
    try {
      session = await ort.InferenceSession.create(bytes, {
        executionProviders: [kind === "node" ? "cpu" : "wasm"],
        intraOpNumThreads: 1,
        interOpNumThreads: 1,
        graphOptimizationLevel: "all",
      });
    } catch {
      failures.push(`name model file is corrupt or not a valid ONNX graph (${kind})`);
      // a corrupt file fails on every runtime; do not try the next one for that reason
      if (await isRuntimeUsable(ort)) return { model: null, reason: failures.join("; ") };
      continue;
    }
    try {
      const model = new OnnxNameModel(
        meta,
        onnxProbabilities(feat, ort, session),
        kind,
        feat.isEastAsianSyllable,
      );
      const smoke = await smokeTest(model);
      if (smoke) return smoke;
      return { model };
    } catch {
      failures.push(`name model graph does not run (${kind})`);
    }
  }
  return { model: null, reason: failures.join("; ") || "no ONNX runtime available" };
}

/** One smoke inference: the graph must accept our input and give labels per token. */
async function smokeTest(model: OnnxNameModel): Promise<LoadNameModelResult | null> {
  const { probs } = await model.probabilities([["a", "b"]]);
  if (probs.length !== 2 * NUM_LABELS || !Number.isFinite(probs[0])) {
    return { model: null, reason: "name model graph gives outputs of the wrong shape" };
  }
  return null;
}

/** True when the runtime itself works (so a session failure means a bad file). */
async function isRuntimeUsable(ort: OrtLike): Promise<boolean> {
  try {
    await ort.InferenceSession.create(TINY_GRAPH);
    return true;
  } catch {
    return false;
  }
}

/** A valid one-node ONNX graph (Identity, float input x → y), used to probe a runtime. */
const TINY_GRAPH = new Uint8Array([
  0x08,
  0x08,
  0x3a,
  0x37,
  0x0a,
  0x10,
  0x0a,
  0x01,
  0x78,
  0x12,
  0x01,
  0x79,
  0x22,
  0x08,
  0x49,
  0x64,
  0x65,
  0x6e,
  0x74,
  0x69,
  0x74,
  0x79,
  0x12,
  0x01,
  0x67,
  0x5a,
  0x0f,
  0x0a,
  0x01,
  0x78,
  0x12,
  0x0a,
  0x0a,
  0x08,
  0x08,
  0x01,
  0x12,
  0x04,
  0x0a,
  0x02,
  0x08,
  0x01,
  0x62,
  0x0f,
  0x0a,
  0x01,
  0x79,
  0x12,
  0x0a,
  0x0a,
  0x08,
  0x08,
  0x01,
  0x12,
  0x04,
  0x0a,
  0x02,
  0x08,
  0x01,
  0x42,
  0x04,
  0x0a,
  0x00,
  0x10,
  0x0d,
]);

export type { OnnxNameModel };
