/**
 * Bulk verify jobs (`operation` `verify`) against the fake DNS and SMTP: a CSV with an `email`
 * column, exact duplicates folded, a malformed address kept as a free `invalid-syntax` row, each
 * row billed as its single call with the same outcome, results with one CSV column per check;
 * then 1,000 rows through the API and through the app's Bulk page, run to completion: the rows'
 * charges add up to the job's charge and to the balance spent, and a domain's addresses share
 * SMTP sessions.
 */
import assert from "node:assert/strict";
import { runBulkJob } from "../domain/bulk/run_bulk_job.ts";
import { readBulkJob } from "../domain/bulk/read_bulk_job.ts";
import { bearer, createTestWorkspace, DB_TEST, type TestEnv } from "./harness.ts";
import { startWorld, WORLD_PRICES } from "./find_world.ts";
import { readCsv } from "./csv.ts";
import { signedInMember, type WebResponse } from "./web_client.ts";

const PRICE = WORLD_PRICES.verify;

const CSV = [
  "email,notes",
  "grace.hopper@acme.test,x", // 2: valid, billed
  "nobody.here@acme.test,", // 3: mailbox-not-found, billed
  "anyone@catchall.test,", // 4: catch-all, billed
  "someone@grey.test,", // 5: greylisted: unknown, free
  "not an address,", // 6: invalid-syntax, free
  " Grace.Hopper@ACME.test ,", // 7: a duplicate of line 2 once normalised
  ",", // 8: no email: set aside, never charged
  "info@nomail.test,", // 9: null MX: invalid, billed
].join("\r\n");

async function spentBy(env: TestEnv, workspaceId: string): Promise<number> {
  const [row] = await env.db.sql<{ available: string }[]>`
    SELECT available FROM balances WHERE workspace_id = ${workspaceId}`;
  return Number(row.available);
}

