/**
 * The client's types are the served document's: generating them again from what the service
 * serves (default configuration) gives the checked-in file byte for byte, so a route whose schema
 * changed without `deno task client:generate` fails here. And the package type-checks and builds
 * as npm users get it: `tsc` with `--strict` (tsconfig.json), in a temporary output folder.
 */
import assert from "node:assert/strict";
import { generateClientTypes, TYPES_FILE } from "../client/generate.ts";
import { createTestEnv, DB_TEST } from "./harness.ts";

Deno.test("client: the generated types equal those of the served document", DB_TEST, async () => {
  const env = await createTestEnv();
  try {
    const document = await (await env.app.request("/api/v1/openapi.json")).json();
    const expected = await generateClientTypes(document);
    const actual = await Deno.readTextFile(TYPES_FILE);
    assert.ok(
      actual === expected,
      "client/src/openapi_types.ts differs from the served document: run the service and " +
        "`deno task client:generate`",
    );
  } finally {
    await env.close();
  }
});

Deno.test("client: the npm package builds with tsc --strict", async () => {
  const outDir = await Deno.makeTempDir();
  try {
    const tsc = new Deno.Command("npx", {
      args: ["-y", "-p", "typescript@5.9.3", "tsc", "-p", "tsconfig.json", "--outDir", outDir],
      cwd: new URL("../client/", import.meta.url),
      stdout: "piped",
      stderr: "piped",
    });
    const { code, stdout, stderr } = await tsc.output();
    const text = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
    assert.equal(code, 0, text);
    const config = JSON.parse(
      await Deno.readTextFile(new URL("../client/tsconfig.json", import.meta.url)),
    );
    assert.equal(config.compilerOptions.strict, true);
    const built = await Deno.readTextFile(`${outDir}/client.js`);
    assert.match(built, /from "\.\/errors\.js"/, "relative imports rewritten for Node");
    await Deno.stat(`${outDir}/mod.d.ts`);
  } finally {
    await Deno.remove(outDir, { recursive: true });
  }
});
