import assert from "node:assert/strict";
import { DEFAULT_RATE_LIMITS } from "../domain/config/config.ts";
import { FakeClock } from "../domain/shared/clock.ts";
import { bearer, createTestEnv, createTestWorkspace, DB_TEST } from "./harness.ts";

Deno.test(
  "rate limit: one budget shared exactly by two app instances on one KV",
  DB_TEST,
  async () => {
    const kvPath = await Deno.makeTempFile({ suffix: ".kv" });
    const clock = new FakeClock(Date.UTC(2026, 10, 23, 10, 0, 30));
    const config = {
      rateLimits: { ...DEFAULT_RATE_LIMITS, account: { limit: 5, windowSeconds: 60 } },
    };
    const first = await createTestEnv({ kvPath, clock, config });
    const second = await createTestEnv({ kvPath, clock, config, db: first.db });
    try {
      const ws = await createTestWorkspace(first, 10);
      const other = await createTestWorkspace(first, 10);
      const apps = [first.app, second.app];
      const statuses = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          (async () => {
            const res = await apps[i % 2].request("/api/v1/points", { headers: bearer(ws.apiKey) });
            const body = await res.json();
            return { status: res.status, body, retryAfter: res.headers.get("retry-after"), res };
          })()),
      );
      assert.equal(
        statuses.filter((s) => s.status === 200).length,
        5,
        "exactly the budget, across both",
      );
      const limited = statuses.filter((s) => s.status === 429);
      assert.equal(limited.length, 7);
      for (const { body, retryAfter, res } of limited) {
        assert.equal(body.error.code, "rate_limited");
        assert.equal(body.error.message, "Rate limit exceeded");
        assert.equal(body.error.retryAfterSeconds, 30);
        assert.equal(retryAfter, "30");
        assert.equal(res.headers.get("ratelimit-remaining"), "0");
        assert.equal(res.headers.get("ratelimit-limit"), "5");
      }
      // Another workspace has its own budget.
      assert.equal(
        (await second.app.request("/api/v1/points", { headers: bearer(other.apiKey) })).status,
        200,
      );
      // A new window admits again.
      clock.advance(30_000);
      assert.equal(
        (await second.app.request("/api/v1/points", { headers: bearer(ws.apiKey) })).status,
        200,
      );
      // Rate-limited calls never reach the ledger.
      const entries = await first.db
        .sql`SELECT kind FROM ledger_entries WHERE workspace_id = ${ws.workspaceId}`;
      assert.deepEqual(entries.map((e) => e.kind), ["grant"]);
    } finally {
      await second.close();
      await first.close();
      await Deno.remove(kvPath).catch(() => {});
    }
  },
);
