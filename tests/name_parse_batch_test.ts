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

const post = (apiKey: string, body: unknown, key?: string) => ({
  method: "POST",
  headers: bearer(apiKey, {
    "Content-Type": "application/json",
    ...(key === undefined ? {} : { "Idempotency-Key": key }),
  }),
  body: typeof body === "string" ? body : JSON.stringify(body),
});

/** Answered, blank, over-long, unsplittable, blank, answered. */
const MIXED_BATCH = ["Ada Lovelace", "", "x".repeat(257), "Andrew", "  ", "Grace Brewster Hopper"];

const people = (n: number, tag = "") =>
  Array.from({ length: n }, (_, i) => `Person${tag}${i} Family${tag}${i}`);

Deno.test("POST /api/v1/name/parse/batch: rules 1 to 7 of §4.2", DB_TEST, async (t) => {
  const model = new FakeNameModel();
  const env = await createTestEnv({
    nameModel: model,
    config: {
      rateLimits: { ...DEFAULT_RATE_LIMITS, name_parse_batch: { limit: 60, windowSeconds: 60 } },
    },
  });
  try {
    const ws = await createTestWorkspace(env, 100);
    const batch = (body: unknown, key?: string) =>
      env.app.request("/api/v1/name/parse/batch", post(ws.apiKey, body, key));

    await t.step(
      "one result per name in order; row errors for blank, long and unsplittable rows (rules 1, 2)",
      async () => {
        const names = MIXED_BATCH;
        const res = await batch({ names }, "b-1");
        assert.equal(res.status, 200);
        const { data } = await res.json();
        assert.equal(data.results.length, names.length);
        assert.deepEqual(data.results[0].data.given, "Ada");
        assert.equal(data.results[0].data.charged, true);
        assert.equal(data.results[0].data.balance, undefined, "rows carry no balance");
        assert.deepEqual(data.results[1], {
          error: { code: "validation_error", message: "name must not be blank" },
        });
        assert.deepEqual(data.results[2], {
          error: { code: "validation_error", message: "name must be at most 256 characters" },
        });
        assert.equal(data.results[3].error.code, "invalid_input");
        assert.match(
          data.results[3].error.message,
          /cannot be split into a given name and a surname/,
        );
        assert.equal(data.results[4].error.code, "validation_error");
        assert.deepEqual([data.results[5].data.given, data.results[5].data.surname], [
          "Grace Brewster",
          "Hopper",
        ]);
        assert.equal(data.pointsCharged, 2);
        assert.equal(data.replay, false);
        assert.deepEqual(data.balance, { available: 98, reserved: 0, granted: 100 });
        assert.equal(await countCharges(env, ws.workspaceId), 2);
      },
    );

    await t.step(
      "the same batch with the same key replays every answered row free (rule 4)",
      async () => {
        const names = MIXED_BATCH;
        const { data } = await (await batch({ names }, "b-1")).json();
        assert.equal(data.replay, true);
        assert.equal(data.pointsCharged, 0);
        assert.equal(data.results[0].data.replay, true);
        assert.equal(data.results[0].data.charged, false);
        assert.equal(data.results[0].data.pointsCharged, 0);
        assert.equal(data.results[3].error.code, "invalid_input");
        assert.equal(data.balance.available, 98);
        assert.equal(await countCharges(env, ws.workspaceId), 2);
      },
    );

    await t.step("whole-request validation errors with the exact messages (rule 3)", async () => {
      const cases: [unknown, string | undefined, string][] = [
        [{}, "v-1", "names is required"],
        [{ names: null }, "v-1", "names is required"],
        // Not an array: the spec fixes no message for it, so it says what names must be.
        [{ names: "Ada Lovelace" }, "v-1", "names must be an array of 1 to 100 strings"],
        [{ names: { 0: "x" } }, "v-1", "names must be an array of 1 to 100 strings"],
        [{ names: 7 }, "v-1", "names must be an array of 1 to 100 strings"],
        [{ names: [] }, "v-1", "names must contain at least one name"],
        [{ names: people(101) }, "v-1", "names must contain at most 100 names"],
        [{ names: ["Ada Lovelace", 7] }, "v-1", "names must be strings"],
        [{ names: ["Ada Lovelace", null] }, "v-1", "names must be strings"],
        [
          { names: ["Ada Lovelace"], spelling: "loud" },
          "v-1",
          "spelling must be as-written or folded",
        ],
        [{ names: ["Ada Lovelace"] }, undefined, "Idempotency-Key is required for a batch"],
      ];
      for (const [body, key, message] of cases) {
        const res = await batch(body, key);
        assert.equal(res.status, 400, message);
        assert.deepEqual(withoutRequestId(await res.json()), {
          error: { code: "validation_error", message },
        });
      }
      for (const key of ["", "k".repeat(256), "naïve-ключ".slice(0, 5)]) {
        const res = await batch({ names: ["Ada Lovelace"] }, key);
        assert.equal(res.status, 400);
        assert.equal((await res.json()).error.code, "validation_error");
      }
      await grantPoints(env, { workspaceId: ws.workspaceId, points: 100 });
      assert.equal((await batch({ names: people(100) }, "v-100")).status, 200);
      assert.equal(await countCharges(env, ws.workspaceId), 102);
    });

    await t.step(
      "any change to names or spelling under a used key is refused whole, 409 (rule 5)",
      async () => {
        for (
          const body of [
            { names: ["Ada Lovelace", "", "x".repeat(257), "Andrew", "  "] },
            {
              names: ["Ada Lovelace", "", "x".repeat(257), "Andrew", "  ", "Grace Brewster Hopper"],
              spelling: "folded",
            },
          ]
        ) {
          const res = await batch(body, "b-1");
          assert.equal(res.status, 409);
          assert.equal((await res.json()).error.code, "idempotency_conflict");
        }
      },
    );

    await t.step(
      "402 before any row runs, with meta arithmetic; unsplittable rows count (rule 5)",
      async () => {
        await env.db.sql`UPDATE balances SET available = 3 WHERE workspace_id = ${ws.workspaceId}`;
        const n = await countCharges(env, ws.workspaceId);
        const res = await batch({
          names: ["Ada Lovelace", "Andrew", "Bo Diddley", "", "Cy Young", "Di Fong"],
        }, "p-1");
        assert.equal(res.status, 402);
        assert.deepEqual(withoutRequestId(await res.json()), {
          error: {
            code: "insufficient_credits",
            message: "Insufficient credits",
            meta: { required: 5, available: 3, shortfall: 2 },
          },
        });
        assert.equal(await countCharges(env, ws.workspaceId), n, "nothing ran");
        await grantPoints(env, { workspaceId: ws.workspaceId, points: 2 });
        const ok = await (await batch({
          names: ["Ada Lovelace", "Andrew", "Bo Diddley", "", "Cy Young", "Di Fong"],
        }, "p-1")).json();
        assert.equal(ok.data.pointsCharged, 4);
        assert.equal(ok.data.balance.available, 1);
        await grantPoints(env, { workspaceId: ws.workspaceId, points: 500 });
      },
    );

    await t.step("a batch counts once against its own budget (rule 6)", async () => {
      const keys = await env.kv.list({
        prefix: ["rate_limit", "name_parse_batch", ws.workspaceId],
      });
      let used = 0;
      for await (const entry of keys) used += entry.value as number;
      const before = used;
      await batch({ names: people(50, "r") }, "r-1");
      used = 0;
      for await (
        const entry of env.kv.list({ prefix: ["rate_limit", "name_parse_batch", ws.workspaceId] })
      ) {
        used += entry.value as number;
      }
      assert.equal(used, before + 1);
      const single = [];
      for await (
        const entry of env.kv.list({ prefix: ["rate_limit", "name_parse", ws.workspaceId] })
      ) single.push(entry);
      assert.equal(single.length, 0, "the single-parse budget is untouched");
    });

    await t.step(
      "500 mid-batch: answered rows keep their charge and replay free; the rest are answered on retry (rule 7)",
      async () => {
        const names = people(50, "m");
        const n = await countCharges(env, ws.workspaceId);
        model.failOnCall = model.calls + 2; // the second chunk of rows fails
        const failed = await batch({ names }, "m-1");
        assert.equal(failed.status, 500);
        assert.deepEqual(withoutRequestId(await failed.json()), {
          error: { code: "internal_error", message: "Internal error" },
        });
        assert.equal(
          await countCharges(env, ws.workspaceId),
          n + 20,
          "the first chunk stayed charged",
        );

        const retry = await (await batch({ names }, "m-1")).json();
        assert.equal(retry.data.results.length, 50);
        assert.equal(
          retry.data.results.filter((r: { data: { replay: boolean } }) => r.data.replay).length,
          20,
        );
        assert.ok(
          retry.data.results.slice(0, 20).every((r: { data: { replay: boolean } }) =>
            r.data.replay
          ),
        );
        assert.ok(
          retry.data.results.slice(20).every((r: { data: { charged: boolean } }) => r.data.charged),
        );
        assert.equal(retry.data.pointsCharged, 30);
        assert.equal(retry.data.replay, false);
        assert.equal(await countCharges(env, ws.workspaceId), n + 50);

        const third = await (await batch({ names }, "m-1")).json();
        assert.equal(third.data.replay, true);
        assert.equal(third.data.pointsCharged, 0);
        assert.equal(await countCharges(env, ws.workspaceId), n + 50);
      },
    );

    await t.step("402 after a partial batch counts only rows that are not replays", async () => {
      const names = people(30, "q");
      model.failOnCall = model.calls + 2;
      assert.equal((await batch({ names }, "q-1")).status, 500);
      const { data: points } =
        await (await env.app.request("/api/v1/points", { headers: bearer(ws.apiKey) })).json();
      await env.db.sql`UPDATE balances SET available = 4 WHERE workspace_id = ${ws.workspaceId}`;
      const res = await batch({ names }, "q-1");
      assert.equal(res.status, 402);
      assert.deepEqual((await res.json()).error.meta, { required: 10, available: 4, shortfall: 6 });
      await env.db
        .sql`UPDATE balances SET available = ${points.available} WHERE workspace_id = ${ws.workspaceId}`;
      const ok = await (await batch({ names }, "q-1")).json();
      assert.equal(ok.data.pointsCharged, 10);
    });

    await t.step(
      "a finished batch's record is done, whether its last chunk was charged or only refused",
      async () => {
        const stateOf = async (key: string) =>
          (await env.db.sql<{ state: string }[]>`
            SELECT state FROM idempotency_records
             WHERE workspace_id = ${ws.workspaceId} AND idem_key = ${key}`)[0]?.state;
        // rows 20-24 are charged with the record marked done in the same transaction
        const charged = people(25, "d");
        assert.equal((await batch({ names: charged }, "d-1")).status, 200);
        assert.equal(await stateOf("d-1"), "done");
        // the last chunk holds one unsplittable row: nothing to charge there, done after it
        const refusedLast = [...people(20, "e"), "Andrew"];
        const { data } = await (await batch({ names: refusedLast }, "e-1")).json();
        assert.equal(data.results[20].error.code, "invalid_input");
        assert.equal(await stateOf("e-1"), "done");
        for (const [names, key] of [[charged, "d-1"], [refusedLast, "e-1"]] as const) {
          const again = (await (await batch({ names }, key)).json()).data;
          assert.equal(again.replay, true);
          assert.equal(again.pointsCharged, 0);
        }
      },
    );

    await t.step(
      "concurrent retries of one batch key: one runs, the others are 409 in progress; charged once",
      async () => {
        const names = people(40, "c");
        const n = await countCharges(env, ws.workspaceId);
        let open!: () => void;
        model.gate = new Promise((resolve) => open = resolve);
        const first = batch({ names }, "c-1");
        await new Promise((r) => setTimeout(r, 50));
        const others = await Promise.all([1, 2, 3].map(() => batch({ names }, "c-1")));
        for (const res of others) {
          assert.equal(res.status, 409);
          assert.equal((await res.json()).error.code, "idempotency_in_progress");
        }
        model.gate = null;
        open();
        const done = await (await first).json();
        assert.equal(done.data.pointsCharged, 40);
        const replays = await Promise.all(
          [1, 2, 3].map(async () => (await (await batch({ names }, "c-1")).json()).data),
        );
        assert.ok(replays.every((d) => d.replay && d.pointsCharged === 0));
        assert.equal(await countCharges(env, ws.workspaceId), n + 40);
      },
    );
  } finally {
    await env.close();
  }
});

