import assert from "node:assert/strict";
import { bearer, createTestEnv, createTestWorkspace, DB_TEST } from "./harness.ts";

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

Deno.test(
  "database down: /api/v1/points and a parse answer 503 incomplete, not 500, whether or not the key is cached",
  DB_TEST,
  async () => {
    // A key verified once stays cached for a while: the points read is what fails then.
    const env = await createTestEnv({ config: { authCacheSeconds: 60 } });
    try {
      const { apiKey } = await createTestWorkspace(env, 100);
      const fresh = await createTestWorkspace(env, 100);
      const headers = bearer(apiKey);
      assert.equal((await env.app.request("/api/v1/points", { headers })).status, 200);
      // Every client of the database goes (on Postgres the charges have their own).
      await env.db.sql.end();
      if (env.db.ledgerSql !== env.db.sql) await env.db.ledgerSql.end();
      for (
        const [what, init, path] of [
          ["points, cached key", { headers }, "/api/v1/points"],
          ["points, a key to look up", { headers: bearer(fresh.apiKey) }, "/api/v1/points"],
          ["parse", {
            method: "POST",
            headers: bearer(apiKey, { "Content-Type": "application/json" }),
            body: JSON.stringify({ name: "Ada Lovelace" }),
          }, "/api/v1/name/parse"],
        ] as const
      ) {
        const res = await env.app.request(path, init);
        const body = await res.json();
        assert.equal(res.status, 503, `${what}: ${JSON.stringify(body)}`);
        assert.equal(body.error.code, "incomplete", what);
        if (path === "/api/v1/points") assert.match(body.error.message, /database/, what);
      }
      assert.ok(
        !env.logLines.some((line) => line.includes('"unhandled error"')),
        "an unavailable database is no unexpected failure",
      );
    } finally {
      await env.close();
    }
  },
);