Deno.test("bulk verify: a CSV through the API, billed as the single calls", DB_TEST, async (t) => {
  const world = await startWorld();
  const { env } = world;
  try {
    const ws = await createTestWorkspace(env, 1000);
    let jobId = "";
    await t.step("start: rows validated, duplicates folded, the worst case reserved", async () => {
      const response = await env.app.request("/api/v1/bulk/jobs?operation=verify", {
        method: "POST",
        headers: bearer(ws.apiKey, { "content-type": "text/csv", "idempotency-key": "v-job" }),
        body: CSV,
      });
      assert.equal(response.status, 200);
      const { data } = await response.json();
      jobId = data.job.id;
      assert.equal(data.job.operation, "verify");
      assert.deepEqual(
        [data.quote.rows, data.quote.invalid, data.quote.duplicates, data.quote.worstCase],
        [6, 1, 1, 6 * PRICE],
      );
      assert.deepEqual(data.invalidRows, [{ line: 8, message: "email is required" }]);
    });

    await t.step("run: each row as its single call", async () => {
      // grey.test greylists for ever: its row waits on greylisting while the others are answered.
      assert.equal((await runBulkJob(env.ctx, { jobId })).kind, "waiting");
      const waiting = await readBulkJob(env.ctx, { workspaceId: ws.workspaceId, jobId });
      assert.deepEqual([waiting.counts.done, waiting.counts.waiting], [5, 1]);
      // Past the longest wait (0 here) the row is given up: unknown, greylisted, free.
      const due = new Date(env.clock.now());
      await env.db.sql`UPDATE bulk_job_rows SET retry_at = ${due}
                        WHERE job_id = ${jobId} AND retry_at IS NOT NULL`;
      await env.db.sql`UPDATE bulk_jobs SET lease_until = ${due} WHERE id = ${jobId}`;
      assert.deepEqual(await runBulkJob(env.ctx, { jobId, greylistMaxWaitMs: 0 }), {
        kind: "finished",
        jobId,
        status: "completed",
      });
      const job = await readBulkJob(env.ctx, { workspaceId: ws.workspaceId, jobId });
      assert.deepEqual(job.counts, {
        rows: 6,
        done: 6,
        found: 1,
        charged: 4 * PRICE,
        refused: {
          "mailbox-not-found": 1,
          "catch-all": 1,
          "greylisted": 1,
          "invalid-syntax": 1,
          "null-mx": 1,
        },
        invalid: 1,
        duplicates: 1,
        waiting: 0,
      });
      assert.equal(await spentBy(env, ws.workspaceId), 1000 - 4 * PRICE);
    });

    await t.step("results as CSV: one column per check", async () => {
      const response = await env.app.request(`/api/v1/bulk/jobs/${jobId}/results`, {
        headers: bearer(ws.apiKey, { accept: "text/csv" }),
      });
      const table = readCsv((await response.text()).replace(/^\uFEFF/, ""));
      const [header, ...rows] = table;
      assert.deepEqual(header, [
        "line",
        "email",
        "state",
        "status",
        "reason",
        "confidence",
        "syntax",
        "disposable",
        "role",
        "freeMail",
        "didYouMean",
        "mxHosts",
        "acceptsMail",
        "provider",
        "catchAll",
        "smtpCode",
        "enhancedStatus",
        "checkedAt",
        "cached",
        "cost",
      ]);
      const byLine = Object.fromEntries(
        rows.map((row) => [row[0], Object.fromEntries(header.map((name, i) => [name, row[i]]))]),
      );
      assert.equal(byLine["2 7"].status, "valid");
      assert.equal(byLine["2 7"].email, "grace.hopper@acme.test");
      assert.equal(byLine["2 7"].mxHosts, "mx1.example.test");
      assert.equal(byLine["2 7"].smtpCode, "250");
      assert.equal(byLine["2 7"].cost, String(PRICE));
      assert.equal(byLine["3"].reason, "mailbox-not-found");
      assert.equal(byLine["4"].catchAll, "true");
      assert.deepEqual([byLine["5"].status, byLine["5"].cost], ["unknown", "0"]);
      assert.deepEqual([byLine["6"].syntax, byLine["6"].cost], ["false", "0"]);
      assert.deepEqual([byLine["9"].reason, byLine["9"].acceptsMail], ["null-mx", "false"]);
      assert.equal(byLine["9"].role, "true", "info@ is a role mailbox");
      const sum = rows.reduce((total, row) => total + Number(row[header.indexOf("cost")]), 0);
      assert.equal(sum, 4 * PRICE);
    });
  } finally {
    await world.close();
  }
});

/** 1,000 addresses over 20 domains at the fake mail host, every third accepted. */
function thousand(prefix: string): {
  emails: string[];
  accept: string[];
  dns: Record<string, unknown>;
} {
  const emails: string[] = [];
  const accept: string[] = [];
  const dns: Record<string, unknown> = {};
  for (let d = 0; d < 20; d++) {
    dns[`list${d}.test`] = { mx: [{ preference: 10, exchange: "mx1.example.test" }] };
    for (let p = 0; p < 50; p++) {
      const email = `${prefix}${p}@list${d}.test`;
      emails.push(email);
      if (p % 3 === 0) accept.push(email);
    }
  }
  return { emails, accept, dns };
}

function jobIdOf(page: WebResponse): string {
  const match = /\/app\/bulk\/jobs\/(job_[A-Za-z0-9_-]+)/.exec(page.headers.get("location") ?? "");
  assert.ok(match, `a redirect to the job page, got ${page.status}`);
  return match[1];
}

