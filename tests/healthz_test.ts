import assert from "node:assert/strict";
import { createTestEnv, DB_TEST } from "./harness.ts";

Deno.test(
  "healthz: no key; 200 when the stores answer, 503 when the database does not",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      const ok = await env.app.request("/healthz");
      assert.equal(ok.status, 200);
      assert.deepEqual(await ok.json(), {
        status: "ok",
        database: { status: "ok", kind: env.db.kind },
        kv: { status: "ok" },
        nameModel: { status: "absent", version: null },
      });
      await env.db.sql.end();
      const down = await env.app.request("/healthz");
      assert.equal(down.status, 503);
      const body = await down.json();
      assert.equal(body.status, "degraded");
      assert.equal(body.database.status, "down");
      assert.equal(body.kv.status, "ok");
    } finally {
      await env.close();
    }
  },
);
