/**
 * Bulk jobs and greylisting, against fake DNS + SMTP whose greylisting is postgrey's (a new
 * sender–recipient pair deferred for 4 s, real time): rows that meet it wait, unanswered and
 * uncharged, while the job answers its other rows; the job is let go until their time; asked again
 * after it they are answered as their mailboxes are and billed once. A row still greylisted past
 * `BULK_GREYLIST_MAX_WAIT_SECONDS` is answered `verification-unavailable`, free.
 */
import assert from "node:assert/strict";
import { runBulkJob } from "../domain/bulk/run_bulk_job.ts";
import { bearer, createTestWorkspace, DB_TEST } from "./harness.ts";
import { PRICE_EMAIL, startWorld } from "./find_world.ts";
import { signedInMember } from "./web_client.ts";

const GREY = {
  dns: {
    "slowgrey.test": { mx: [{ preference: 10, exchange: "mx4.example.test" }] },
    "mx4.example.test": { a: ["127.0.0.4"] },
  },
  mailHosts: {
    "127.0.0.4": {
      mailboxes: {
        "grace.hopper@slowgrey.test": { greylistMs: 4000 },
        "alan.turing@slowgrey.test": { greylistMs: 4000 },
      },
      otherRecipients: { greylistMs: 4000, then: "reject" as const },
    },
  },
  env: { VERIFY_GREYLIST_DELAY_SECONDS: "5" },
};

const ROWS = [
  { name: "Grace Hopper", company: "slowgrey.test" },
  { name: "Alan Turing", company: "slowgrey.test" },
  { name: "Nobody Here", company: "slowgrey.test" },
  { name: "Grace Hopper", company: "acme.test" },
];

Deno.test("bulk: greylisted rows wait, then are answered and billed once", DB_TEST, async () => {
  const world = await startWorld(GREY);
  const { env } = world;
  try {
    const ws = await createTestWorkspace(env, 1000);
    const created = await env.app.request("/api/v1/bulk/jobs", {
      method: "POST",
      headers: bearer(ws.apiKey, {
        "idempotency-key": "grey-job",
        "content-type": "application/json",
      }),
      body: JSON.stringify({ operation: "find", rows: ROWS }),
    });
    assert.equal(created.status, 200);
    const jobId = (await created.json()).data.job.id;
    const read = async () =>
      (await (await env.app.request(`/api/v1/bulk/jobs/${jobId}`, {
        headers: bearer(ws.apiKey),
      })).json()).data;
    const spent = async () =>
      (await env.db.sql<{ n: number }[]>`
        SELECT coalesce(sum(amount), 0)::int AS n FROM ledger_entries
         WHERE workspace_id = ${ws.workspaceId} AND kind = 'settle'`)[0].n;

    const first = await runBulkJob(env.ctx, { jobId });
    assert.equal(first.kind, "waiting");
    let job = await read();
    assert.equal(job.status, "processing");
    assert.equal(job.counts.done, 1, "the row at acme.test answered meanwhile");
    assert.equal(job.counts.waiting, 3);
    assert.equal(job.counts.charged, PRICE_EMAIL);
    assert.equal(await spent(), PRICE_EMAIL, "nothing charged for the waiting rows");
    // Let go until the rows' time: no runner claims it before.
    assert.deepEqual(await runBulkJob(env.ctx, { jobId }), { kind: "idle" });
    // The app's job page and its progress fragment say so.
    const member = await signedInMember(env, ws.workspaceId);
    const page = await member.get(`/app/bulk/jobs/${jobId}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /<dt>Waiting on greylisting<\/dt><dd>3<\/dd>/);
    const progress = await member.get(`/app/bulk/jobs/${jobId}/progress`);
    assert.match(progress.text, /<strong data-waiting="true">3<\/strong> waiting on greylisting/);

    await new Promise((resolve) => setTimeout(resolve, 4100));
    env.clock.advance(5_000);
    const second = await runBulkJob(env.ctx, { jobId });
    assert.deepEqual(second, { kind: "finished", jobId, status: "completed" });
    job = await read();
    assert.equal(job.counts.done, 4);
    assert.equal(job.counts.waiting, 0);
    assert.equal(job.counts.found, 3);
    assert.deepEqual(job.counts.refused, { "not-found": 1 });
    assert.equal(job.counts.charged, 4 * PRICE_EMAIL);
    assert.equal(await spent(), 4 * PRICE_EMAIL, "each row billed once");
    const results = (await (await env.app.request(`/api/v1/bulk/jobs/${jobId}/results`, {
      headers: bearer(ws.apiKey),
    })).text()).trim().split("\n").map((line) => JSON.parse(line));
    assert.deepEqual(results.map((row) => row.answer.email), [
      "grace.hopper@slowgrey.test",
      "alan.turing@slowgrey.test",
      null,
      "grace.hopper@acme.test",
    ]);
  } finally {
    await world.close();
  }
});

Deno.test(
  "bulk: a row greylisted past the longest wait is answered unavailable, free",
  DB_TEST,
  async () => {
    const world = await startWorld(GREY);
    const { env } = world;
    try {
      const ws = await createTestWorkspace(env, 1000);
      const created = await env.app.request("/api/v1/bulk/jobs", {
        method: "POST",
        headers: bearer(ws.apiKey, {
          "idempotency-key": "grey-job-2",
          "content-type": "application/json",
        }),
        body: JSON.stringify({ operation: "find", rows: ROWS.slice(0, 1) }),
      });
      const jobId = (await created.json()).data.job.id;
      // The server's delay (5 s) is past a wait of 1 s: not worth deferring.
      const outcome = await runBulkJob(env.ctx, { jobId, greylistMaxWaitMs: 1_000 });
      assert.deepEqual(outcome, { kind: "finished", jobId, status: "completed" });
      const job = (await (await env.app.request(`/api/v1/bulk/jobs/${jobId}`, {
        headers: bearer(ws.apiKey),
      })).json()).data;
      assert.deepEqual(job.counts.refused, { "verification-unavailable": 1 });
      assert.equal(job.counts.charged, 0);
      assert.equal(job.counts.waiting, 0);
    } finally {
      await world.close();
    }
  },
);
