/**
 * Webhooks end to end in process: an endpoint registered over the API (its secret shown once), a
 * bulk job and a lead-search run that end, and a receiver on 127.0.0.1 that verifies every
 * delivery with the `standardwebhooks` package and answers 500, then nothing (a timeout), then
 * 200. Each event is accepted exactly once, after the 500 and the timeout were retried on the
 * schedule (the fake clock is moved past each wait), and never sent again after its 2xx. Also:
 * 410 disables the endpoint, private addresses are refused without the test switch, the
 * delivery log and "send again".
 */
import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { deliverDueWebhooks } from "../domain/webhooks/deliver_webhooks.ts";
import { listWebhookDeliveries } from "../domain/webhooks/list_webhook_deliveries.ts";
import { redeliverWebhook } from "../domain/webhooks/redeliver_webhook.ts";
import { bearer, createTestEnv, createTestWorkspace, DB_TEST } from "./harness.ts";

interface Received {
  id: string;
  body: { type: string; data: { id: string; status: string } };
}

/** A receiver answering from a script (500, "hang", 200 …) then 200; verifying each delivery. */
function startReceiver(script: (number | "hang")[]) {
  let secret = "";
  const accepted: Received[] = [];
  const attempts: string[] = [];
  const hanging: (() => void)[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.text();
    const headers = Object.fromEntries(req.headers);
    // Throws on a bad signature or a stale timestamp.
    const payload = new Webhook(secret).verify(body, headers) as Received["body"];
    attempts.push(headers["webhook-id"]);
    const next = script.shift() ?? 200;
    if (next === "hang") {
      await new Promise<void>((resolve) => hanging.push(resolve));
      return new Response("late", { status: 200 });
    }
    if (next >= 200 && next < 300) accepted.push({ id: headers["webhook-id"], body: payload });
    return new Response(null, { status: next });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/hooks`,
    setSecret: (value: string) => (secret = value),
    accepted,
    attempts,
    close: async () => {
      hanging.forEach((resolve) => resolve());
      await server.shutdown();
    },
  };
}

Deno.test(
  "webhooks: signed, retried after a 500 and a timeout, accepted once",
  DB_TEST,
  async (t) => {
    const env = await createTestEnv({ webhooks: { allowPrivateAddresses: true, timeoutMs: 300 } });
    const receiver = startReceiver([500, "hang"]);
    try {
      const ws = await createTestWorkspace(env, 1000);
      const api = (path: string, init: { method?: string; body?: unknown; key?: string } = {}) =>
        env.app.request(path, {
          method: init.method ?? "GET",
          headers: bearer(ws.apiKey, {
            "content-type": "application/json",
            ...(init.key ? { "idempotency-key": init.key } : {}),
          }),
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
        });

      await t.step("register: the secret once, never listed", async () => {
        const response = await api("/api/v1/webhooks", {
          method: "POST",
          body: { url: receiver.url, events: ["bulk.job.completed", "lead_search.run.completed"] },
        });
        assert.equal(response.status, 200);
        const { data } = await response.json();
        assert.match(data.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
        receiver.setSecret(data.secret);
        const listed = await (await api("/api/v1/webhooks")).json();
        assert.equal(listed.data.length, 1);
        assert.equal("secret" in listed.data[0], false);
        const bad = await api("/api/v1/webhooks", {
          method: "POST",
          body: { url: receiver.url, events: ["nope"] },
        });
        assert.equal(bad.status, 400);
      });

      let jobId = "";
      let runId = "";
      await t.step("a job and a run end: one delivery each, queued with the end", async () => {
        const job = await (await api("/api/v1/bulk/jobs", {
          method: "POST",
          key: "hook-job",
          body: { operation: "enrich", rows: [{ email: "a@acme.test" }] },
        })).json();
        jobId = job.data.job.id;
        await api(`/api/v1/bulk/jobs/${jobId}/cancel`, { method: "POST" });
        const run = await (await api("/api/v1/lead-search", {
          method: "POST",
          key: "hook-run",
          body: { filters: {}, count: 5 },
        })).json();
        runId = run.data.run.id;
        await api(`/api/v1/lead-search/runs/${runId}/cancel`, { method: "POST" });
        const log = await listWebhookDeliveries(env.ctx, {
          workspaceId: ws.workspaceId,
          limit: 10,
        });
        assert.deepEqual(log.map((d) => [d.eventType, d.status]).sort(), [
          ["bulk.job.completed", "pending"],
          ["lead_search.run.completed", "pending"],
        ]);
      });

      await t.step("500, then a timeout, then 2xx: retried on the schedule", async () => {
        assert.equal(await deliverDueWebhooks(env.ctx), 2); // one 500, one hang → timeout
        assert.equal(receiver.accepted.length, 0);
        assert.equal(await deliverDueWebhooks(env.ctx), 0, "nothing due before the first wait");
        env.clock.advance(5_000);
        assert.equal(await deliverDueWebhooks(env.ctx), 2);
        assert.equal(receiver.accepted.length, 2);
        const log = await listWebhookDeliveries(env.ctx, {
          workspaceId: ws.workspaceId,
          limit: 10,
        });
        assert.deepEqual(log.map((d) => [d.status, d.attempts]), [["delivered", 2], [
          "delivered",
          2,
        ]]);
        const failures = log.map((d) => d.id).map((id) =>
          receiver.attempts.filter((a) => a === id).length
        );
        assert.deepEqual(failures, [2, 2]);
      });

      await t.step("send again: the same webhook-id, once more", async () => {
        const [latest] = await listWebhookDeliveries(env.ctx, {
          workspaceId: ws.workspaceId,
          limit: 1,
        });
        await redeliverWebhook(env.ctx, { workspaceId: ws.workspaceId, deliveryId: latest.id });
        assert.equal(await deliverDueWebhooks(env.ctx), 1);
        assert.equal(receiver.accepted.at(-1)!.id, latest.id);
      });
      await t.step("never again after a 2xx", async () => {
        env.clock.advance(4 * 86_400_000);
        assert.equal(await deliverDueWebhooks(env.ctx), 0);
        // (the one sent again came under its earlier webhook-id: receivers dedupe on it)
        assert.equal(receiver.accepted.length, 3);
        const unique = [...new Map(receiver.accepted.map((r) => [r.id, r])).values()];
        assert.deepEqual(
          unique.map((r) => [r.body.type, r.body.data.id, r.body.data.status]).sort(),
          [
            ["bulk.job.completed", jobId, "cancelled"],
            ["lead_search.run.completed", runId, "cancelled"],
          ],
        );
      });
    } finally {
      await receiver.close();
      await env.close();
    }
  },
);

Deno.test("webhooks: 410 disables the endpoint; private addresses refused", DB_TEST, async () => {
  const strict = await createTestEnv();
  try {
    const ws = await createTestWorkspace(strict, 100);
    const response = await strict.app.request("/api/v1/webhooks", {
      method: "POST",
      headers: bearer(ws.apiKey, { "content-type": "application/json" }),
      body: JSON.stringify({ url: "https://127.0.0.1/hooks", events: ["bulk.job.completed"] }),
    });
    assert.equal(response.status, 400);
    assert.match((await response.json()).error.message, /global addresses/);
  } finally {
    await strict.close();
  }
  const env = await createTestEnv({ webhooks: { allowPrivateAddresses: true, timeoutMs: 300 } });
  const receiver = startReceiver([410]);
  try {
    const ws = await createTestWorkspace(env, 100);
    const { data } = await (await env.app.request("/api/v1/webhooks", {
      method: "POST",
      headers: bearer(ws.apiKey, { "content-type": "application/json" }),
      body: JSON.stringify({ url: receiver.url, events: ["lead_search.run.completed"] }),
    })).json();
    receiver.setSecret(data.secret);
    for (const key of ["a", "b"]) {
      const run = await (await env.app.request("/api/v1/lead-search", {
        method: "POST",
        headers: bearer(ws.apiKey, { "content-type": "application/json", "idempotency-key": key }),
        body: JSON.stringify({ filters: {}, count: 1 }),
      })).json();
      await env.app.request(`/api/v1/lead-search/runs/${run.data.run.id}/cancel`, {
        method: "POST",
        headers: bearer(ws.apiKey),
      });
    }
    assert.equal(await deliverDueWebhooks(env.ctx, { limit: 1 }), 1);
    const [endpoint] = (await (await env.app.request("/api/v1/webhooks", {
      headers: bearer(ws.apiKey),
    })).json()).data;
    assert.notEqual(endpoint.disabledAt, null);
    env.clock.advance(86_400_000);
    assert.equal(await deliverDueWebhooks(env.ctx), 0, "the other delivery ended with it");
    assert.equal(receiver.attempts.length, 1);
  } finally {
    await receiver.close();
    await env.close();
  }
});
