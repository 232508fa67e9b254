import assert from "node:assert/strict";
import { DEFAULT_RATE_LIMITS } from "../domain/config/config.ts";
import { grantPoints } from "../domain/billing/grant_points.ts";
import {
  bearer,
  countCharges,
  createTestEnv,
  createTestWorkspace,
  DB_TEST,
  withoutRequestId,
} from "./harness.ts";
import { FakeNameModel } from "./fake_name_model.ts";

const json = (apiKey: string, body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: bearer(apiKey, { "Content-Type": "application/json", ...headers }),
  body: typeof body === "string" ? body : JSON.stringify(body),
});

Deno.test(
  "POST /api/v1/name/parse: answers, refusals, billing, idempotency",
  DB_TEST,
  async (t) => {
    const env = await createTestEnv({
      config: {
        rateLimits: { ...DEFAULT_RATE_LIMITS, name_parse: { limit: 40, windowSeconds: 60 } },
      },
    });
    try {
      const ws = await createTestWorkspace(env, 10);
      const parse = (body: unknown, headers?: Record<string, string>) =>
        env.app.request("/api/v1/name/parse", json(ws.apiKey, body, headers));

      await t.step("an answer with every field, billed once, balance after", async () => {
        const res = await parse({ name: "Ada Lovelace" });
        assert.equal(res.status, 200);
        assert.deepEqual((await res.json()).data, {
          first: "Ada",
          last: "Lovelace",
          given: "Ada",
          surname: "Lovelace",
          nickname: null,
          source: "rule",
          confidence: null,
          bothOrders: false,
          charged: true,
          pointsCharged: 1,
          replay: false,
          balance: { available: 9, reserved: 0, granted: 10 },
        });
        assert.equal(await countCharges(env, ws.workspaceId), 1);
      });

      await t.step("folded spelling", async () => {
        const body = (await (await parse({ name: "José Ñúñez", spelling: "folded" })).json()).data;
        assert.equal(body.given, "jose");
        assert.equal(body.surname, "nunez");
        assert.equal(body.first, body.given);
        assert.equal(body.last, body.surname);
      });

      const before = await countCharges(env, ws.workspaceId);
      await t.step("validation errors: exact messages, not billed", async () => {
        const cases: [unknown, string][] = [
          [{}, "name is required"],
          [{ name: null }, "name is required"],
          [{ name: 42 }, "name must be a string"],
          [{ name: "   " }, "name must not be blank"],
          [
            { name: "a".repeat(128) + " " + "b".repeat(128) },
            "name must be at most 256 characters",
          ],
          [{ name: "Ada Lovelace", spelling: "upper" }, "spelling must be as-written or folded"],
        ];
        for (const [body, message] of cases) {
          const res = await parse(body);
          assert.equal(res.status, 400, JSON.stringify(body));
          assert.deepEqual(withoutRequestId(await res.json()), {
            error: { code: "validation_error", message },
          });
        }
        const huge = await parse({ name: "Ada Lovelace", padding: "x".repeat(2 * 1024 * 1024) });
        assert.equal(huge.status, 400);
        assert.deepEqual(withoutRequestId(await huge.json()), {
          error: { code: "validation_error", message: "The request body must be at most 1 MB" },
        });
        const malformed = await parse("{not json");
        assert.equal(malformed.status, 400);
        assert.equal((await malformed.json()).error.code, "validation_error");
        for (const key of ["", "x".repeat(256), "naïve"]) {
          const res = await parse({ name: "Ada Lovelace" }, { "Idempotency-Key": key });
          assert.equal(res.status, 400);
          assert.equal((await res.json()).error.code, "validation_error");
        }
        // Exactly 256 characters is allowed.
        assert.equal((await parse({ name: "a".repeat(127) + " " + "b".repeat(128) })).status, 200);
        assert.equal(await countCharges(env, ws.workspaceId), before + 1);
      });

      await t.step("a name that does not split is 400 invalid_input, not billed", async () => {
        const n = await countCharges(env, ws.workspaceId);
        for (const name of ["Andrew", "  Cher  ", "van Gogh"]) {
          const res = await parse({ name });
          assert.equal(res.status, 400);
          const body = await res.json();
          assert.equal(body.error.code, "invalid_input");
          assert.match(body.error.message, /cannot be split into a given name and a surname/);
          assert.ok(!body.error.message.includes(name.trim()), "the message never quotes the name");
        }
        assert.equal(await countCharges(env, ws.workspaceId), n);
      });

      await t.step("Idempotency-Key: replay free, conflict on any change", async () => {
        const first = await (await parse({ name: "Grace Hopper" }, { "Idempotency-Key": "gh-1" }))
          .json();
        assert.equal(first.data.charged, true);
        const available = first.data.balance.available;
        const again = await (await parse({ name: "Grace Hopper" }, { "Idempotency-Key": "gh-1" }))
          .json();
        assert.equal(again.data.replay, true);
        assert.equal(again.data.charged, false);
        assert.equal(again.data.pointsCharged, 0);
        assert.equal(again.data.given, "Grace");
        assert.equal(again.data.balance.available, available);
        for (
          const body of [{ name: "Grace Hoper" }, { name: "Grace Hopper", spelling: "folded" }]
        ) {
          const res = await parse(body, { "Idempotency-Key": "gh-1" });
          assert.equal(res.status, 409);
          assert.equal((await res.json()).error.code, "idempotency_conflict");
        }
        // A refused name gives its key back: the same key can be used for a good request.
        assert.equal((await parse({ name: "Andrew" }, { "Idempotency-Key": "gh-2" })).status, 400);
        assert.equal(
          (await parse({ name: "Alan Turing" }, { "Idempotency-Key": "gh-2" })).status,
          200,
        );
      });

      await t.step(
        "402 insufficient_credits with meta; nothing charged; a top-up lets the key through",
        async () => {
          const { data } =
            await (await env.app.request("/api/v1/points", { headers: bearer(ws.apiKey) })).json();
          await env.db
            .sql`UPDATE balances SET available = 0 WHERE workspace_id = ${ws.workspaceId}`;
          const n = await countCharges(env, ws.workspaceId);
          const res = await parse({ name: "Katherine Johnson" }, { "Idempotency-Key": "kj-1" });
          assert.equal(res.status, 402);
          assert.deepEqual(withoutRequestId(await res.json()), {
            error: {
              code: "insufficient_credits",
              message: "Insufficient credits",
              meta: { required: 1, available: 0, shortfall: 1 },
            },
          });
          assert.equal(await countCharges(env, ws.workspaceId), n);
          await grantPoints(env, { workspaceId: ws.workspaceId, points: data.available });
          const ok = await parse({ name: "Katherine Johnson" }, { "Idempotency-Key": "kj-1" });
          assert.equal(ok.status, 200);
          assert.equal((await ok.json()).data.charged, true);
        },
      );

      await t.step("429 is never billed", async () => {
        const n = await countCharges(env, ws.workspaceId);
        const statuses: number[] = [];
        for (let i = 0; i < 45; i++) statuses.push((await parse({ name: "Mary Jackson" })).status);
        const ok = statuses.filter((s) => s === 200).length;
        assert.ok(statuses.includes(429));
        assert.equal(await countCharges(env, ws.workspaceId), n + ok);
      });
    } finally {
      await env.close();
    }
  },
);

