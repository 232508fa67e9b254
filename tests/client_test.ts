/**
 * The typed client (client/) against the app served on 127.0.0.1: every operation, an
 * Idempotency-Key on every lookup, bounded retries after 429 and 409 `idempotency_in_progress`,
 * typed errors with the API's code, and `leadSearch.iterate` yielding a run's leads until the
 * run is terminal.
 */
import assert from "node:assert/strict";
import { DEFAULT_RATE_LIMITS } from "../domain/config/config.ts";
import { importDemoPeople } from "../domain/directory/import_demo_people.ts";
import { runLeadSearch } from "../domain/lead_search/run_lead_search.ts";
import { ApiError, createContactDataClient, type Lead } from "../client/src/mod.ts";
import { countCharges, createTestWorkspace, DB_TEST, UNLIMITED_RATE_LIMITS } from "./harness.ts";
import { withServedApp } from "./served_app.ts";

/** fetch that remembers each request's method, path and Idempotency-Key. */
function recordingFetch(sent: { method: string; path: string; key: string | null }[]) {
  return (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    sent.push({
      method: request.method,
      path: new URL(request.url).pathname,
      key: request.headers.get("idempotency-key"),
    });
    return fetch(request);
  };
}

/** The ApiError a call is refused with (fails when it is answered). */
async function refusal(call: Promise<unknown>): Promise<ApiError> {
  const error = await call.then(() => null, (e) => e);
  assert.ok(error instanceof ApiError, String(error));
  return error;
}

Deno.test(
  "client: every operation, each lookup with an Idempotency-Key",
  DB_TEST,
  () =>
    withServedApp({}, async (env, base) => {
      const ws = await createTestWorkspace(env, 1000);
      const sent: { method: string; path: string; key: string | null }[] = [];
      const client = createContactDataClient({
        baseUrl: base + "/",
        apiKey: ws.apiKey,
        fetch: recordingFetch(sent),
      });

      const parsed = await client.names.parse({ name: "Ada Lovelace" });
      assert.equal(parsed.surname, "Lovelace");
      const batch = await client.names.parseBatch({ names: ["Grace Hopper", "Madonna"] });
      assert.equal(batch.results.length, 2);
      const found = await client.find({ name: "Ada Lovelace", company: "analytical.example" });
      assert.equal(found.found, true);
      assert.equal(found.email, "ada.lovelace@analytical.example");
      const profiles = await client.networkSearch({ firstName: "Charles", lastName: "Babbage" });
      assert.equal(profiles.matches.length, 1);
      const enriched = await client.enrichEmail({ email: "ada.lovelace@analytical.example" });
      assert.equal(enriched.found, true);
      const verified = await client.verify({ email: "not an address" });
      assert.deepEqual([verified.status, verified.reason, verified.pointsCharged], [
        "invalid",
        "invalid-syntax",
        0,
      ]);
      const searched = await client.domainSearch({ domain: "analytical.example", limit: 1 });
      assert.equal(searched.people.length, 1);
      assert.ok(searched.nextCursor);
      const counted = await client.domainCount("analytical.example");
      assert.ok(counted.people >= 2);
      const started = await client.leadSearch.start({ count: 2 });
      assert.equal(started.run?.status, "queued");
      const run = await client.leadSearch.get(started.run!.id);
      assert.equal(run.page, 1);
      assert.deepEqual(await client.leadSearch.cancel(started.run!.id), { status: "cancelled" });
      const points = await client.getPoints();
      assert.equal(
        points.available,
        parsed.balance!.available - 1 - 10 - 5 - 10 - searched.pointsCharged,
      );
      assert.equal((await client.getHealth()).status, "ok");
      const document = await client.getOpenApiDocument();
      assert.equal(document.openapi, "3.1.0");

      // Every lookup carried a key of its own; the free operations none.
      const lookups = sent.filter((r) => r.method === "POST" && !r.path.endsWith("/cancel"));
      assert.equal(lookups.length, 8);
      assert.ok(lookups.every((r) => r.key && r.key.length >= 16), JSON.stringify(lookups));
      assert.equal(new Set(lookups.map((r) => r.key)).size, 8);
      assert.ok(sent.filter((r) => r.method === "GET").every((r) => r.key === null));

      // A key given is the key sent: the same call again is a free replay.
      const again = await client.names.parse({ name: "Ada Lovelace" }, { idempotencyKey: "k-1" });
      const replay = await client.names.parse({ name: "Ada Lovelace" }, { idempotencyKey: "k-1" });
      assert.equal(again.pointsCharged, 1);
      assert.equal(replay.replay, true);
      assert.equal(replay.pointsCharged, 0);
    }),
);

