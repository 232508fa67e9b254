/**
 * Bulk jobs through the API against the fake DNS and SMTP: validation per row with line numbers,
 * duplicates folded, the dry-run quote, the worst case reserved, each row billed as its single call
 * with the same outcome, page settlements equal to the rows' costs and the balance arithmetic,
 * results as JSON lines and CSV, replay under the key, 402, cancel.
 */
import assert from "node:assert/strict";
import { runBulkJob } from "../domain/bulk/run_bulk_job.ts";
import { bearer, createTestWorkspace, DB_TEST } from "./harness.ts";
import { PRICE_EMAIL, startWorld } from "./find_world.ts";
import { readCsv } from "./csv.ts";

const CSV = [
  "name,company,notes",
  "Grace Hopper,acme.test,x", // 2: found, billed
  "Nobody Here,acme.test,", // 3: every candidate refused: not-found, billed
  "Ann Other,catchall.test,", // 4: catch-all, billed
  "Ann Other,nomail.test,", // 5: unusable-domain, free
  "Ann Other,gmail.com,", // 6: free-mail-domain, free
  ",acme.test,", // 7: no name: invalid, never charged
  "Grace Hopper,https://www.acme.test/,", // 8: a duplicate of line 2 once normalized
  "",
  "Linus Torvalds,acme.test,", // 10: found (the blank line 9 is skipped but counted)
].join("\r\n");