Deno.test("bulk verify: 1,000 rows through the API and the app", DB_TEST, async (t) => {
  // The API's list and the app's: different addresses, so neither is answered from the cache.
  const viaApi = thousand("person");
  const viaApp = thousand("member");
  const world = await startWorld({
    dns: viaApi.dns as never,
    accept: [...viaApi.accept, ...viaApp.accept],
  });
  const { env, smtp } = world;
  try {
    const check = async (workspaceId: string, jobId: string, accept: string[]) => {
      smtp.reset();
      const started = await spentBy(env, workspaceId);
      assert.equal((await runBulkJob(env.ctx, { jobId })).kind, "finished");
      const job = await readBulkJob(env.ctx, { workspaceId, jobId });
      assert.equal(job.status, "completed");
      assert.equal(job.counts.done, 1000);
      assert.equal(job.counts.found, accept.length);
      const [books] = await env.db.sql<{ cost: number; settled: number }[]>`
        SELECT (SELECT coalesce(sum(cost), 0)::int FROM bulk_job_rows WHERE job_id = ${jobId})
                 AS cost,
               (SELECT coalesce(sum(amount), 0)::int FROM ledger_entries
                 WHERE workspace_id = ${workspaceId} AND kind = 'settle') AS settled`;
      assert.equal(books.cost, 1000 * PRICE, "every address a verdict");
      assert.equal(job.counts.charged, books.cost);
      assert.equal(books.settled, books.cost);
      // The reservation was taken before the run; what it spent is what the rows cost.
      const [balance] = await env.db.sql<{ available: string; reserved: string }[]>`
        SELECT available, reserved FROM balances WHERE workspace_id = ${workspaceId}`;
      assert.equal(balance.reserved, "0");
      assert.equal(Number(balance.available), started + 1000 * PRICE - books.cost);
      // A domain's addresses share sessions: far fewer than one a row.
      assert.ok(smtp.connections() > 0, "verified over SMTP, not from the cache");
      assert.ok(smtp.connections() <= 1000 / 4, `${smtp.connections()} sessions`);
    };

    await t.step("through the API (JSON rows)", async () => {
      const ws = await createTestWorkspace(env, 10_000);
      const response = await env.app.request("/api/v1/bulk/jobs", {
        method: "POST",
        headers: bearer(ws.apiKey, {
          "content-type": "application/json",
          "idempotency-key": "thousand",
        }),
        body: JSON.stringify({
          operation: "verify",
          rows: viaApi.emails.map((email) => ({ email })),
        }),
      });
      assert.equal(response.status, 200);
      const { data } = await response.json();
      assert.equal(data.job.counts.rows, 1000);
      assert.equal(data.job.pointsReserved, 1000 * PRICE);
      await check(ws.workspaceId, data.job.id, viaApi.accept);
    });

    await t.step("through the app's Bulk page (a pasted list)", async () => {
      const ws = await createTestWorkspace(env, 10_000);
      const member = await signedInMember(env, ws.workspaceId);
      const list = ["email", ...viaApp.emails].join("\n");
      const page = await member.get("/app/bulk");
      assert.match(page.text, /value="verify"/);
      assert.match(page.text, /Verify email/);
      const quote = await member.post("/app/bulk", { operation: "verify", list });
      assert.equal(quote.status, 200);
      assert.match(quote.text, /Quote: Verify email/);
      const start = quote.text.indexOf('action="/app/bulk/jobs"');
      const key = /name="idempotencyKey" value="([^"]+)"/.exec(quote.text.slice(start))![1];
      const started = await member.post("/app/bulk/jobs", {
        operation: "verify",
        list,
        idempotencyKey: key,
      });
      const jobId = jobIdOf(started);
      await check(ws.workspaceId, jobId, viaApp.accept);
      const jobPage = await member.get(`/app/bulk/jobs/${jobId}`);
      assert.match(jobPage.text, /Verify email/);
      assert.match(jobPage.text, new RegExp(`${viaApp.accept.length}</strong> valid`));
      const csv = await member.get(`/app/bulk/jobs/${jobId}/results.csv`);
      assert.equal(csv.status, 200);
      assert.match(csv.text, /didYouMean/);
    });
  } finally {
    await world.close();
  }
});
