/**
 * The web app's Bulk pages (`/app/bulk…`) through `app.request` against the fake DNS and SMTP: a
 * pasted list and an uploaded file are quoted with the API's dry run (free; a bad row reported
 * with its line, duplicates folded), the start reserves the worst case under the form's key (a
 * double submit answers the same job), the job page and its progress fragment follow the job as
 * the test drives the runner inline, the results download as the API's CSV, past jobs are listed,
 * a list the workspace cannot pay is refused before anything is reserved, and cancel releases the
 * rest; an ended job's page says when its results will be deleted, and once the retention sweep
 * deleted them, when they were, without the download. The rows' names never reach the log. Then
 * the ledger: the job is one line whose points are what its rows cost, on the overview and the
 * Ledger page (paging, dates, CSV).
 */
import assert from "node:assert/strict";
import { readBalance } from "../domain/billing/balance.ts";
import { deleteExpiredBulkRows } from "../domain/bulk/delete_expired_bulk_rows.ts";
import { readBulkJob } from "../domain/bulk/read_bulk_job.ts";
import { runBulkJob } from "../domain/bulk/run_bulk_job.ts";
import { createTestEnv, createTestWorkspace, DB_TEST, type TestEnv } from "./harness.ts";
import { PRICE_EMAIL, startWorld } from "./find_world.ts";
import { signedInMember, type WebClient, type WebResponse } from "./web_client.ts";
import { readCsv } from "./csv.ts";

const LIST = [
  "name,company,notes",
  "Grace Hopper,acme.test,x", // 2: found, billed
  "Nobody Here,acme.test,", // 3: not found, billed
  "Ann Other,nomail.test,", // 4: a domain without mail, free
  ",acme.test,", // 5: no name: set aside, never charged
  "Grace Hopper,https://www.acme.test/,", // 6: a duplicate of line 2
  "",
  "Linus Torvalds,acme.test,", // 8: found
].join("\n");

/** The hidden Idempotency-Key of the form posting to `action`. */
function formKey(page: WebResponse, action: string): string {
  const start = page.text.indexOf(`action="${action}"`);
  assert.ok(start >= 0, `a form posting to ${action}`);
  const match = /name="idempotencyKey" value="([^"]+)"/.exec(page.text.slice(start));
  assert.ok(match, "the form carries an idempotency key");
  return match[1];
}

function jobIdOf(location: string | null): string {
  const match = /^\/app\/bulk\/jobs\/(job_[A-Za-z0-9_-]+)(\?|$)/.exec(location ?? "");
  assert.ok(match, `a redirect to a job page, got ${location}`);
  return match[1];
}

/** Quotes a pasted list, then posts the quote page's start form. */
async function quoteAndStart(client: WebClient, list: string, operation = "find") {
  await client.get("/app/bulk");
  const quote = await client.post("/app/bulk", { operation, list });
  assert.equal(quote.status, 200, quote.text);
  const key = formKey(quote, "/app/bulk/jobs");
  const started = await client.post("/app/bulk/jobs", { operation, list, idempotencyKey: key });
  return { quote, key, started };
}

const balanceOf = (env: TestEnv, workspaceId: string) => readBalance(env, workspaceId);

