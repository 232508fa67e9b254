/**
 * The retention period of bulk results (`BULK_RESULTS_RETENTION_DAYS`): the sweep deletes the rows
 * of jobs that ended more than the period ago, in batches, marks each job and keeps the job, its
 * counts and its ledger lines; a job that ended within the period, a running one and a queued one
 * keep their rows; a period of 0 keeps everything; a second sweep finds nothing. Through the API:
 * `resultsExpireAt` is the end plus the period, and after the sweep the job shows
 * `resultsDeletedAt` and its results answer 410 `results_expired`. Time is the harness's clock.
 */
import assert from "node:assert/strict";
import type { ValidRow } from "../domain/bulk/bulk_job.ts";
import { cancelBulkJob } from "../domain/bulk/cancel_bulk_job.ts";
import { createBulkJob } from "../domain/bulk/create_bulk_job.ts";
import { deleteExpiredBulkRows } from "../domain/bulk/delete_expired_bulk_rows.ts";
import { readBulkResults } from "../domain/bulk/read_bulk_results.ts";
import { sweepBulkResults } from "../workers/bulk_results_sweeper.ts";
import { bearer, createTestEnv, createTestWorkspace, DB_TEST, type TestEnv } from "./harness.ts";

const DAY_MS = 86_400_000;
const RETENTION_DAYS = 30;

function enrichRows(count: number): ValidRow[] {
  return Array.from({ length: count }, (_, i) => ({
    lines: [i + 2],
    input: { email: `person${i}@retention.test` },
    groupKey: "retention.test",
  }));
}

/** A queued enrich job of `rows` rows. */
async function queuedJob(env: TestEnv, workspaceId: string, rows: number): Promise<string> {
  const answer = await createBulkJob(env.ctx, {
    workspaceId,
    idempotencyKey: crypto.randomUUID(),
    operation: "enrich",
    rows: enrichRows(rows),
    invalid: [],
    duplicates: 0,
    dryRun: false,
  });
  return answer.job!.id;
}

/** A job ended now by cancelling it (as an operator or the app would). */
async function endedJob(env: TestEnv, workspaceId: string, rows: number): Promise<string> {
  const jobId = await queuedJob(env, workspaceId, rows);
  assert.deepEqual(await cancelBulkJob(env.ctx, { workspaceId, jobId }), { status: "cancelled" });
  return jobId;
}

