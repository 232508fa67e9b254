/**
 * Redocly's recommended rules on the served document: no error, no warning. Runs the published
 * linter (`npx @redocly/cli lint`, pinned) on the document the app serves, written to a file.
 */
import assert from "node:assert/strict";
import { createTestEnv, DB_TEST } from "./harness.ts";

export const REDOCLY = "@redocly/cli@2.77.0";

Deno.test("openapi.json: redocly lint (recommended rules) finds no problem", DB_TEST, async () => {
  const env = await createTestEnv();
  const dir = await Deno.makeTempDir();
  try {
    const document = await (await env.app.request("/api/v1/openapi.json")).text();
    await Deno.writeTextFile(`${dir}/openapi.json`, document);
    const { code, stdout, stderr } = await new Deno.Command("npx", {
      args: ["-y", REDOCLY, "lint", "openapi.json", "--format", "json"],
      cwd: dir,
      env: { REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const out = new TextDecoder().decode(stdout);
    assert.equal(code, 0, out + new TextDecoder().decode(stderr));
    const report = JSON.parse(out.slice(out.indexOf("{")));
    assert.deepEqual(report.totals, { errors: 0, warnings: 0, ignored: 0 }, out);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await env.close();
  }
});
