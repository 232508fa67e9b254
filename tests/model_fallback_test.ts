import assert from "node:assert/strict";
import { memoryLogger } from "../domain/shared/logger.ts";
import { createWorkspace } from "../domain/workspaces/create_workspace.ts";
import { DB_TEST, startTestService } from "./harness.ts";

async function parseWith(modelPath: string | null) {
  const logger = memoryLogger();
  const running = await startTestService(logger, modelPath ? { NAME_MODEL_PATH: modelPath } : {});
  const { service, base } = running;
  try {
    const { apiKey } = await createWorkspace(service.ctx, { name: "m", points: 10 });
    const res = await fetch(`${base}/api/v1/name/parse`, {
      method: "POST",
      headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Tanaka Hiroshi" }),
    });
    const health = await (await fetch(`${base}/healthz`)).json();
    return { status: res.status, data: (await res.json()).data, health, lines: logger.lines };
  } finally {
    await running.stop();
    await running.cleanup();
  }
}

Deno.test(
  "the service starts and answers with the rule when the model is missing or corrupt",
  DB_TEST,
  async () => {
    const corrupt = await Deno.makeTempFile({ suffix: ".onnx" });
    await Deno.writeFile(corrupt, crypto.getRandomValues(new Uint8Array(4096)));
    try {
      for (const path of ["/nonexistent/name_model.onnx", corrupt]) {
        const { status, data, health, lines } = await parseWith(path);
        assert.equal(status, 200);
        assert.deepEqual([data.given, data.surname, data.source, data.confidence], [
          "Tanaka",
          "Hiroshi",
          "rule",
          null,
        ]);
        assert.equal(health.nameModel.status, "absent");
        const warnings = lines.filter((line) => line.includes("name model unavailable"));
        assert.equal(warnings.length, 1, "one clear line says so");
      }
    } finally {
      await Deno.remove(corrupt);
    }
  },
);

Deno.test(
  "with the bundled model loaded, surname-first names are read by the model",
  DB_TEST,
  async () => {
    const { status, data, health, lines } = await parseWith(null);
    assert.equal(status, 200);
    assert.equal(health.nameModel.status, "loaded");
    assert.ok(lines.some((line) => line.includes("name model loaded")));
    assert.equal(data.source, "model");
    assert.deepEqual([data.given, data.surname], ["Hiroshi", "Tanaka"]);
    assert.equal(typeof data.confidence, "number");
  },
);
