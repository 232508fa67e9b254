/**
 * The web app's lead-search pages (`/app/lead-search…`) through `app.request`: the filter form
 * starts a run with the API's verb (the reservation shows in the balance; a double submit answers
 * the same run), the run page and its progress fragment follow the run as the test drives the
 * runner inline (`runLeadSearch`), results come 25 a page, the CSV holds every delivered lead once
 * and nothing else, cancel and continue answer as §3 and §4.8 say, refusals are shown with the
 * form kept filled, and another workspace's run is the app's 404 page.
 */
import assert from "node:assert/strict";
import { importDemoPeople } from "../domain/directory/import_demo_people.ts";
import { readBalance } from "../domain/billing/balance.ts";
import { DEFAULT_RATE_LIMITS } from "../domain/config/config.ts";
import { runLeadSearch } from "../domain/lead_search/run_lead_search.ts";
import { csvField, csvFile } from "../routes/app/csv.ts";
import { bearer, createTestEnv, createTestWorkspace, DB_TEST, type TestEnv } from "./harness.ts";
import { signedInMember, type WebClient, type WebResponse } from "./web_client.ts";
import { readCsv } from "./csv.ts";

const PRICE = 2; // DEFAULT_PRICES.lead

async function seed(env: TestEnv, n: number) {
  await importDemoPeople(env, { people: n, now: env.clock.now() });
}

const balanceOf = (env: TestEnv, workspaceId: string) => readBalance(env, workspaceId);

/** The hidden Idempotency-Key of the (first, or the named form's) form on a page. */
function formKey(page: WebResponse, action?: string): string {
  const start = action ? page.text.indexOf(`action="${action}"`) : 0;
  assert.ok(start >= 0, `a form posting to ${action}`);
  const match = /name="idempotencyKey" value="([^"]+)"/.exec(page.text.slice(start));
  assert.ok(match, "the form carries an idempotency key");
  return match[1];
}

const EMPTY_FILTERS = {
  jobTitle: "",
  location: "",
  company: "",
  industry: "",
  seniority: "",
  keywords: "",
};

/** Opens the form and submits it with these fields. */
async function startFromForm(client: WebClient, fields: Record<string, string | string[]>) {
  const form = await client.get("/app/lead-search");
  assert.equal(form.status, 200);
  const key = formKey(form);
  const started = await client.post("/app/lead-search", {
    ...EMPTY_FILTERS,
    idempotencyKey: key,
    ...fields,
  });
  return { key, started };
}

function runIdOf(location: string | null): string {
  const match = /^\/app\/lead-search\/runs\/(run_[A-Za-z0-9_-]+)(\?|$)/.exec(location ?? "");
  assert.ok(match, `a redirect to a run page, got ${location}`);
  return match[1];
}

/** The leads' positions shown in a run page's results table. */
function positionsOn(page: WebResponse): number[] {
  const table = /<table class="lead-results[^"]*">([\s\S]*?)<\/table>/.exec(page.text)?.[1] ?? "";
  return [...table.matchAll(/<td class="num muted lead-corner">(\d+)<\/td>/g)].map((m) =>
    Number(m[1])
  );
}

