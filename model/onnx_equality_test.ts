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
  const loaded = await loadNameModel();
  assert.ok(loaded.model);
  // deno-lint-ignore no-explicit-any
  const { probs } = await (loaded.model as any).probabilities(names);
  assert.equal(probs.length, batch.tokens * NUM_LABELS);
  let maxDiff = 0;
  for (let i = 0; i < probs.length; i++) maxDiff = Math.max(maxDiff, Math.abs(probs[i] - ts[i]));
  assert.ok(maxDiff < 1e-5, `max difference ${maxDiff}`);
});