Deno.test(
  "client: refusals are ApiErrors with the API's code",
  DB_TEST,
  () =>
    withServedApp({}, async (env, base) => {
      const ws = await createTestWorkspace(env, 0);
      const client = createContactDataClient({ baseUrl: base, apiKey: ws.apiKey });
      const blank = await refusal(client.names.parse({ name: "  " }));
      assert.equal(blank.status, 400);
      assert.equal(blank.code, "validation_error");
      assert.equal(blank.message, "name must not be blank");
      assert.match(blank.details.requestId ?? "", /^[0-9a-f-]{36}$/);
      const broke = await refusal(client.names.parse({ name: "Ada Lovelace" }));
      assert.equal(broke.code, "insufficient_credits");
      assert.deepEqual(broke.details.meta, { required: 1, available: 0, shortfall: 1 });
      const missing = await refusal(client.leadSearch.get("run_0a1b2c3d4e5f60718293"));
      assert.equal(missing.code, "not_found");
      const stranger = createContactDataClient({
        baseUrl: base,
        apiKey: "svc_sk_" + "0".repeat(48),
      });
      const unauthenticated = await refusal(stranger.getPoints());
      assert.equal(unauthenticated.status, 401);
      assert.equal(unauthenticated.code, "unauthenticated");
    }),
);

Deno.test(
  "client: 429 is retried after Retry-After, a bounded number of times",
  DB_TEST,
  () =>
    withServedApp({
      config: {
        rateLimits: { ...DEFAULT_RATE_LIMITS, name_parse: { limit: 1, windowSeconds: 60 } },
      },
    }, async (env, base) => {
      const ws = await createTestWorkspace(env, 100);
      const waits: number[] = [];
      // The service's clock is the test's: a 429 moves it past the Retry-After it announced.
      const passTime = (input: RequestInfo | URL, init?: RequestInit) =>
        fetch(input, init).then((response) => {
          if (response.status === 429) {
            const seconds = Number(response.headers.get("retry-after"));
            waits.push(seconds);
            env.clock.advance(seconds * 1000);
          }
          return response;
        });
      const client = createContactDataClient({
        baseUrl: base,
        apiKey: ws.apiKey,
        fetch: passTime,
        maxRetryDelayMs: 5,
      });
      await client.names.parse({ name: "Ada Lovelace" });
      const second = await client.names.parse({ name: "Grace Hopper" });
      assert.equal(second.charged, true);
      assert.equal(waits.length, 1, "one 429, then the retry was answered");
      assert.ok(waits[0] >= 1);
      assert.equal(await countCharges(env, ws.workspaceId), 2);

      // Without retries the 429 is the caller's, with the wait it announced.
      const impatient = createContactDataClient({
        baseUrl: base,
        apiKey: ws.apiKey,
        maxRetries: 0,
      });
      const error = await impatient.names.parse({ name: "Alan Turing" }).catch((e) => e);
      assert.ok(error instanceof ApiError);
      assert.equal(error.code, "rate_limited");
      assert.ok((error.details.retryAfterSeconds ?? 0) >= 1);
      assert.equal(await countCharges(env, ws.workspaceId), 2);
    }),
);

Deno.test(
  "client: 409 idempotency_in_progress is retried with the same key, then given up",
  DB_TEST,
  () =>
    withServedApp({}, async (env, base) => {
      const ws = await createTestWorkspace(env, 100);
      const keys: (string | null)[] = [];
      let busy = 2;
      // The first answers say the key's first request still runs (as a crashed process's lease would).
      const inProgress = (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init);
        keys.push(request.headers.get("idempotency-key"));
        if (busy-- > 0) {
          return Promise.resolve(Response.json(
            { error: { code: "idempotency_in_progress", message: "still running" } },
            { status: 409, headers: { "Retry-After": "1" } },
          ));
        }
        return fetch(request);
      };
      const client = createContactDataClient({
        baseUrl: base,
        apiKey: ws.apiKey,
        fetch: inProgress,
        maxRetryDelayMs: 5,
      });
      const answer = await client.find({ name: "Ada Lovelace", company: "analytical.example" });
      assert.equal(answer.found, true);
      assert.equal(keys.length, 3);
      assert.equal(new Set(keys).size, 1, "every attempt under the one key");

      busy = 10;
      const bounded = createContactDataClient({
        baseUrl: base,
        apiKey: ws.apiKey,
        fetch: inProgress,
        maxRetries: 2,
        maxRetryDelayMs: 5,
      });
      const error = await bounded.find({ name: "Ada Lovelace", company: "analytical.example" })
        .catch((e) => e);
      assert.ok(error instanceof ApiError);
      assert.equal(error.code, "idempotency_in_progress");
      assert.equal(keys.length, 3 + 3, "the first try and two retries");
      assert.equal(await countCharges(env, ws.workspaceId), 1);
    }),
);

