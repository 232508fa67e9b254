import assert from "node:assert/strict";
import { DEFAULT_RATE_LIMITS } from "../domain/config/config.ts";
import { FakeClock } from "../domain/shared/clock.ts";
import { createRateLimiter } from "../domain/rate_limit/rate_limiter.ts";
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

/** Two (or more) limiters on one KV, as two processes would be; counts KV commits. */
async function limitersOnOneKv(count: number, limit: number, clock: FakeClock) {
  const kv = await Deno.openKv(":memory:");
  let commits = 0;
  const counted = new Proxy(kv, {
    get(target, property) {
      if (property === "atomic") {
        return () => {
          const op = target.atomic();
          const commit = op.commit.bind(op);
          op.commit = () => {
            commits++;
            return commit();
          };
          return op;
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const rules = { ...DEFAULT_RATE_LIMITS, name_parse: { limit, windowSeconds: 60 } };
  const limiters = Array.from(
    { length: count },
    () => createRateLimiter({ kv: counted, clock, rules }),
  );
  return { kv, limiters, commits: () => commits };
}

for (const stepMs of [1, 40]) {
  Deno.test(
    `rate limit: leased slices keep two processes on one KV within 2% of the budget, never over (${stepMs} ms between rounds)`,
    async () => {
      const limit = 20_000;
      const clock = new FakeClock(Date.UTC(2026, 10, 23, 10, 0, 0));
      const { kv, limiters, commits } = await limitersOnOneKv(2, limit, clock);
      try {
        let admitted = 0;
        const lastRemaining = [Infinity, Infinity];
        // Both processes busy, then the first goes quiet holding whatever it leased, and the
        // second spends the rest of the budget.
        for (let round = 0;; round++) {
          const active = round < 60 ? [0, 1] : [1];
          const decisions = await Promise.all(
            active.flatMap((p) =>
              Array.from(
                { length: 64 },
                () => limiters[p]("name_parse", "ws-1").then((d) => ({ p, d })),
              )
            ),
          );
          for (const { p, d } of decisions) {
            assert.equal(d.limit, limit);
            assert.ok(d.remaining >= 0 && d.remaining <= limit);
            const windowEnd = (Math.floor(clock.now() / 60_000) + 1) * 60_000;
            assert.equal(d.resetSeconds, Math.ceil((windowEnd - clock.now()) / 1000));
            if (d.allowed) {
              admitted++;
              assert.ok(d.remaining <= lastRemaining[p], "remaining never grows in a window");
              lastRemaining[p] = d.remaining;
            } else {
              assert.equal(d.remaining, 0);
            }
          }
          if (decisions.every(({ d }) => !d.allowed)) break;
          clock.advance(stepMs);
        }
        assert.ok(admitted <= limit, `never over the budget (${admitted})`);
        assert.ok(admitted >= limit * 0.98, `within 2% of it (${admitted} of ${limit})`);
        const window = Math.floor(clock.now() / 60_000);
        const leased = (await kv.get<number>(["rate_limit", "name_parse", "ws-1", window])).value;
        assert.ok(leased !== null && leased <= limit && leased >= admitted);
        console.log(`admitted ${admitted} of ${limit} with ${commits()} KV commits`);
        assert.ok(commits() * 20 < admitted, `few KV commits (${commits()} for ${admitted})`);
        // A new window: the old leases are forfeited, and both admit again.
        clock.advance(60_000);
        for (const limiter of limiters) {
          assert.equal((await limiter("name_parse", "ws-1")).allowed, true);
        }
      } finally {
        kv.close();
      }
    },
  );
}

Deno.test("rate limit: a small budget takes no slice, so it stays exact across processes", async () => {
  const clock = new FakeClock(Date.UTC(2026, 10, 23, 10, 0, 0));
  const { kv, limiters } = await limitersOnOneKv(3, 40, clock);
  try {
    const decisions = await Promise.all(
      Array.from({ length: 120 }, (_, i) => limiters[i % 3]("name_parse", "ws-1")),
    );
    assert.equal(decisions.filter((d) => d.allowed).length, 40);
    // Nothing is left stranded in a lease: the last one admitted saw the budget spent.
    assert.equal(Math.min(...decisions.filter((d) => d.allowed).map((d) => d.remaining)), 0);
  } finally {
    kv.close();
  }
});