Deno.test(
  "web lead search: start from the form, watch it, pages of 25, CSV export",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      await seed(env, 60);
      const ws = await createTestWorkspace(env, 1000);
      const client = await signedInMember(env, ws.workspaceId);

      const empty = await client.get("/app/lead-search");
      assert.equal(empty.status, 200);
      assert.match(empty.text, /No runs yet/);
      assert.match(empty.text, /name="_csrf"/);
      for (const range of ["1-10", "51-200", "10001+"]) {
        assert.match(
          empty.text,
          new RegExp(`name="headcount" value="${range.replace("+", "\\+")}"`),
        );
      }
      assert.match(empty.text, /max="1000"/);
      assert.match(empty.text, /2 points a lead/);

      // Start: 100 leads reserve 200 points; the run page says so and shows the balance.
      const { key, started } = await startFromForm(client, { count: "100" });
      assert.equal(started.status, 303, started.text);
      const runId = runIdOf(started.location);
      assert.match(started.location!, /\?reserved=200$/);
      assert.deepEqual(await balanceOf(env, ws.workspaceId), {
        available: 800,
        reserved: 200,
        granted: 1000,
      });
      const welcome = await client.get(started.location!);
      assert.equal(welcome.status, 200);
      assert.match(welcome.text, /200 points reserved/);
      assert.match(welcome.text, /<strong>800<\/strong> available/);
      assert.match(
        welcome.text,
        new RegExp(
          `data-poll-url="/app/lead-search/runs/${runId}/progress" data-poll-ms="1000" data-reload-when-done`,
        ),
      );
      assert.match(welcome.text, /action="\/app\/lead-search\/runs\/run_[^"]+\/cancel"/);
      assert.match(welcome.text, /data-confirm=/);
      assert.match(welcome.text, /No leads yet/);

      // A double submit of the same form answers the same run, reserving nothing again.
      const twice = await client.post("/app/lead-search", {
        ...EMPTY_FILTERS,
        idempotencyKey: key,
        count: "100",
      });
      assert.equal(twice.status, 303);
      assert.equal(runIdOf(twice.location), runId);
      assert.match(twice.location!, /\?replayed=1$/);
      assert.match((await client.get(twice.location!)).text, /nothing was reserved again/);
      assert.deepEqual(await balanceOf(env, ws.workspaceId), {
        available: 800,
        reserved: 200,
        granted: 1000,
      });

      // The progress fragment: no layout, not done while queued.
      const queued = await client.get(`/app/lead-search/runs/${runId}/progress`);
      assert.equal(queued.status, 200);
      assert.doesNotMatch(queued.text, /<html|<nav/);
      assert.match(queued.text, /data-done="false"/);
      assert.doesNotMatch(queued.text, /data-done="true"/);
      assert.match(queued.text, /data-status="queued"/);
      assert.match(queued.text, /<progress max="100" value="0"/);

      // One page delivered: processing, 25 of 100, 50 points charged.
      assert.equal((await runLeadSearch(env.ctx, { runId, maxPages: 1 })).kind, "paused");
      const processing = await client.get(`/app/lead-search/runs/${runId}/progress`);
      assert.match(processing.text, /data-done="false"/);
      assert.match(processing.text, /data-status="processing"/);
      assert.match(processing.text, /<strong>25<\/strong> of 100 leads delivered/);
      assert.match(processing.text, /<strong>50<\/strong> points charged/);

      // Driven to the end: the directory has 60 people.
      env.clock.advance(60_000); // the paused runner's lease expires
      assert.deepEqual(await runLeadSearch(env.ctx, { runId }), {
        kind: "finished",
        runId,
        status: "completed",
      });
      const done = await client.get(`/app/lead-search/runs/${runId}/progress`);
      assert.match(done.text, /data-done="true"/);
      assert.match(done.text, /data-status="completed"/);
      assert.match(done.text, /<strong>60<\/strong> of 100 leads delivered/);
      assert.match(done.text, /<strong>120<\/strong> points charged/);

      // Pages of 25: 1–25 with only a next link, 26–50, 51–60 with only a previous link.
      const page1 = await client.get(`/app/lead-search/runs/${runId}`);
      assert.equal(page1.status, 200);
      assert.doesNotMatch(page1.text, /data-poll-url/, "a finished run is not polled");
      assert.doesNotMatch(page1.text, /\/cancel"/, "a finished run has no cancel button");
      assert.deepEqual(positionsOn(page1), Array.from({ length: 25 }, (_, i) => i + 1));
      assert.match(
        page1.text,
        new RegExp(`href="/app/lead-search/runs/${runId}\\?page=2" rel="next"`),
      );
      assert.doesNotMatch(page1.text, /rel="prev"/);
      assert.match(page1.text, /Page 1 of 3/);
      const page2 = await client.get(`/app/lead-search/runs/${runId}?page=2`);
      assert.deepEqual(positionsOn(page2), Array.from({ length: 25 }, (_, i) => i + 26));
      assert.match(page2.text, /\?page=1" rel="prev"/);
      assert.match(page2.text, /\?page=3" rel="next"/);
      const page3 = await client.get(`/app/lead-search/runs/${runId}?page=3`);
      assert.deepEqual(positionsOn(page3), Array.from({ length: 10 }, (_, i) => i + 51));
      assert.match(page3.text, /\?page=2" rel="prev"/);
      assert.doesNotMatch(page3.text, /rel="next"/);
      const beyond = await client.get(`/app/lead-search/runs/${runId}?page=9`);
      assert.equal(beyond.status, 200);
      assert.deepEqual(positionsOn(beyond), []);
      assert.match(beyond.text, /No leads on page 9: this run has 3 pages/);
      assert.equal((await client.get(`/app/lead-search/runs/${runId}?page=0`)).status, 400);
      assert.equal((await client.get(`/app/lead-search/runs/${runId}?page=x`)).status, 400);

      // The CSV: a header and every delivered lead once, nothing else (no address, no phone).
      const csv = await client.get(`/app/lead-search/runs/${runId}/leads.csv`);
      assert.equal(csv.status, 200);
      assert.match(csv.headers.get("content-type") ?? "", /^text\/csv; charset=utf-8/);
      assert.equal(
        csv.headers.get("content-disposition"),
        `attachment; filename="leads-${runId}.csv"`,
      );
      // UTF-8 with a byte-order mark, like the names CSV, so spreadsheets read accents right.
      assert.ok(csv.text.startsWith("\uFEFFname,title,"), "a header after the BOM");
      assert.ok(csv.text.endsWith("\r\n"));
      const rows = readCsv(csv.text.slice(1));
      assert.deepEqual(rows[0], ["name", "title", "company", "location", "networkUrl"]);
      assert.equal(rows.length, 61);
      const delivered = await env.db.sql<
        { name: string; title: string | null; network_url: string }[]
      >`
        SELECT name, title, network_url FROM lead_search_results WHERE run_id = ${runId}
         ORDER BY position`;
      assert.deepEqual(
        rows.slice(1).map((r) => [r[0], r[1], r[4]]),
        delivered.map((d) => [d.name, d.title ?? "", d.network_url]),
      );
      assert.equal(new Set(rows.slice(1).map((r) => r[4])).size, 60, "each lead once");
      for (const row of rows.slice(1)) assert.equal(row.length, 5);
      assert.doesNotMatch(csv.text, /@/, "no email address or handle");
      assert.doesNotMatch(csv.text, /\+\d|\(\d{3}\)/, "no phone number");
      assert.deepEqual(await balanceOf(env, ws.workspaceId), {
        available: 1000 - 60 * PRICE,
        reserved: 0,
        granted: 1000,
      }, "reading, polling and exporting are free");

      // The list: the run, its status, counters and a link to its page.
      const list = await client.get("/app/lead-search");
      assert.doesNotMatch(list.text, /No runs yet/);
      assert.match(list.text, new RegExp(`href="/app/lead-search/runs/${runId}"`));
      assert.match(list.text, /data-status="completed"/);
      assert.match(list.text, /60 \/ 100/);
      assert.match(list.text, /data-label="Points">120<\/td>/);
      assert.notEqual(formKey(list), key, "every rendered form has its own key");
    } finally {
      await env.close();
    }
  },
);

Deno.test(
  "web lead search: cancel a queued and a processing run, continue a finished one",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      await seed(env, 80);
      const ws = await createTestWorkspace(env, 1000);
      const client = await signedInMember(env, ws.workspaceId);

      // queued → cancelled: nothing charged, the reservation back.
      const first = runIdOf((await startFromForm(client, { count: "40" })).started.location);
      assert.deepEqual(await balanceOf(env, ws.workspaceId), {
        available: 920,
        reserved: 80,
        granted: 1000,
      });
      await client.get(`/app/lead-search/runs/${first}`);
      const cancelled = await client.post(`/app/lead-search/runs/${first}/cancel`, {});
      assert.equal(cancelled.status, 303);
      assert.equal(cancelled.location, `/app/lead-search/runs/${first}?cancel=cancelled`);
      const afterCancel = await client.get(cancelled.location!);
      assert.match(afterCancel.text, /Run cancelled before it started/);
      assert.match(afterCancel.text, /data-status="cancelled"/);
      assert.match(afterCancel.text, /This run delivered no leads/);
      assert.deepEqual(await balanceOf(env, ws.workspaceId), {
        available: 1000,
        reserved: 0,
        granted: 1000,
      });
      const again = await client.post(`/app/lead-search/runs/${first}/cancel`, {});
      assert.equal(again.location, `/app/lead-search/runs/${first}?cancel=already-terminal`);
      assert.match((await client.get(again.location!)).text, /had already finished/);

      // processing → cancelling → cancelled after its page; only delivered leads charged.
      const second = runIdOf((await startFromForm(client, { count: "75" })).started.location);
      assert.equal((await runLeadSearch(env.ctx, { runId: second, maxPages: 1 })).kind, "paused");
      await client.get(`/app/lead-search/runs/${second}`);
      const stopping = await client.post(`/app/lead-search/runs/${second}/cancel`, {});
      assert.equal(stopping.location, `/app/lead-search/runs/${second}?cancel=cancelling`);
      const stoppingPage = await client.get(stopping.location!);
      assert.match(stoppingPage.text, /Cancelling: the run stops at its next page/);
      assert.match(stoppingPage.text, /data-poll-url/, "a cancelling run is still followed");
      env.clock.advance(60_000);
      assert.equal((await runLeadSearch(env.ctx, { runId: second })).kind, "finished");
      const stopped = await client.get(`/app/lead-search/runs/${second}/progress`);
      assert.match(stopped.text, /data-done="true"/);
      assert.match(stopped.text, /data-status="cancelled"/);
      assert.deepEqual(await balanceOf(env, ws.workspaceId), {
        available: 1000 - 25 * PRICE,
        reserved: 0,
        granted: 1000,
      });

      // Continue the cancelled run: a new run with its filters, linked both ways.
      const finished = await client.get(`/app/lead-search/runs/${second}`);
      const continueAction = `/app/lead-search/runs/${second}/continue`;
      assert.match(finished.text, new RegExp(`action="${continueAction}"`));
      const continueKey = formKey(finished, continueAction);
      const continued = await client.post(continueAction, {
        count: "30",
        idempotencyKey: continueKey,
      });
      assert.equal(continued.status, 303, continued.text);
      const third = runIdOf(continued.location);
      assert.notEqual(third, second);
      assert.match(continued.location!, /\?reserved=60$/);
      const thirdPage = await client.get(`/app/lead-search/runs/${third}`);
      assert.match(
        thirdPage.text,
        new RegExp(`Continues</dt>\\s*<dd><a class="mono" href="/app/lead-search/runs/${second}"`),
      );
      // The same continue form submitted twice: the same run.
      const replayed = await client.post(continueAction, {
        count: "30",
        idempotencyKey: continueKey,
      });
      assert.equal(runIdOf(replayed.location), third);
      assert.deepEqual(await balanceOf(env, ws.workspaceId), {
        available: 1000 - 25 * PRICE - 60,
        reserved: 60,
        granted: 1000,
      });

      // While it runs: another start is refused with a link to it, the form kept filled.
      const busy = await startFromForm(client, { count: "10", jobTitle: "engineer" });
      assert.equal(busy.started.status, 409);
      assert.match(busy.started.text, /A run is already active/);
      assert.match(busy.started.text, new RegExp(`href="/app/lead-search/runs/${third}"`));
      assert.match(busy.started.text, />engineer<\/textarea>/);
      // An unfinished run cannot be continued.
      const thirdForm = await client.get(`/app/lead-search/runs/${third}`);
      assert.doesNotMatch(thirdForm.text, /\/continue"/, "no continue form while it runs");
      const early = await client.post(`/app/lead-search/runs/${third}/continue`, { count: "5" });
      assert.equal(early.status, 400);
      assert.match(early.text, /Only a finished run/);

      // Once it ends, the cancelled run has been continued: a second continuation is refused.
      assert.equal((await runLeadSearch(env.ctx, { runId: third })).kind, "finished");
      const secondAgain = await client.get(`/app/lead-search/runs/${second}`);
      assert.match(secondAgain.text, /Continued by/);
      assert.doesNotMatch(secondAgain.text, /action="[^"]+\/continue"/);
      const twice = await client.post(continueAction, { count: "5", idempotencyKey: "fresh-1" });
      assert.equal(twice.status, 409);
      assert.match(twice.text, /already continued/);
      assert.match(twice.text, new RegExp(`href="/app/lead-search/runs/${third}"`));
      const count = await env.db.sql<{ n: number }[]>`
        SELECT count(*)::int AS n FROM lead_search_runs WHERE workspace_id = ${ws.workspaceId}`;
      assert.equal(count[0].n, 3);

      // A double click: the same form twice at once is one run, both answers lead to it.
      const before = await balanceOf(env, ws.workspaceId);
      const form = await client.get("/app/lead-search");
      const fields = { ...EMPTY_FILTERS, idempotencyKey: formKey(form), count: "10" };
      const clicks = await Promise.all([
        client.post("/app/lead-search", fields),
        client.post("/app/lead-search", fields),
      ]);
      assert.deepEqual(clicks.map((r) => r.status), [303, 303]);
      assert.equal(runIdOf(clicks[0].location), runIdOf(clicks[1].location));
      assert.deepEqual(await balanceOf(env, ws.workspaceId), {
        available: before.available - 10 * PRICE,
        reserved: 10 * PRICE,
        granted: 1000,
      });
    } finally {
      await env.close();
    }
  },
);

Deno.test(
  "web lead search: refusals shown with the form kept, filters as lists, CSRF, 404s",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      await seed(env, 30);
      const poor = await createTestWorkspace(env, 50);
      const client = await signedInMember(env, poor.workspaceId);

      // Not enough points: the shortfall, nothing reserved, the form as typed.
      const short = await startFromForm(client, {
        count: "100",
        jobTitle: "engineer, sales manager",
        headcount: ["51-200", "201-500"],
      });
      assert.equal(short.started.status, 402);
      assert.match(short.started.text, /100 leads reserve 200 points and 50 are available, 150/);
      assert.match(short.started.text, /25 leads or fewer/);
      assert.match(short.started.text, />engineer, sales manager<\/textarea>/);
      assert.match(short.started.text, /value="51-200" checked/);
      assert.match(short.started.text, /value="201-500" checked/);
      assert.doesNotMatch(short.started.text, /value="1-10" checked/);
      assert.match(short.started.text, /name="count"[^>]*value="100"/);
      assert.deepEqual(await balanceOf(env, poor.workspaceId), {
        available: 50,
        reserved: 0,
        granted: 50,
      });

      // Validation: the verb's message in the page's words.
      const badCount = await startFromForm(client, { count: "many" });
      assert.equal(badCount.started.status, 400);
      assert.match(badCount.started.text, /Count must be an integer from 1 to 1000/);
      const tooMany = await startFromForm(client, { count: "1001" });
      assert.equal(tooMany.started.status, 400);
      const badRange = await startFromForm(client, { count: "5", headcount: "12-13" });
      assert.equal(badRange.started.status, 400);
      assert.match(badRange.started.text, /Headcount members must be one of 1-10/);
      const longValue = await startFromForm(client, { count: "5", keywords: "k".repeat(201) });
      assert.equal(longValue.started.status, 400);
      assert.match(longValue.started.text, /Keywords members must be at most 200 characters/);

      // Lists: commas and new lines separate, but not in a location or a company name.
      const listed = await startFromForm(client, {
        count: "5",
        jobTitle: "engineer\nsales manager, director",
        location: "Paris, France; Berlin\n",
        company: "Acme, Inc.",
      });
      assert.equal(listed.started.status, 303, listed.started.text);
      const listedId = runIdOf(listed.started.location);
      const [row] = await env.db.sql<{ filters: Record<string, string[]> }[]>`
        SELECT filters FROM lead_search_runs WHERE id = ${listedId}`;
      assert.deepEqual(row.filters, {
        jobTitle: ["engineer", "sales manager", "director"],
        location: ["Paris, France", "Berlin"],
        company: ["Acme, Inc."],
      });
      const listedPage = await client.get(`/app/lead-search/runs/${listedId}`);
      assert.match(listedPage.text, /Job title:<\/span> engineer · sales manager · director/);

      // A form without the session's CSRF token is refused and starts nothing.
      const forged = await client.post("/app/lead-search", {
        _csrf: "",
        ...EMPTY_FILTERS,
        idempotencyKey: "forged",
        count: "1",
      });
      assert.equal(forged.status, 403);
      const forgedCancel = await client.post(`/app/lead-search/runs/${listedId}/cancel`, {
        _csrf: "0".repeat(64),
      });
      assert.equal(forgedCancel.status, 403);
      const runs = await env.db.sql<{ n: number }[]>`
        SELECT count(*)::int AS n FROM lead_search_runs WHERE workspace_id = ${poor.workspaceId}`;
      assert.equal(runs[0].n, 1);
      assert.equal(
        (await client.get(`/app/lead-search/runs/${listedId}/progress`)).text
          .includes('data-status="queued"'),
        true,
        "the forged cancel did nothing",
      );

      // Another workspace's run, and an unknown id: the app's 404 page everywhere.
      const rich = await createTestWorkspace(env, 1000);
      const stranger = await signedInMember(env, rich.workspaceId);
      for (const id of [listedId, "run_unknown"]) {
        for (const path of ["", "/progress", "/leads.csv"]) {
          const page = await stranger.get(`/app/lead-search/runs/${id}${path}`);
          assert.equal(page.status, 404, path);
          assert.match(page.text, /Page not found/);
        }
        await stranger.get("/app/lead-search");
        assert.equal((await stranger.post(`/app/lead-search/runs/${id}/cancel`, {})).status, 404);
        assert.equal(
          (await stranger.post(`/app/lead-search/runs/${id}/continue`, { count: "5" })).status,
          404,
        );
      }
      assert.doesNotMatch((await stranger.get("/app/lead-search")).text, new RegExp(listedId));
      assert.match((await client.get(`/app/lead-search/runs/${listedId}`)).text, /Queued/);
    } finally {
      await env.close();
    }
  },
);

