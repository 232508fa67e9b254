import assert from "node:assert/strict";
import { ServiceError } from "../domain/errors.ts";
import {
  createIdempotencyRecords,
  REPLAY_WINDOW_MS,
} from "../domain/idempotency/claim_idempotency_key.ts";
import { canonicalJson, createFingerprinter } from "../domain/idempotency/fingerprint.ts";
import { readIdempotencyKey } from "../domain/idempotency/idempotency_key.ts";
import { createCharger } from "../domain/billing/charge_units.ts";
import { migrate } from "../domain/stores/migrate.ts";
import { FakeClock } from "../domain/shared/clock.ts";
import { createWorkspace } from "../domain/workspaces/create_workspace.ts";
import {
  bearer,
  countCharges,
  createTestEnv,
  createTestWorkspace,
  DB_TEST,
  openTestDatabase,
} from "./harness.ts";

const rejectsWith = (code: string) => (error: unknown) =>
  error instanceof ServiceError && error.code === code;

Deno.test("idempotency key header: 1 to 255 printable ASCII", () => {
  assert.equal(readIdempotencyKey(undefined), undefined);
  assert.equal(readIdempotencyKey("a"), "a");
  assert.equal(readIdempotencyKey("x".repeat(255)), "x".repeat(255));
  for (const bad of ["", "x".repeat(256), "tab\there", "naïve", "line\n"]) {
    assert.throws(() => readIdempotencyKey(bad), rejectsWith("validation_error"));
  }
});

Deno.test("fingerprint: canonical, keyed, one-way", async () => {
  const fp = createFingerprinter("secret-a");
  const a = fp("name.parse", { name: "Ada Lovelace", spelling: "as-written" });
  assert.equal(a, fp("name.parse", { spelling: "as-written", name: "Ada Lovelace" }));
  assert.notEqual(a, fp("name.parse", { name: "Ada Lovelace", spelling: "folded" }));
  assert.notEqual(
    a,
    fp("name.parse.batch", { name: "Ada Lovelace", spelling: "as-written" }),
  );
  assert.notEqual(
    a,
    createFingerprinter("secret-b")("name.parse", {
      name: "Ada Lovelace",
      spelling: "as-written",
    }),
  );
  assert.match(a, /^[0-9a-f]{64}$/);
  assert.ok(!a.includes("Ada"));
  // the standard HMAC-SHA256 (as WebCrypto computes it), so records kept before a change of
  // implementation still match their retries
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode("secret-a"),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const canonical = canonicalJson({
    scope: "name.parse",
    request: { name: "Ada Lovelace", spelling: "as-written" },
  });
  const mac = new Uint8Array(
    await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(canonical)),
  );
  assert.equal(a, Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join(""));
});

Deno.test(
  "idempotency: replay, conflict, in progress, lease takeover, expired key (fake clock)",
  DB_TEST,
  async (t) => {
    const db = await openTestDatabase();
    try {
      await migrate(db.sql);
      const clock = new FakeClock();
      const records = createIdempotencyRecords({ sql: db.sql, clock, leaseMs: 10_000 });
      const ws = await createWorkspace({ db }, { name: "idem", points: 10 });
      const charge = createCharger(db.sql);
      const base = {
        workspaceId: ws.workspaceId,
        key: "order-1",
        scope: "test",
        fingerprint: "f1",
      };

      const first = await records.claim(base);
      assert.equal(first.kind, "claimed");
      if (first.kind !== "claimed") return;

      await t.step("in progress while the first holds its lease", async () => {
        await assert.rejects(() => records.claim(base), rejectsWith("idempotency_in_progress"));
      });
      await t.step(
        "in progress says, in Retry-After, when the lease ends (at least 1 s)",
        async () => {
          const retryAfter = async () => {
            try {
              await records.claim(base);
            } catch (error) {
              assert.ok(error instanceof ServiceError);
              assert.equal(error.code, "idempotency_in_progress");
              assert.equal(error.retryAfterSeconds, undefined, "retryAfterSeconds is for 429 only");
              return error.headers?.["Retry-After"];
            }
            assert.fail("the claim was not refused");
          };
          assert.equal(await retryAfter(), "10");
          clock.advance(3_500);
          assert.equal(await retryAfter(), "7");
          clock.advance(6_499);
          assert.equal(await retryAfter(), "1");
          clock.advance(-9_999);
        },
      );
      await t.step("the holder renews its lease while it works", async () => {
        clock.advance(9_000);
        assert.equal(
          await records.renew({ workspaceId: ws.workspaceId, key: "order-1", leaseToken: "x" }),
          false,
          "only the holder renews",
        );
        assert.equal(
          await records.renew({
            workspaceId: ws.workspaceId,
            key: "order-1",
            leaseToken: first.leaseToken,
          }),
          true,
        );
        clock.advance(9_000); // 18 s after the claim, 9 s after the renewal: still held
        await assert.rejects(() => records.claim(base), rejectsWith("idempotency_in_progress"));
        clock.advance(-18_000);
      });
      await t.step(
        "a different request under the key is a conflict, even while running",
        async () => {
          await assert.rejects(
            () => records.claim({ ...base, fingerprint: "f2" }),
            rejectsWith("idempotency_conflict"),
          );
        },
      );
      await t.step(
        "the charge that completes the work marks the record done in one transaction",
        async () => {
          const [result] = await charge([{
            workspaceId: ws.workspaceId,
            amount: 2,
            chargeKey: "k:order-1:0",
            operation: "test",
            idempotency: {
              key: "order-1",
              leaseToken: first.leaseToken,
              complete: { response: { ok: 1 } },
            },
          }]);
          assert.equal(result.outcome, "charged");
          assert.deepEqual(await records.claim(base), { kind: "done", response: { ok: 1 } });
        },
      );
      await t.step("replays keep answering inside 30 days; conflicts stay conflicts", async () => {
        clock.advance(REPLAY_WINDOW_MS - 1000);
        assert.equal((await records.claim(base)).kind, "done");
        await assert.rejects(
          () => records.claim({ ...base, fingerprint: "f2" }),
          rejectsWith("idempotency_conflict"),
        );
      });
      await t.step(
        "after 30 days the key cannot be reused, even for the same request",
        async () => {
          clock.advance(2000);
          await assert.rejects(() => records.claim(base), rejectsWith("idempotency_conflict"));
          await assert.rejects(
            () => records.claim({ ...base, fingerprint: "new" }),
            rejectsWith("idempotency_conflict"),
          );
          clock.advance(365 * 24 * 3600 * 1000);
          await assert.rejects(() => records.claim(base), rejectsWith("idempotency_conflict"));
        },
      );
      await t.step("a crashed holder's lease expires and a retry resumes", async () => {
        const crashed = await records.claim({ ...base, key: "order-2" });
        assert.equal(crashed.kind, "claimed");
        clock.advance(10_001);
        const resumed = await records.claim({ ...base, key: "order-2" });
        assert.equal(resumed.kind, "claimed");
        assert.equal(resumed.kind === "claimed" && resumed.resumed, true);
        // The old holder lost its lease: its late charge moves nothing.
        const [late] = await charge([{
          workspaceId: ws.workspaceId,
          amount: 1,
          chargeKey: "k:order-2:0",
          operation: "test",
          idempotency: {
            key: "order-2",
            leaseToken: crashed.kind === "claimed" ? crashed.leaseToken : "",
          },
        }]);
        assert.equal(late.outcome, "lease_lost");
      });
      await t.step("released without a charge, the key is free again", async () => {
        const claim = await records.claim({ ...base, key: "order-3" });
        assert.equal(claim.kind, "claimed");
        if (claim.kind !== "claimed") return;
        await records.release({
          workspaceId: ws.workspaceId,
          key: "order-3",
          leaseToken: claim.leaseToken,
          forget: true,
        });
        assert.equal(
          (await records.claim({ ...base, key: "order-3", fingerprint: "other" })).kind,
          "claimed",
        );
      });
      await t.step("keys are scoped to the workspace", async () => {
        const other = await createWorkspace({ db }, { name: "idem-2" });
        assert.equal(
          (await records.claim({ ...base, workspaceId: other.workspaceId, fingerprint: "zz" }))
            .kind,
          "claimed",
        );
      });
    } finally {
      await db.drop();
    }
  },
);