Deno.test(
  "batch: a charge that cannot be recorded answers the row `incomplete`, unbilled",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      const ws = await createTestWorkspace(env, 100);
      const original = env.ctx.charge;
      // The batch's chunks are charged in one call; that call fails.
      let calls = 0;
      env.ctx.charge = (requests) =>
        ++calls === 1 ? Promise.reject(new Error("connection lost")) : original(requests);
      const names = people(45, "i");
      const res = await env.app.request(
        "/api/v1/name/parse/batch",
        post(ws.apiKey, { names }, "i-1"),
      );
      assert.equal(res.status, 200);
      const { data } = await res.json();
      assert.ok(
        data.results.every((r: { error?: { code: string } }) => r.error?.code === "incomplete"),
      );
      assert.equal(data.pointsCharged, 0);
      assert.equal(await countCharges(env, ws.workspaceId), 0);
      env.ctx.charge = original;
      const retry =
        await (await env.app.request("/api/v1/name/parse/batch", post(ws.apiKey, { names }, "i-1")))
          .json();
      assert.equal(retry.data.pointsCharged, 45);
      assert.ok(retry.data.results.every((r: { data?: unknown }) => r.data));
      assert.equal(await countCharges(env, ws.workspaceId), 45);
    } finally {
      await env.close();
    }
  },
);

