/**
 * Settings → Webhooks (`/app/settings/webhooks`) through `app.request`: an endpoint registered
 * from the form shows its secret once (never on the next page), a URL the service may not post to
 * is refused with the form kept, a job that ends is delivered to a receiver on 127.0.0.1 and shows
 * in the delivery log, "send again" queues it once more, and delete stops it.
 */
import assert from "node:assert/strict";
import { deliverDueWebhooks } from "../domain/webhooks/deliver_webhooks.ts";
import { bearer, createTestEnv, createTestWorkspace, DB_TEST } from "./harness.ts";
import { signedInMember } from "./web_client.ts";

Deno.test(
  "web webhooks: register, the secret once, the log, send again, delete",
  DB_TEST,
  async (t) => {
    const env = await createTestEnv({ webhooks: { allowPrivateAddresses: true, timeoutMs: 2000 } });
    const received: string[] = [];
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
      received.push(req.headers.get("webhook-id") ?? "");
      await req.body?.cancel();
      return new Response(null, { status: 204 });
    });
    const url = `http://127.0.0.1:${server.addr.port}/hooks`;
    try {
      const ws = await createTestWorkspace(env, 1000);
      const client = await signedInMember(env, ws.workspaceId);

      await t.step("empty: the form with both events ticked", async () => {
        const page = await client.get("/app/settings/webhooks");
        assert.equal(page.status, 200);
        assert.match(page.text, /aria-current="page">Webhooks/);
        assert.match(page.text, /name="events" value="lead_search.run.completed" checked/);
        assert.match(page.text, /name="events" value="bulk.job.completed" checked/);
        assert.match(page.text, /No endpoints yet/);
        assert.match(page.text, /Nothing sent yet/);
      });

      await t.step("refusals: a scheme, no event", async () => {
        const ftp = await client.post("/app/settings/webhooks", {
          url: "ftp://127.0.0.1/x",
          events: ["bulk.job.completed"],
        });
        assert.equal(ftp.status, 400);
        assert.match(ftp.text, /The URL must be an https URL\./);
        assert.match(ftp.text, /value="ftp:\/\/127.0.0.1\/x"/);
        const none = await client.post("/app/settings/webhooks", { url });
        assert.equal(none.status, 400);
        assert.match(none.text, /Events must name at least one event/);
      });

      let secret = "";
      await t.step("register: the secret on the answer, never again", async () => {
        const added = await client.post("/app/settings/webhooks", {
          url,
          events: ["bulk.job.completed"],
        });
        assert.equal(added.status, 200);
        secret = /value="(whsec_[^"]+)"/.exec(added.text)?.[1] ?? "";
        assert.match(secret, /^whsec_/);
        assert.match(added.text, /it will not be shown again/);
        assert.match(added.text, /<td class="card-title mono hooks-url">http:\/\/127.0.0.1:/);
        const later = await client.get("/app/settings/webhooks");
        assert.ok(!later.text.includes(secret), "the secret is not shown again");
        assert.match(later.text, /<span class="badge ok">Active<\/span>/);
      });

      await t.step("a job ends: the delivery log, then send again", async () => {
        const job = await (await env.app.request("/api/v1/bulk/jobs", {
          method: "POST",
          headers: bearer(ws.apiKey, {
            "content-type": "application/json",
            "idempotency-key": "h",
          }),
          body: JSON.stringify({ operation: "enrich", rows: [{ email: "a@acme.test" }] }),
        })).json();
        const jobId = job.data.job.id;
        await client.get(`/app/bulk/jobs/${jobId}`);
        await client.post(`/app/bulk/jobs/${jobId}/cancel`, {});
        const pending = await client.get("/app/settings/webhooks");
        assert.match(pending.text, /data-status="pending"/);
        assert.match(pending.text, new RegExp(`<a class="mono" href="/app/bulk/jobs/${jobId}">`));
        assert.doesNotMatch(pending.text, /Send again/, "not while it is being tried");

        assert.equal(await deliverDueWebhooks(env.ctx), 1);
        assert.equal(received.length, 1);
        const delivered = await client.get("/app/settings/webhooks");
        assert.match(delivered.text, /data-status="delivered"/);
        assert.match(delivered.text, /HTTP 204/);
        const action = /action="(\/app\/settings\/webhooks\/deliveries\/[^"]+\/send-again)"/
          .exec(delivered.text)?.[1];
        assert.ok(action, "a send-again button");
        const again = await client.post(action, {});
        assert.equal(again.status, 303);
        assert.equal(again.location, "/app/settings/webhooks?done=resent");
        assert.match((await client.get(again.location!)).text, /Queued to be sent again/);
        assert.equal(await deliverDueWebhooks(env.ctx), 1);
        assert.deepEqual(received, [received[0], received[0]], "under the same webhook-id");
        // A delivery still pending (sent again twice at once) is refused in words.
        await client.post(action, {});
        const twice = await client.post(action, {});
        assert.equal(twice.status, 409);
        assert.match(twice.text, /cannot be sent again/);
      });

      await t.step("delete: gone from the list, no more send again", async () => {
        const page = await client.get("/app/settings/webhooks");
        const action = /action="(\/app\/settings\/webhooks\/whe_[^"]+\/delete)"/.exec(page.text)
          ?.[1];
        assert.ok(action);
        assert.match(page.text, /data-confirm="Delete this endpoint\?/);
        const deleted = await client.post(action, {});
        assert.equal(deleted.status, 303);
        const after = await client.get(deleted.location!);
        assert.match(after.text, /Endpoint deleted/);
        assert.match(after.text, /No endpoints yet/);
        assert.doesNotMatch(after.text, /Send again/);
        assert.equal((await client.post(action, {})).status, 404);
      });
    } finally {
      await server.shutdown();
      await env.close();
    }
  },
);
