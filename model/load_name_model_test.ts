import assert from "node:assert/strict";
import { loadNameModel } from "./load_name_model.ts";
import { ForwardKernel, KERNEL_GRAPH_OPS } from "./forward_kernel.ts";
import { readOnnxGraph } from "./onnx_initializers.ts";

const weights = new URL("./weights/", import.meta.url).pathname;

Deno.test("loadNameModel: a missing file gives model null and a reason", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const r = await loadNameModel({ path: `${dir}/name_model.onnx` });
    assert.equal(r.model, null);
    assert.ok("reason" in r && /not found/.test(r.reason));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadNameModel: a corrupt file gives model null and a reason (both runtimes)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeFile(`${dir}/name_model.onnx`, new TextEncoder().encode("not an onnx graph"));
    await Deno.copyFile(`${weights}name_model.json`, `${dir}/name_model.json`);
    await Deno.copyFile(`${weights}name_lexicon.txt`, `${dir}/name_lexicon.txt`);
    for (const runtime of [undefined, "kernel", "node", "web"] as const) {
      const r = await loadNameModel({ path: `${dir}/name_model.onnx`, runtime });
      assert.equal(r.model, null);
      assert.ok("reason" in r && /corrupt|not a valid/.test(r.reason), JSON.stringify(r));
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadNameModel: corrupt metadata gives model null and a reason", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.copyFile(`${weights}name_model.onnx`, `${dir}/name_model.onnx`);
    await Deno.writeTextFile(`${dir}/name_model.json`, "{ not json");
    const r = await loadNameModel({ path: `${dir}/name_model.onnx` });
    assert.equal(r.model, null);
    assert.ok("reason" in r && r.reason.length > 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadNameModel: loads once and reads names with every runtime alike", async () => {
  const a = await loadNameModel();
  const b = await loadNameModel();
  assert.ok(a.model && b.model);
  assert.equal(a.model, b.model);
  // deno-lint-ignore no-explicit-any
  assert.equal((a.model as any).runtime, "kernel");
  const names = [{ words: ["Ludwig", "van", "Beethoven"] }, { words: ["Tanaka", "Hiroshi"] }];
  const x = await a.model.readMany(names);
  assert.equal(x.length, 2);
  for (const runtime of ["node", "web"] as const) {
    const other = await loadNameModel({ runtime });
    assert.ok(other.model, runtime);
    const y = await other.model.readMany(names);
    for (let i = 0; i < 2; i++) {
      assert.equal(x[i].order, y[i].order);
      assert.equal(x[i].split, y[i].split);
      assert.ok(Math.abs(x[i].confidence - y[i].confidence) < 1e-4);
    }
  }
  assert.deepEqual(await a.model.readMany([]), []);
});

Deno.test("the kernel reads the shipped graph's weights and refuses other shapes", async () => {
  const bytes = await Deno.readFile(`${weights}name_model.onnx`);
  const graph = readOnnxGraph(bytes);
  assert.deepEqual(graph.ops, KERNEL_GRAPH_OPS);
  assert.equal(graph.initializers.get("w1")?.dims.join(), "32,64");
  assert.equal(graph.initializers.get("emb_q")?.dataType, 3);
  assert.throws(() => readOnnxGraph(bytes.subarray(0, 1000)));
  assert.ok(ForwardKernel.create(graph.initializers, 1 << 17) instanceof ForwardKernel);
  const other = ForwardKernel.create(graph.initializers, 1 << 16);
  assert.equal(typeof other, "string");
  const noW2 = new Map(graph.initializers);
  noW2.delete("w2");
  assert.match(ForwardKernel.create(noW2, 1 << 17) as string, /w2 missing/);
});