Deno.test(
  "batch: a chunk the balance could not pay leaves the record open; the retry charges only it",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      const ws = await createTestWorkspace(env, 100);
      const original = env.ctx.charge;
      // The first chunk finds the balance short (as when another request spent it meanwhile);
      // the chunks after it are charged.
      env.ctx.charge = async (requests) => {
        const rest = await original(requests.slice(1));
        return [{ outcome: "insufficient", balance: rest[0].balance }, ...rest];
      };
      const names = people(45, "s");
      const first = await (await env.app.request(
        "/api/v1/name/parse/batch",
        post(ws.apiKey, { names }, "s-1"),
      )).json();
      assert.equal(first.data.pointsCharged, 25);
      assert.ok(first.data.results.slice(0, 20).every((r: { error?: unknown }) => r.error));
      assert.ok(first.data.results.slice(20).every((r: { data?: unknown }) => r.data));
      env.ctx.charge = original;
      const retry = await (await env.app.request(
        "/api/v1/name/parse/batch",
        post(ws.apiKey, { names }, "s-1"),
      )).json();
      assert.equal(retry.data.pointsCharged, 20);
      assert.ok(retry.data.results.every((r: { data?: unknown }) => r.data));
      assert.equal(await countCharges(env, ws.workspaceId), 45);
    } finally {
      await env.close();
    }
  },
);