Deno.test(
  "web lead search: starts share the API's lead_search budget, reads the account budget",
  DB_TEST,
  async () => {
    const env = await createTestEnv({
      config: {
        rateLimits: {
          ...DEFAULT_RATE_LIMITS,
          lead_search: { limit: 1, windowSeconds: 60 },
          account: { limit: 4, windowSeconds: 60 },
        },
      },
    });
    try {
      await seed(env, 10);
      const ws = await createTestWorkspace(env, 1000);
      const client = await signedInMember(env, ws.workspaceId);
      const { started } = await startFromForm(client, { count: "5" });
      assert.equal(started.status, 303);
      const runId = runIdOf(started.location);
      await client.post(`/app/lead-search/runs/${runId}/cancel`, {}); // account: 1
      // The web start spent the budget the API's start shares.
      const api = await env.app.request("/api/v1/lead-search", {
        method: "POST",
        headers: bearer(ws.apiKey, { "Content-Type": "application/json" }),
        body: JSON.stringify({ count: 1 }),
      });
      assert.equal(api.status, 429);
      const limited = await startFromForm(client, { count: "5", jobTitle: "engineer" });
      assert.equal(limited.started.status, 429);
      assert.ok(Number(limited.started.headers.get("retry-after")) >= 1);
      assert.match(limited.started.text, /Too many requests from this workspace/);
      assert.match(limited.started.text, />engineer<\/textarea>/);

      // Reads, polls and exports take from `account`, as the API's poll does.
      await client.get(`/app/lead-search/runs/${runId}`); // 2
      await client.get(`/app/lead-search/runs/${runId}/progress`); // 3
      await client.get(`/app/lead-search/runs/${runId}/leads.csv`); // 4
      const spent = await client.get(`/app/lead-search/runs/${runId}/progress`);
      assert.equal(spent.status, 429);
      const poll = await env.app.request(`/api/v1/lead-search/runs/${runId}`, {
        headers: bearer(ws.apiKey),
      });
      assert.equal(poll.status, 429);
    } finally {
      await env.close();
    }
  },
);

Deno.test("web lead search: CSV fields are quoted as RFC 4180 says and stay text", () => {
  assert.equal(csvField(null), "");
  assert.equal(csvField("Ada Lovelace"), "Ada Lovelace");
  assert.equal(csvField("Paris, France"), '"Paris, France"');
  assert.equal(csvField('The "Boss"'), '"The ""Boss"""');
  assert.equal(csvField("two\nlines"), '"two\nlines"');
  assert.equal(csvField("=HYPERLINK(1)"), "'=HYPERLINK(1)");
  assert.equal(csvField("-1,2"), `"'-1,2"`);
  // Both downloads are one shape: a byte-order mark, the header, CRLF after every line.
  assert.equal(csvFile(["name", "note"], [["Núñez", null]]), "\uFEFFname,note\r\nNúñez,\r\n");
});