Deno.test(
  "name parse with the model: source, confidence, threshold; in-progress key",
  DB_TEST,
  async (t) => {
    const model = new FakeNameModel();
    const env = await createTestEnv({ nameModel: model });
    try {
      const ws = await createTestWorkspace(env, 50);
      const parse = (body: unknown, headers?: Record<string, string>) =>
        env.app.request("/api/v1/name/parse", json(ws.apiKey, body, headers));

      await t.step("confident model answers with source model", async () => {
        const { data } = await (await parse({ name: "Mary Ann Evans" })).json();
        assert.deepEqual([data.given, data.surname, data.source, data.confidence], [
          "Mary Ann",
          "Evans",
          "model",
          0.9,
        ]);
      });
      await t.step("below threshold the rule answers, with the model's confidence", async () => {
        model.confidence = 0.3;
        const { data } = await (await parse({ name: "Mary Ann Evans" })).json();
        assert.deepEqual([data.given, data.surname, data.source, data.confidence], [
          "Mary",
          "Ann Evans",
          "rule",
          0.3,
        ]);
        model.confidence = 0.9;
      });
      await t.step(
        "a key whose first request still runs is 409 idempotency_in_progress",
        async () => {
          let open!: () => void;
          model.gate = new Promise((resolve) => open = resolve);
          const first = parse({ name: "Ada Lovelace" }, { "Idempotency-Key": "slow-1" });
          await new Promise((r) => setTimeout(r, 50));
          const second = await parse({ name: "Ada Lovelace" }, { "Idempotency-Key": "slow-1" });
          assert.equal(second.status, 409);
          assert.equal((await second.json()).error.code, "idempotency_in_progress");
          model.gate = null;
          open();
          assert.equal((await first).status, 200);
          const third =
            await (await parse({ name: "Ada Lovelace" }, { "Idempotency-Key": "slow-1" })).json();
          assert.equal(third.data.replay, true);
        },
      );
      await t.step("a model fault is a 500 that bills nothing and frees the key", async () => {
        const { data: before } =
          await (await env.app.request("/api/v1/points", { headers: bearer(ws.apiKey) })).json();
        model.failOnCall = model.calls + 1;
        const res = await parse({ name: "Alan Turing" }, { "Idempotency-Key": "fault-1" });
        assert.equal(res.status, 500);
        assert.deepEqual(withoutRequestId(await res.json()), {
          error: { code: "internal_error", message: "Internal error" },
        });
        const { data: after } =
          await (await env.app.request("/api/v1/points", { headers: bearer(ws.apiKey) })).json();
        assert.equal(after.available, before.available);
        const retry = await (await parse({ name: "Alan Turing" }, { "Idempotency-Key": "fault-1" }))
          .json();
        assert.equal(retry.data.charged, true);
      });
    } finally {
      await env.close();
    }
  },
);