Deno.test(
  "Idempotency-Key sent twice: the joined value is one key, kept consistently (README)",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      const ws = await createTestWorkspace(env, 10);
      const parse = (keys: string[]) => {
        const headers = new Headers(bearer(ws.apiKey));
        headers.set("Content-Type", "application/json");
        for (const key of keys) headers.append("Idempotency-Key", key);
        return env.app.request("/api/v1/name/parse", {
          method: "POST",
          headers,
          body: JSON.stringify({ name: "Ada Lovelace" }),
        });
      };
      const first = await (await parse(["a", "b"])).json();
      assert.equal(first.data.replay, false);
      // The same two headers again, or the joined value sent once: the one key "a, b".
      for (const keys of [["a", "b"], ["a, b"]]) {
        const again = await (await parse(keys)).json();
        assert.equal(again.data.replay, true, keys.join(" | "));
        assert.equal(again.data.pointsCharged, 0);
      }
      // Neither header alone is that key.
      assert.equal((await (await parse(["a"])).json()).data.replay, false);
      assert.equal(await countCharges(env, ws.workspaceId), 2);
    } finally {
      await env.close();
    }
  },
);

Deno.test(
  "idempotency: a live slow lookup keeps its key (lease renewed); a retry gets 409 with Retry-After",
  DB_TEST,
  async () => {
    const entered = Promise.withResolvers<void>();
    const gate = Promise.withResolvers<void>();
    let calls = 0;
    const env = await createTestEnv({
      ports: {
        verifier: {
          verify: async () => {
            if (++calls === 1) {
              entered.resolve();
              await gate.promise;
            }
            return { kind: "unavailable", why: "hosts-down", evidence: null } as const;
          },
        },
      },
    });
    try {
      // A short lease, so that the test can outlive it: renewed every 100 ms of real time.
      env.ctx.idempotency = createIdempotencyRecords({
        sql: env.db.sql,
        clock: env.clock,
        leaseMs: 300,
      });
      const ws = await createTestWorkspace(env, 100);
      const find = () =>
        env.app.request("/api/v1/find", {
          method: "POST",
          headers: bearer(ws.apiKey, {
            "Content-Type": "application/json",
            "Idempotency-Key": "slow-1",
          }),
          body: JSON.stringify({ name: "Ada Lovelace", company: "analytical.example" }),
        });
      const first = find();
      await entered.promise;
      // Far past the first lease on the service's clock; the holder renews it meanwhile.
      env.clock.advance(5_000);
      await new Promise((resolve) => setTimeout(resolve, 350));
      const retry = await find();
      assert.equal(retry.status, 409);
      assert.equal((await retry.json()).error.code, "idempotency_in_progress");
      assert.equal(retry.headers.get("Retry-After"), "1");
      gate.resolve();
      const answered = await first;
      assert.equal(answered.status, 200);
      await answered.body?.cancel();
      assert.equal(calls, 1, "the retry did no work");
      // The key is free again at once (the lookup was not final), and nothing renews it now.
      env.clock.advance(1);
      const again = await find();
      assert.equal(again.status, 200);
      await again.body?.cancel();
    } finally {
      await env.close();
    }
  },
);