Deno.test("bulk jobs: CSV through the API, billed as the single calls", DB_TEST, async (t) => {
  const world = await startWorld();
  const { env } = world;
  try {
    const ws = await createTestWorkspace(env, 1000);
    const post = (body: string, query: string, headers: Record<string, string> = {}) =>
      env.app.request(`/api/v1/bulk/jobs?${query}`, {
        method: "POST",
        headers: bearer(ws.apiKey, { "content-type": "text/csv", ...headers }),
        body,
      });
    const balance = async () =>
      (await env.db.sql<{ available: string; reserved: string }[]>`
        SELECT available, reserved FROM balances WHERE workspace_id = ${ws.workspaceId}`)[0];

    await t.step("dry run: the quote alone, free, nothing kept", async () => {
      const response = await post(CSV, "operation=find&dryRun=true");
      assert.equal(response.status, 200);
      const { data } = await response.json();
      assert.equal(data.job, null);
      assert.deepEqual(data.quote, {
        rows: 6,
        invalid: 1,
        duplicates: 1,
        worstCase: 6 * PRICE_EMAIL,
        available: 1000,
        sufficient: true,
      });
      assert.deepEqual(data.invalidRows, [{ line: 7, message: "name is required in email mode" }]);
      assert.equal(Number((await balance()).available), 1000);
      const [{ n }] = await env.db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM bulk_jobs`;
      assert.equal(n, 0);
    });

    await t.step("a job needs an Idempotency-Key", async () => {
      const response = await post(CSV, "operation=find");
      assert.equal(response.status, 400);
      assert.equal((await response.json()).error.code, "validation_error");
    });

    let jobId = "";
    await t.step("start: the worst case reserved, queued", async () => {
      const response = await post(CSV, "operation=find", { "idempotency-key": "job-1" });
      assert.equal(response.status, 200);
      const { data } = await response.json();
      jobId = data.job.id;
      assert.equal(data.job.status, "queued");
      assert.equal(data.job.pointsReserved, 6 * PRICE_EMAIL);
      assert.deepEqual(await balance(), {
        available: String(1000 - 6 * PRICE_EMAIL),
        reserved: String(6 * PRICE_EMAIL),
      });
      const again = await (await post(CSV, "operation=find", { "idempotency-key": "job-1" }))
        .json();
      assert.equal(again.data.job.id, jobId);
      assert.equal(again.data.replay, true);
      const changed = await post(CSV + "\r\nAda Lovelace,acme.test,", "operation=find", {
        "idempotency-key": "job-1",
      });
      assert.equal(changed.status, 409);
    });

    await t.step("run: rows answered, billed as the single calls, released", async () => {
      const outcome = await runBulkJob(env.ctx, { jobId });
      assert.deepEqual(outcome, { kind: "finished", jobId, status: "completed" });
      const { data } = await (await env.app.request(`/api/v1/bulk/jobs/${jobId}`, {
        headers: bearer(ws.apiKey),
      })).json();
      assert.equal(data.status, "completed");
      assert.deepEqual(data.counts, {
        rows: 6,
        done: 6,
        found: 2,
        charged: 4 * PRICE_EMAIL,
        refused: { "not-found": 1, "catch-all": 1, "unusable-domain": 1, "free-mail-domain": 1 },
        invalid: 1,
        duplicates: 1,
        waiting: 0,
      });
      const [ledger] = await env.db.sql<{ settled: number; released: number }[]>`
        SELECT coalesce(sum(amount) FILTER (WHERE kind = 'settle'), 0)::int AS settled,
               coalesce(sum(amount) FILTER (WHERE kind = 'release'), 0)::int AS released
          FROM ledger_entries WHERE workspace_id = ${ws.workspaceId}`;
      assert.deepEqual(ledger, { settled: 4 * PRICE_EMAIL, released: 2 * PRICE_EMAIL });
      assert.deepEqual(await balance(), {
        available: String(1000 - 4 * PRICE_EMAIL),
        reserved: "0",
      });
    });

    await t.step("results as JSON lines: input lines, answer, cost per row", async () => {
      const response = await env.app.request(`/api/v1/bulk/jobs/${jobId}/results`, {
        headers: bearer(ws.apiKey),
      });
      assert.equal(response.status, 200);
      const rows = (await response.text()).trim().split("\n").map((line) => JSON.parse(line));
      const byLine = Object.fromEntries(rows.map((row) => [row.lines[0], row]));
      assert.deepEqual(rows.map((row) => row.lines), [[2, 8], [3], [4], [5], [6], [10]]);
      assert.equal(byLine[2].answer.email, "grace.hopper@acme.test");
      assert.deepEqual(
        rows.map((row) => [row.answer.reason, row.cost]),
        [
          [null, PRICE_EMAIL],
          ["not-found", PRICE_EMAIL],
          ["catch-all", PRICE_EMAIL],
          ["unusable-domain", 0],
          ["free-mail-domain", 0],
          [null, PRICE_EMAIL],
        ],
      );
      const sum = rows.reduce((total, row) => total + row.cost, 0);
      assert.equal(sum, 4 * PRICE_EMAIL);
    });

    await t.step("results as CSV", async () => {
      const response = await env.app.request(`/api/v1/bulk/jobs/${jobId}/results`, {
        headers: bearer(ws.apiKey, { accept: "text/csv" }),
      });
      assert.match(response.headers.get("content-type")!, /^text\/csv/);
      const table = readCsv((await response.text()).replace(/^\uFEFF/, ""));
      assert.equal(table.length, 7);
      const header = table[0];
      const first = Object.fromEntries(header.map((name, i) => [name, table[1][i]]));
      assert.equal(first.line, "2 8");
      assert.equal(first.email, "grace.hopper@acme.test");
      assert.equal(first.cost, String(PRICE_EMAIL));
    });

    await t.step("a job that cannot be paid: 402 before any work", async () => {
      const poor = await createTestWorkspace(env, PRICE_EMAIL);
      const response = await env.app.request("/api/v1/bulk/jobs", {
        method: "POST",
        headers: bearer(poor.apiKey, {
          "content-type": "application/json",
          "idempotency-key": "p",
        }),
        body: JSON.stringify({
          operation: "find",
          rows: [{ name: "Grace Hopper", company: "acme.test" }, {
            name: "Ada Lovelace",
            company: "acme.test",
          }],
        }),
      });
      assert.equal(response.status, 402);
      const { error } = await response.json();
      assert.deepEqual(error.meta, {
        required: 2 * PRICE_EMAIL,
        available: PRICE_EMAIL,
        shortfall: PRICE_EMAIL,
      });
    });

    await t.step("cancel a queued job: everything released, nothing charged", async () => {
      const response = await env.app.request("/api/v1/bulk/jobs", {
        method: "POST",
        headers: bearer(ws.apiKey, { "content-type": "application/json", "idempotency-key": "c" }),
        body: JSON.stringify({
          operation: "enrich",
          rows: [{ email: "a@acme.test" }, { email: "not an address" }, { email: "A@ACME.test" }],
        }),
      });
      const { data } = await response.json();
      assert.deepEqual(data.invalidRows, [{
        line: 2,
        message: "email is not a well-formed address",
      }]);
      assert.equal(data.quote.duplicates, 1);
      const before = await balance();
      const cancel = await env.app.request(`/api/v1/bulk/jobs/${data.job.id}/cancel`, {
        method: "POST",
        headers: bearer(ws.apiKey),
      });
      assert.deepEqual(await cancel.json(), { data: { status: "cancelled" } });
      assert.equal(Number((await balance()).available), Number(before.available) + 10);
      assert.deepEqual(await runBulkJob(env.ctx, { jobId: data.job.id }), { kind: "idle" });
    });
  } finally {
    await world.close();
  }
});
