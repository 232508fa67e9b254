import assert from "node:assert/strict";
import { Featurizer, parseLexicon } from "./featurize.ts";
import { forwardTs, NUM_LABELS } from "./forward.ts";
import { loadNameModel } from "./load_name_model.ts";
import { weightsFromOnnx } from "./train/export_onnx.ts";
import { GOLDEN } from "./golden_cases.ts";

const weights = new URL("./weights/", import.meta.url).pathname;

Deno.test("the ONNX graph computes the same probabilities as the TypeScript forward pass", async () => {
  const bytes = await Deno.readFile(`${weights}name_model.onnx`);
  const meta = JSON.parse(await Deno.readTextFile(`${weights}name_model.json`));
  const lex = parseLexicon(await Deno.readTextFile(`${weights}name_lexicon.txt`));
  const feat = new Featurizer(lex, meta.features);
  const w = weightsFromOnnx(bytes);
  const names = GOLDEN.slice(0, 120).map((c) => c.words.split(" "));
  const batch = feat.featurizeBatch(names);
  const ts = forwardTs(w, batch.indices, batch.tokens, batch.width);
  const loaded = await loadNameModel({ runtime: "node" });
  assert.ok(loaded.model);
  // deno-lint-ignore no-explicit-any
  const { probs } = await (loaded.model as any).probabilities(names);
  assert.equal(probs.length, batch.tokens * NUM_LABELS);
  let maxDiff = 0;
  for (let i = 0; i < probs.length; i++) maxDiff = Math.max(maxDiff, Math.abs(probs[i] - ts[i]));
  assert.ok(maxDiff < 1e-5, `max difference ${maxDiff}`);
});

Deno.test("the forward kernel computes the ONNX graph's probabilities and readings", async () => {
  const kernel = await loadNameModel({ runtime: "kernel" });
  const onnx = await loadNameModel({ runtime: "node" });
  assert.ok(kernel.model && onnx.model);
  // deno-lint-ignore no-explicit-any
  assert.equal((kernel.model as any).runtime, "kernel");
  const names = GOLDEN.map((c) => c.words.split(" ")).filter((w) => w.length >= 2);
  // deno-lint-ignore no-explicit-any
  const a = await (kernel.model as any).probabilities(names);
  // deno-lint-ignore no-explicit-any
  const b = await (onnx.model as any).probabilities(names);
  assert.deepEqual(a.offsets, b.offsets);
  assert.equal(a.probs.length, b.probs.length);
  let maxDiff = 0;
  for (let i = 0; i < a.probs.length; i++) {
    maxDiff = Math.max(maxDiff, Math.abs(a.probs[i] - b.probs[i]));
  }
  assert.ok(maxDiff < 1e-5, `max difference ${maxDiff}`);
  const inputs = names.map((words) => ({ words }));
  const [x, y] = [await kernel.model.readMany(inputs), await onnx.model.readMany(inputs)];
  for (let i = 0; i < x.length; i++) {
    assert.equal(x[i].order, y[i].order, names[i].join(" "));
    assert.equal(x[i].split, y[i].split, names[i].join(" "));
    assert.equal(x[i].bothOrders, y[i].bothOrders, names[i].join(" "));
    assert.ok(Math.abs(x[i].confidence - y[i].confidence) < 1e-5, names[i].join(" "));
  }
});

Deno.test("the forward kernel answers two calls in flight each with its own names", async () => {
  const { model } = await loadNameModel({ runtime: "kernel" });
  assert.ok(model);
  const one = [{ words: ["Tanaka", "Hiroshi"] }, { words: ["Ludwig", "van", "Beethoven"] }];
  const two = [{ words: ["Maria", "Pires", "Martins"] }];
  const [alone1, alone2] = [await model.readMany(one), await model.readMany(two)];
  const [both1, both2] = await Promise.all([model.readMany(one), model.readMany(two)]);
  assert.deepEqual(both1, alone1);
  assert.deepEqual(both2, alone2);
});