Deno.test(
  "client: leadSearch.iterate yields every lead, page by page, until the run ends",
  DB_TEST,
  () =>
    // Polls every 5 ms: more than the default `account` budget allows (and the test's clock
    // stands still, so a spent budget would not come back).
    withServedApp({ config: { rateLimits: UNLIMITED_RATE_LIMITS } }, async (env, base) => {
      await importDemoPeople(env, { people: 80, now: env.clock.now() });
      const ws = await createTestWorkspace(env, 1000);
      const client = createContactDataClient({ baseUrl: base, apiKey: ws.apiKey });
      const started = await client.leadSearch.start({ count: 60 });
      const runId = started.run!.id;

      // The runner delivers a page at a time while the client polls.
      let running = true;
      const runner = (async () => {
        while (running) {
          // One page, keeping its lease; the test's clock then lets the lease lapse.
          const outcome = await runLeadSearch(env.ctx, { maxPages: 1 });
          if (outcome.kind === "paused") env.clock.advance(60_000);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      const batches: Lead[][] = [];
      try {
        for await (const leads of client.leadSearch.iterate(runId, { pollIntervalMs: 5 })) {
          batches.push(leads);
        }
      } finally {
        running = false;
        await runner;
      }
      const positions = batches.flat().map((lead) => lead.position);
      assert.deepEqual(positions, Array.from({ length: 60 }, (_, i) => i + 1));
      assert.ok(batches.length >= 3, `${batches.length} batches`);
      assert.ok(batches.every((b) => b.length <= 25));
      const run = await client.leadSearch.get(runId);
      assert.equal(run.status, "completed");
      assert.equal(run.deliveredCount, 60);
    }),
);

Deno.test(
  "client: bulk jobs, webhooks and the ledger",
  DB_TEST,
  () =>
    withServedApp({}, async (env, base) => {
      const ws = await createTestWorkspace(env, 1000);
      const sent: { method: string; path: string; key: string | null }[] = [];
      const client = createContactDataClient({
        baseUrl: base,
        apiKey: ws.apiKey,
        fetch: recordingFetch(sent),
      });
      const request = {
        operation: "find" as const,
        rows: [{ name: "Ada Lovelace", company: "analytical.example" }, { company: "x.example" }],
      };
      const quote = await client.bulk.quote(request);
      assert.equal(quote.dryRun, true);
      assert.equal(quote.quote.rows, 1);
      assert.deepEqual(quote.invalidRows.map((row) => row.line), [2]);
      assert.equal((await client.getPoints()).reserved, 0, "a quote reserves nothing");

      const started = await client.bulk.start(request);
      const job = started.job!;
      assert.equal(job.status, "queued");
      assert.ok(sent.at(-1)?.key, "a job is started under an Idempotency-Key");
      const again = await client.bulk.start(request, { idempotencyKey: sent.at(-1)!.key! });
      assert.equal(again.job!.id, job.id, "the same key answers the same job");
      assert.equal((await client.bulk.get(job.id))!.counts.rows, 1);
      // The row is listed, not yet answered (no runner in this test).
      const rows = await client.bulk.results(job.id);
      assert.equal(rows.length, 1);
      assert.equal(rows[0].answer, null);
      assert.deepEqual(await client.bulk.cancel(job.id), { status: "cancelled" });
      const ledger = await client.getLedger();
      const line = ledger.lines.find((l) => l.link?.id === job.id);
      assert.ok(line, JSON.stringify(ledger.lines));
      assert.equal(line.net, 0, "cancelled before any row: nothing spent");

      assert.deepEqual(await client.webhooks.list(), []);
      // An IP literal: refused as a private address, with no DNS asked.
      const refused = await refusal(client.webhooks.create({
        url: "https://127.0.0.1/hook",
        events: ["bulk.job.completed"],
      }));
      assert.equal(refused.code, "validation_error");
      const unknown = await refusal(client.webhooks.delete("whe_0a1b2c3d4e5f60718293"));
      assert.equal(unknown.code, "not_found");
    }),
);