async function rowsOf(env: TestEnv, jobId: string): Promise<number> {
  const [{ n }] = await env.db.sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM bulk_job_rows WHERE job_id = ${jobId}`;
  return n;
}

async function deletedAt(env: TestEnv, jobId: string): Promise<Date | null> {
  const [row] = await env.db.sql<{ results_deleted_at: Date | null }[]>`
    SELECT results_deleted_at FROM bulk_jobs WHERE id = ${jobId}`;
  return row.results_deleted_at;
}

Deno.test(
  "bulk retention: rows of jobs ended past the period go, in batches",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      const ws = await createTestWorkspace(env, 1_000_000);
      const old = await endedJob(env, ws.workspaceId, 3);
      const oldLarge = await endedJob(env, ws.workspaceId, 25);
      // Ended the same moment, by another way a job ends: the runner's failure.
      const failed = await queuedJob(env, ws.workspaceId, 2);
      await env.db.sql`
      UPDATE bulk_jobs SET status = 'failed', failure_reason = 'test',
                           finished_at = ${new Date(env.clock.now())}
       WHERE id = ${failed}`;
      env.clock.advance(2 * DAY_MS);
      const recent = await endedJob(env, ws.workspaceId, 4);
      const queued = await queuedJob(env, ws.workspaceId, 5);
      const running = await queuedJob(env, ws.workspaceId, 6);
      await env.db.sql`
      UPDATE bulk_jobs SET status = 'processing', started_at = ${new Date(env.clock.now())}
       WHERE id = ${running}`;
      const before = await env.db.sql`
      SELECT id, status, done_count, credits_charged, worst_case, finished_at
        FROM bulk_jobs ORDER BY id`;
      const ledgerBefore = await env.db.sql`SELECT * FROM ledger_entries ORDER BY id`;

      // The old ones ended RETENTION_DAYS + 1 days ago, the recent one RETENTION_DAYS - 1.
      env.clock.advance((RETENTION_DAYS - 1) * DAY_MS);
      const now = new Date(env.clock.now());

      assert.deepEqual(
        await deleteExpiredBulkRows(env, { now, retentionDays: 0, batchSize: 10 }),
        { jobs: 0, rows: 0 },
        "a period of 0 keeps every row",
      );
      assert.equal(await rowsOf(env, old), 3);

      assert.deepEqual(
        await deleteExpiredBulkRows(env, { now, retentionDays: RETENTION_DAYS, batchSize: 10 }),
        { jobs: 3, rows: 3 + 25 + 2 },
      );
      for (const jobId of [old, oldLarge, failed]) {
        assert.equal(await rowsOf(env, jobId), 0, "rows of a job ended past the period go");
        assert.deepEqual(await deletedAt(env, jobId), now);
      }
      for (const [jobId, rows] of [[recent, 4], [queued, 5], [running, 6]] as const) {
        assert.equal(await rowsOf(env, jobId), rows, "rows within the period or unended stay");
        assert.equal(await deletedAt(env, jobId), null);
      }
      // The jobs, their counts and their ledger lines stay.
      assert.deepEqual(
        await env.db.sql`
        SELECT id, status, done_count, credits_charged, worst_case, finished_at
          FROM bulk_jobs ORDER BY id`,
        before,
      );
      assert.deepEqual(await env.db.sql`SELECT * FROM ledger_entries ORDER BY id`, ledgerBefore);

      env.clock.advance(DAY_MS / 2);
      assert.deepEqual(
        await deleteExpiredBulkRows(env, {
          now: new Date(env.clock.now()),
          retentionDays: RETENTION_DAYS,
        }),
        { jobs: 0, rows: 0 },
        "a second sweep finds nothing more",
      );
      assert.deepEqual(await deletedAt(env, old), now, "the mark is set once");

      // Two sweepers at once delete each row once and mark the job once.
      env.clock.advance(2 * DAY_MS);
      const later = new Date(env.clock.now());
      const both = await Promise.all([
        deleteExpiredBulkRows(env, { now: later, retentionDays: RETENTION_DAYS, batchSize: 2 }),
        deleteExpiredBulkRows(env, { now: later, retentionDays: RETENTION_DAYS, batchSize: 3 }),
      ]);
      assert.equal(both[0].rows + both[1].rows, 4);
      assert.equal(both[0].jobs + both[1].jobs, 1);
      assert.equal(await rowsOf(env, recent), 0);
      assert.equal(await rowsOf(env, queued), 5);
      assert.equal(await rowsOf(env, running), 6);
    } finally {
      await env.close();
    }
  },
);

Deno.test("bulk retention: the API says when, then 410 results_expired", DB_TEST, async () => {
  const env = await createTestEnv({ bulkResultsRetentionDays: RETENTION_DAYS });
  try {
    const ws = await createTestWorkspace(env, 1_000_000);
    const get = (path: string) => env.app.request(path, { headers: bearer(ws.apiKey) });
    const jobOf = async (jobId: string) =>
      (await (await get(`/api/v1/bulk/jobs/${jobId}`)).json()).data;

    const queued = await queuedJob(env, ws.workspaceId, 2);
    assert.equal((await jobOf(queued)).resultsExpireAt, null, "a job not ended: no date yet");

    const jobId = await endedJob(env, ws.workspaceId, 3);
    const ended = await jobOf(jobId);
    assert.equal(
      ended.resultsExpireAt,
      new Date(Date.parse(ended.finishedAt) + RETENTION_DAYS * DAY_MS).toISOString(),
    );
    assert.equal(ended.resultsDeletedAt, null);
    assert.equal((await get(`/api/v1/bulk/jobs/${jobId}/results`)).status, 200);

    env.clock.advance((RETENTION_DAYS - 1) * DAY_MS);
    assert.deepEqual(await sweepBulkResults(env.ctx), { jobs: 0, rows: 0 });
    assert.equal((await get(`/api/v1/bulk/jobs/${jobId}/results`)).status, 200);

    env.clock.advance(2 * DAY_MS);
    assert.deepEqual(await sweepBulkResults(env.ctx), { jobs: 1, rows: 3 });
    const swept = await jobOf(jobId);
    const sweptAt = new Date(env.clock.now()).toISOString();
    assert.equal(swept.resultsDeletedAt, sweptAt);
    assert.equal(swept.resultsExpireAt, ended.resultsExpireAt);
    assert.deepEqual(swept.counts, ended.counts, "the job and its counts stay");
    assert.equal(swept.status, "cancelled");

    for (const accept of ["application/x-ndjson", "text/csv"]) {
      const results = await env.app.request(`/api/v1/bulk/jobs/${jobId}/results`, {
        headers: bearer(ws.apiKey, { accept }),
      });
      assert.equal(results.status, 410);
      const { error } = await results.json();
      assert.equal(error.code, "results_expired");
      assert.ok(error.message.includes(sweptAt), error.message);
      assert.match(error.message, /BULK_RESULTS_RETENTION_DAYS/);
      assert.deepEqual(error.meta, { resultsDeletedAt: sweptAt });
    }
    assert.equal((await jobOf(queued)).resultsDeletedAt, null);
    assert.equal((await get(`/api/v1/bulk/jobs/${queued}/results`)).status, 200);
    // The sweep's log line holds counts, never a row.
    const logged = env.logLines.filter((line) => line.includes("bulk results expired"));
    assert.equal(logged.length, 1);
    assert.doesNotMatch(env.logLines.join("\n"), /retention\.test/);
  } finally {
    await env.close();
  }
});

Deno.test("bulk retention: a period of 0 keeps rows and sets no date", DB_TEST, async () => {
  const env = await createTestEnv({ bulkResultsRetentionDays: 0 });
  try {
    const ws = await createTestWorkspace(env, 1_000_000);
    const jobId = await endedJob(env, ws.workspaceId, 2);
    env.clock.advance(3650 * DAY_MS);
    assert.deepEqual(await sweepBulkResults(env.ctx), { jobs: 0, rows: 0 });
    assert.equal(await rowsOf(env, jobId), 2);
    const { data } = await (await env.app.request(`/api/v1/bulk/jobs/${jobId}`, {
      headers: bearer(ws.apiKey),
    })).json();
    assert.equal(data.resultsExpireAt, null);
    assert.equal(data.resultsDeletedAt, null);
  } finally {
    await env.close();
  }
});

Deno.test(
  "bulk retention: a download the sweep meets half-way fails, never ends as a shorter file",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      const ws = await createTestWorkspace(env, 1_000_000);
      const jobId = await endedJob(env, ws.workspaceId, 700);
      const whole = await readBulkResults(env.ctx, { workspaceId: ws.workspaceId, jobId });
      let rows = 0;
      for await (const chunk of whole.rows) rows += chunk.length;
      assert.equal(rows, 700, "read alone, every row");

      const results = await readBulkResults(env.ctx, { workspaceId: ws.workspaceId, jobId });
      const chunks = results.rows[Symbol.asyncIterator]();
      const first = await chunks.next();
      assert.equal(first.done, false);
      env.clock.advance((RETENTION_DAYS + 1) * DAY_MS);
      const swept = await deleteExpiredBulkRows(env.ctx, {
        now: new Date(env.clock.now()),
        retentionDays: RETENTION_DAYS,
      });
      assert.deepEqual(swept, { jobs: 1, rows: 700 });
      await assert.rejects(() => chunks.next(), /deleted while being read/);
    } finally {
      await env.close();
    }
  },
);
