import assert from "node:assert/strict";
import { REPLAY_WINDOW_MS } from "../domain/idempotency/claim_idempotency_key.ts";
import { sweepIdempotencyRecords } from "../workers/idempotency_sweeper.ts";
import { createTestEnv, createTestWorkspace, DB_TEST } from "./harness.ts";

Deno.test("sweeper: stored answers go after 30 days, the key stays used", DB_TEST, async () => {
  const env = await createTestEnv();
  try {
    const ws = await createTestWorkspace(env, 10);
    const records = env.ctx.idempotency;
    const input = { workspaceId: ws.workspaceId, key: "stored-1", scope: "test", fingerprint: "f" };
    const claim = await records.claim(input);
    assert.equal(claim.kind, "claimed");
    if (claim.kind !== "claimed") return;
    await records.complete({ ...input, leaseToken: claim.leaseToken, response: { found: true } });
    assert.equal(await sweepIdempotencyRecords(env.ctx), 0);
    assert.deepEqual(await records.claim(input), { kind: "done", response: { found: true } });

    env.clock.advance(REPLAY_WINDOW_MS + 1);
    assert.equal(await sweepIdempotencyRecords(env.ctx), 1);
    const [row] = await env.db
      .sql`SELECT response FROM idempotency_records WHERE idem_key = 'stored-1'`;
    assert.equal(row.response, null);
    await assert.rejects(() => records.claim(input), /more than 30 days ago/);
    assert.equal(await sweepIdempotencyRecords(env.ctx), 0, "idempotent");
  } finally {
    await env.close();
  }
});