Deno.test(
  "web bulk: quote, start, progress, results CSV, past jobs; the ledger's one line",
  DB_TEST,
  async (t) => {
    const world = await startWorld();
    const { env } = world;
    try {
      const ws = await createTestWorkspace(env, 1000);
      const client = await signedInMember(env, ws.workspaceId);

      await t.step("the empty page: the form, no jobs, in the navigation", async () => {
        const page = await client.get("/app/bulk");
        assert.equal(page.status, 200);
        assert.match(page.text, /<a href="\/app\/bulk" class="active" aria-current="page">Bulk/);
        assert.match(page.text, /enctype="multipart\/form-data"/);
        assert.match(page.text, /type="file"/);
        assert.match(page.text, /No jobs yet/);
      });

      let jobId = "";
      await t.step("a pasted list: the quote, a bad row by its line, free", async () => {
        const { quote, key, started } = await quoteAndStart(client, LIST);
        assert.match(quote.text, /data-quote-rows="4" data-quote-worst-case="40"/);
        assert.match(
          quote.text,
          /<li data-line="5"><span class="mono">Line 5<\/span>: Name is required/,
        );
        assert.match(quote.text, /Duplicates folded<\/dt><dd>1<\/dd>/);
        assert.match(quote.text, /Start the job \(4 rows, reserves 40\)/);
        // The list goes back in the start form; the paste box keeps it too.
        assert.match(quote.text, /name="list" value="name,company,notes/);
        assert.equal(started.status, 303, started.text);
        jobId = jobIdOf(started.location);
        assert.match(started.location!, /\?reserved=40$/);
        assert.deepEqual(await balanceOf(env, ws.workspaceId), {
          available: 960,
          reserved: 40,
          granted: 1000,
        });
        const welcome = await client.get(started.location!);
        assert.equal(welcome.status, 200);
        assert.match(welcome.text, /40 points reserved/);
        assert.match(welcome.text, /data-poll-url="\/app\/bulk\/jobs\/job_[^"]+\/progress"/);
        assert.match(welcome.text, /action="\/app\/bulk\/jobs\/job_[^"]+\/cancel"/);

        // A double submit of the start form answers the same job, reserving nothing again.
        const twice = await client.post("/app/bulk/jobs", {
          operation: "find",
          list: LIST,
          idempotencyKey: key,
        });
        assert.equal(twice.status, 303);
        assert.equal(jobIdOf(twice.location), jobId);
        assert.match(twice.location!, /\?replayed=1$/);
        assert.match((await client.get(twice.location!)).text, /nothing was reserved again/);
        assert.equal((await balanceOf(env, ws.workspaceId)).reserved, 40);
      });

      await t.step("progress while queued, then done after the runner", async () => {
        const queued = await client.get(`/app/bulk/jobs/${jobId}/progress`);
        assert.equal(queued.status, 200);
        assert.doesNotMatch(queued.text, /<html|<nav/);
        assert.match(queued.text, /data-done="false"/);
        assert.match(queued.text, /data-status="queued"/);
        assert.deepEqual(await runBulkJob(env.ctx, { jobId }), {
          kind: "finished",
          jobId,
          status: "completed",
        });
        const done = await client.get(`/app/bulk/jobs/${jobId}/progress`);
        assert.match(done.text, /data-done="true"/);
        assert.match(done.text, /<strong>4<\/strong> of 4 rows answered/);
        assert.match(done.text, /<strong>30<\/strong> points charged/);
        const page = await client.get(`/app/bulk/jobs/${jobId}`);
        assert.doesNotMatch(page.text, /data-poll-url/);
        assert.doesNotMatch(page.text, /Cancel job/);
        assert.match(page.text, /<dd data-reason="unusable-domain">1<\/dd>/);
        assert.match(page.text, /Line 5/);
        assert.deepEqual(await balanceOf(env, ws.workspaceId), {
          available: 970,
          reserved: 0,
          granted: 1000,
        });
      });

      await t.step("the results as CSV: one line per row, its cost", async () => {
        const file = await client.get(`/app/bulk/jobs/${jobId}/results.csv`);
        assert.equal(file.status, 200);
        assert.match(file.headers.get("content-type")!, /^text\/csv/);
        assert.match(file.headers.get("content-disposition")!, /attachment; filename="bulk-job_/);
        const table = readCsv(file.text.replace(/^\uFEFF/, ""));
        const header = table[0];
        const rows = table.slice(1).map((row) =>
          Object.fromEntries(header.map((h, i) => [h, row[i]]))
        );
        assert.deepEqual(rows.map((row) => row.line), ["2 6", "3", "4", "8"]);
        assert.equal(rows[0].email, "grace.hopper@acme.test");
        assert.equal(rows.reduce((sum, row) => sum + Number(row.cost), 0), 3 * PRICE_EMAIL);
      });

      await t.step("an uploaded file quotes the same way", async () => {
        await client.get("/app/bulk");
        const form = new FormData();
        form.set("_csrf", client.csrf);
        form.set("operation", "enrich");
        form.set("list", "");
        form.set("file", new File(["email\nann@acme.test\nnot an address\n"], "list.csv"));
        const quote = await client.request("/app/bulk", { method: "POST", body: form });
        assert.equal(quote.status, 200, quote.text);
        assert.match(quote.text, /data-quote-rows="1" data-quote-worst-case="10"/);
        assert.match(quote.text, /Line 3<\/span>: Email is not a well-formed address/);
        assert.match(quote.text, /name="operation" value="enrich"/);
      });

      await t.step("refusals: nothing given, a header that names nothing", async () => {
        await client.get("/app/bulk");
        const empty = await client.post("/app/bulk", { operation: "find", list: " \n" });
        assert.equal(empty.status, 400);
        assert.match(empty.text, /Choose a CSV file or paste rows/);
        const noHeader = await client.post("/app/bulk", {
          operation: "find",
          list: "Ada Lovelace,acme.test",
        });
        assert.equal(noHeader.status, 400);
        assert.match(noHeader.text, /header row must name the find fields: mode, name, company/);
      });

      await t.step("past jobs are listed", async () => {
        const page = await client.get("/app/bulk");
        assert.match(page.text, new RegExp(`<tr data-job-id="${jobId}">`));
        assert.match(page.text, /data-status="completed"/);
      });

      await t.step("the ledger: the job is one line of what its rows cost", async () => {
        const overview = await client.get("/app");
        const lines = [...overview.text.matchAll(/<tr data-kind="([a-z]+)" data-net="(-?\d+)">/g)]
          .map((m) => [m[1], Number(m[2])]);
        assert.deepEqual(lines, [["job", -30], ["grant", 1000]]);
        assert.match(
          overview.text,
          new RegExp(`<a href="/app/bulk/jobs/${jobId}">Bulk find job</a>`),
        );
        assert.match(overview.text, /Reserved 40/);
        assert.match(overview.text, /Released 10/);
        assert.match(overview.text, />−30</);
      });

      await t.step("nothing of the rows in the log", () => {
        const log = env.logLines.join("\n");
        for (const name of ["Grace Hopper", "Nobody Here", "Linus Torvalds", "ann@acme.test"]) {
          assert.ok(!log.includes(name), `${name} is not logged`);
        }
      });

      await t.step("another workspace's job is the 404 page", async () => {
        const other = await createTestWorkspace(env, 10);
        const stranger = await signedInMember(env, other.workspaceId);
        for (const path of ["", "/progress", "/results.csv"]) {
          const page = await stranger.get(`/app/bulk/jobs/${jobId}${path}`);
          assert.equal(page.status, 404, path);
          assert.match(page.text, /no bulk job with this id/);
        }
        assert.equal((await stranger.get("/app/bulk/jobs/x%00")).status, 404);
      });
    } finally {
      await world.close();
    }
  },
);

Deno.test("web bulk: not enough points, then cancel", DB_TEST, async (t) => {
  const env = await createTestEnv();
  try {
    const ws = await createTestWorkspace(env, 25);
    const client = await signedInMember(env, ws.workspaceId);
    const list = "email\na@acme.test\nb@acme.test\nc@acme.test\n";
    let cancelledJob = "";

    await t.step("a list the workspace cannot pay: refused before anything", async () => {
      const quote = await (async () => {
        await client.get("/app/bulk");
        return await client.post("/app/bulk", { operation: "enrich", list });
      })();
      assert.equal(quote.status, 200);
      assert.match(quote.text, /Not enough points: 30 needed, 25 available, 5 short/);
      assert.doesNotMatch(quote.text, /Start the job/);
      // A start sent anyway (an old page, a changed balance) is refused by the verb.
      const started = await client.post("/app/bulk/jobs", {
        operation: "enrich",
        list,
        idempotencyKey: "app-0d9f4f6e-3b0a-4c8e-9d59-2f6f9a1c0b11",
      });
      assert.equal(started.status, 402);
      assert.match(started.text, /this job reserves 30 points for its worst case and 25 are/);
      assert.match(started.text, /Nothing was reserved/);
      assert.deepEqual(await readBalance(env, ws.workspaceId), {
        available: 25,
        reserved: 0,
        granted: 25,
      });
    });

    await t.step("cancel a queued job: its reservation comes back", async () => {
      const { started } = await quoteAndStart(
        client,
        "email\na@acme.test\nb@acme.test\n",
        "enrich",
      );
      assert.equal(started.status, 303, started.text);
      const jobId = jobIdOf(started.location);
      assert.equal((await readBalance(env, ws.workspaceId)).available, 5);
      const page = await client.get(started.location!);
      const cancelled = await client.post(`/app/bulk/jobs/${jobId}/cancel`, {});
      assert.equal(cancelled.status, 303);
      assert.equal(cancelled.location, `/app/bulk/jobs/${jobId}?cancel=cancelled`);
      const after = await client.get(cancelled.location!);
      assert.match(after.text, /Job cancelled/);
      assert.match(after.text, /data-status="cancelled"/);
      assert.doesNotMatch(after.text, /Cancel job/);
      assert.ok(page.text.includes("Cancel job"));
      assert.equal((await readBalance(env, ws.workspaceId)).available, 25);
      const again = await client.post(`/app/bulk/jobs/${jobId}/cancel`, {});
      assert.equal(again.location, `/app/bulk/jobs/${jobId}?cancel=already-terminal`);
      // The ledger: a job that charged nothing is one line of 0.
      const ledger = await client.get("/app/ledger");
      assert.match(ledger.text, /<tr data-kind="job" data-net="0">/);
      cancelledJob = jobId;
    });

    await t.step("an ended job says when its results go, then that they went", async () => {
      const page = await client.get(`/app/bulk/jobs/${cancelledJob}`);
      const { finishedAt, resultsExpireAt } = await readBulkJob(env.ctx, {
        workspaceId: ws.workspaceId,
        jobId: cancelledJob,
      });
      assert.equal(Date.parse(resultsExpireAt!) - Date.parse(finishedAt!), 30 * 86_400_000);
      assert.match(page.text, /The results will be deleted on <time datetime="([^"]+)"/);
      assert.ok(page.text.includes(`<time datetime="${resultsExpireAt}"`));
      assert.match(page.text, /Download results/);

      // A sweep 31 days on (the clock stays: the member's session would have lapsed by then).
      const sweptAt = new Date(env.clock.now() + 31 * 86_400_000);
      const swept31 = await deleteExpiredBulkRows(env, { now: sweptAt, retentionDays: 30 });
      assert.equal(swept31.jobs, 1);
      const swept = await client.get(`/app/bulk/jobs/${cancelledJob}`);
      const deletedAt = sweptAt.toISOString();
      assert.match(swept.text, /The results of this job were deleted on/);
      assert.ok(swept.text.includes(`<time datetime="${deletedAt}"`));
      assert.doesNotMatch(swept.text, /Download results/);
      assert.doesNotMatch(swept.text, /will be deleted on/);
      assert.match(swept.text, /data-status="cancelled"/, "the job itself stays");
      const csv = await client.get(`/app/bulk/jobs/${cancelledJob}/results.csv`);
      assert.equal(csv.status, 410);
      assert.match(csv.text, /BULK_RESULTS_RETENTION_DAYS/);
    });

    await t.step("a post without the session's token is refused", async () => {
      const refused = await client.post("/app/bulk", { _csrf: "nope", operation: "find", list });
      assert.equal(refused.status, 403);
    });
  } finally {
    await env.close();
  }
});

Deno.test("web ledger: paging, dates and the CSV", DB_TEST, async () => {
  const env = await createTestEnv();
  try {
    const ws = await createTestWorkspace(env, 1000);
    for (let i = 1; i <= 60; i++) {
      const [result] = await env.ctx.charge([{
        workspaceId: ws.workspaceId,
        amount: 1,
        chargeKey: `ledger-page-${i}`,
        operation: "nameParse",
      }]);
      assert.equal(result.outcome, "charged");
    }
    // The grant, a week back: outside a filter on today.
    await env.db.sql`UPDATE ledger_entries SET created_at = now() - interval '7 days'
                      WHERE workspace_id = ${ws.workspaceId} AND kind = 'grant'`;
    const client = await signedInMember(env, ws.workspaceId);
    const rowsOf = (page: WebResponse) => [...page.text.matchAll(/<tr data-kind="([a-z]+)"/g)];

    const first = await client.get("/app/ledger");
    assert.equal(first.status, 200);
    assert.equal(rowsOf(first).length, 50);
    const older = /href="(\/app\/ledger\?cursor=\d+)"/.exec(first.text)?.[1];
    assert.ok(older, "a link to the older lines");
    const second = await client.get(older.replaceAll("&amp;", "&"));
    assert.deepEqual(rowsOf(second).map((m) => m[1]), [...Array(10).fill("call"), "grant"]);
    assert.doesNotMatch(second.text, /Older →/);
    assert.match(second.text, /← Newest/);

    const today = new Date().toISOString().slice(0, 10);
    const filtered = await client.get(`/app/ledger?from=${today}&to=${today}`);
    assert.equal(rowsOf(filtered).length, 50);
    assert.match(
      filtered.text,
      new RegExp(`href="/app/ledger.csv\\?from=${today}&amp;to=${today}"`),
    );
    const bad = await client.get("/app/ledger?from=2027-02-30");
    assert.equal(bad.status, 400);
    assert.match(bad.text, /From must be a day of the calendar/);

    const all = await client.get("/app/ledger.csv");
    assert.equal(all.status, 200);
    assert.match(all.headers.get("content-disposition")!, /filename="ledger.csv"/);
    const table = readCsv(all.text.replace(/^\uFEFF/, ""));
    assert.deepEqual(table[0], [
      "time",
      "kind",
      "what",
      "points",
      "units",
      "stillReserved",
      "link",
      "steps",
    ]);
    assert.equal(table.length, 1 + 61);
    assert.deepEqual(table[1].slice(1, 4), ["call", "Name parse", "-1"]);
    assert.deepEqual(table[61].slice(1, 4), ["grant", "Grant", "1000"]);
    const todays = readCsv((await client.get(`/app/ledger.csv?from=${today}`)).text.slice(1));
    assert.equal(todays.length, 1 + 60, "the grant is a week old");
  } finally {
    await env.close();
  }
});