Deno.test(
  "a charge that cannot be recorded is 503 incomplete: no answer, nothing billed",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      const ws = await createTestWorkspace(env, 10);
      const original = env.ctx.charge;
      env.ctx.charge = () => Promise.reject(new Error("connection reset"));
      for (const headers of [{}, { "Idempotency-Key": "lost-1" }] as Record<string, string>[]) {
        const res = await env.app.request(
          "/api/v1/name/parse",
          json(ws.apiKey, { name: "Ada Lovelace" }, headers),
        );
        assert.equal(res.status, 503);
        const body = await res.json();
        assert.equal(body.error.code, "incomplete");
        assert.equal(body.data, undefined);
        assert.ok(!JSON.stringify(body).includes("Lovelace"));
      }
      assert.equal(await countCharges(env, ws.workspaceId), 0);
      env.ctx.charge = original;
      const retry = await (await env.app.request(
        "/api/v1/name/parse",
        json(ws.apiKey, { name: "Ada Lovelace" }, { "Idempotency-Key": "lost-1" }),
      )).json();
      assert.equal(
        retry.data.charged,
        true,
        "the retry under the same key is answered and billed once",
      );
      assert.equal(await countCharges(env, ws.workspaceId), 1);
    } finally {
      await env.close();
    }
  },
);

Deno.test(
  "name parse: a name holding a control character is refused, and the document's pattern says so",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      const document = await (await env.app.request("/api/v1/openapi.json")).json();
      const { pattern } = document.components.schemas.ParseNameRequest.properties.name;
      const documented = new RegExp(pattern, "u");
      const ws = await createTestWorkspace(env, 10);
      const parse = async (name: string) => {
        const res = await env.app.request("/api/v1/name/parse", json(ws.apiKey, { name }));
        return { status: res.status, body: await res.json() };
      };
      for (const name of ["Ada Lovelace", "Sam\tTeller", "Nagy László"]) {
        assert.ok(documented.test(name), `the pattern admits ${JSON.stringify(name)}`);
        assert.equal((await parse(name)).status, 200);
      }
      for (const name of ["Ada\u0000Lovelace", "Ada Lovelace\u0007", "\u001b[31mAda Lovelace"]) {
        assert.ok(!documented.test(name), `the pattern refuses ${JSON.stringify(name)}`);
        const refused = await parse(name);
        assert.equal(refused.status, 400);
        assert.equal(refused.body.error.code, "validation_error");
        assert.equal(refused.body.error.message, "name must not contain control characters");
      }
      // A batch refuses such a name as that row's validation_error.
      const batch = await env.app.request(
        "/api/v1/name/parse/batch",
        json(ws.apiKey, { names: ["Ada Lovelace", "Ada\u0007Lovelace"] }, {
          "Idempotency-Key": "control-batch",
        }),
      );
      const answered = await batch.json();
      assert.equal(batch.status, 200, JSON.stringify(answered));
      const rows = answered.data.results;
      assert.equal(rows[1].error.code, "validation_error");
      assert.equal(rows[1].error.message, "name must not contain control characters");
    } finally {
      await env.close();
    }
  },
);
