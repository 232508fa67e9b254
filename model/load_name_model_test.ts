import assert from "node:assert/strict";
import { loadNameModel } from "./load_name_model.ts";

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
    for (const runtime of [undefined, "node", "web"] as const) {
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

Deno.test("loadNameModel: loads once and reads names with node and web runtimes alike", async () => {
  const a = await loadNameModel();
  const b = await loadNameModel();
  assert.ok(a.model && b.model);
  assert.equal(a.model, b.model);
  const web = await loadNameModel({ runtime: "web" });
  assert.ok(web.model);
  const names = [{ words: ["Ludwig", "van", "Beethoven"] }, { words: ["Tanaka", "Hiroshi"] }];
  const [x, y] = [await a.model.readMany(names), await web.model.readMany(names)];
  assert.equal(x.length, 2);
  for (let i = 0; i < 2; i++) {
    assert.equal(x[i].order, y[i].order);
    assert.equal(x[i].split, y[i].split);
    assert.ok(Math.abs(x[i].confidence - y[i].confidence) < 1e-4);
  }
  assert.deepEqual(await a.model.readMany([]), []);
});
