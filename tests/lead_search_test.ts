/**
 * Lead-search runs (spec §2.8, §3, §4.8, §4.10): start, poll, cancel, continue, the run loop's
 * pages and their charges, and the database's one-active-run and one-continuation rules. The run
 * loop is driven directly (`runLeadSearch`), so each step's balance can be read in between.
 */
import assert from "node:assert/strict";
import { importDemoPeople } from "../domain/directory/import_demo_people.ts";
import { readBalance } from "../domain/billing/balance.ts";
import { runLeadSearch } from "../domain/lead_search/run_lead_search.ts";
import { createPagedDirectorySearch } from "../domain/lead_search/search_directory_page.ts";
import { recoverExpiredLeases } from "../domain/lead_search/recover_expired_leases.ts";
import {
  bearer,
  createTestEnv,
  createTestWorkspace,
  DB_TEST,
  type TestEnv,
  withoutRequestId,
} from "./harness.ts";

const PRICE = 2; // DEFAULT_PRICES.lead

async function seed(env: TestEnv, n: number) {
  await importDemoPeople(env, { people: n, now: env.clock.now() });
}

async function start(
  env: TestEnv,
  apiKey: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const res = await env.app.request("/api/v1/lead-search", {
    method: "POST",
    headers: bearer(apiKey, { "Content-Type": "application/json", ...headers }),
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function poll(env: TestEnv, apiKey: string, runId: string, page?: number) {
  const res = await env.app.request(
    `/api/v1/lead-search/runs/${runId}${page !== undefined ? `?page=${page}` : ""}`,
    { headers: bearer(apiKey) },
  );
  return { status: res.status, body: await res.json() };
}

async function cancel(env: TestEnv, apiKey: string, runId: string, init: RequestInit = {}) {
  const res = await env.app.request(`/api/v1/lead-search/runs/${runId}/cancel`, {
    method: "POST",
    ...init,
    headers: bearer(apiKey, (init.headers ?? {}) as Record<string, string>),
  });
  return { status: res.status, body: await res.json() };
}

const balanceOf = (env: TestEnv, workspaceId: string) => readBalance(env, workspaceId);

Deno.test(
  "lead search: start, pages of 25 charged as delivered, poll, complete",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      await seed(env, 60);
      const ws = await createTestWorkspace(env, 1000);
      const started = await start(env, ws.apiKey, { count: 100 }, { "Idempotency-Key": "run-1" });
      assert.equal(started.status, 200);
      const { run } = started.body.data;
      assert.match(run.id, /^run_/);
      assert.equal(run.status, "queued");
      assert.equal(run.deliveredCount, 0);
      assert.equal(run.creditsCharged, 0);
      assert.equal(started.body.data.reason, null);
      assert.equal(started.body.data.charged, false);
      assert.equal(started.body.data.pointsCharged, 0);
      assert.deepEqual(started.body.data.balance, { available: 800, reserved: 200, granted: 1000 });

      // The same key and body: the same run, uncharged, nothing reserved again.
      const again = await start(env, ws.apiKey, { count: 100 }, { "Idempotency-Key": "run-1" });
      assert.equal(again.status, 200);
      assert.equal(again.body.data.run.id, run.id);
      assert.equal(again.body.data.replay, true);
      assert.deepEqual(again.body.data.balance, { available: 800, reserved: 200, granted: 1000 });

      // Page by page: each page settles from the reservation.
      for (const [delivered, available, reserved] of [[25, 800, 150], [50, 800, 100]]) {
        const outcome = await runLeadSearch(env.ctx, { maxPages: 1 });
        assert.equal(outcome.kind, "paused");
        env.clock.advance(60_000); // the lease of the paused runner expires
        const polled = await poll(env, ws.apiKey, run.id);
        assert.equal(polled.body.data.status, "processing");
        assert.equal(polled.body.data.deliveredCount, delivered);
        assert.equal(polled.body.data.creditsCharged, delivered * PRICE);
        assert.deepEqual(await balanceOf(env, ws.workspaceId), {
          available,
          reserved,
          granted: 1000,
        });
      }
      const done = await runLeadSearch(env.ctx);
      assert.deepEqual(done, { kind: "finished", runId: run.id, status: "completed" });
      assert.deepEqual(await balanceOf(env, ws.workspaceId), {
        available: 1000 - 60 * PRICE,
        reserved: 0,
        granted: 1000,
      });

      const page1 = (await poll(env, ws.apiKey, run.id)).body.data;
      assert.equal(page1.status, "completed");
      assert.equal(page1.deliveredCount, 60);
      assert.equal(page1.creditsCharged, 120);
      assert.ok(page1.finishedAt);
      assert.equal(page1.results.length, 25);
      assert.equal(page1.nextPage, 2);
      assert.deepEqual(Object.keys(page1.results[0]).sort(), [
        "company",
        "location",
        "name",
        "networkUrl",
        "position",
        "title",
      ]);
      assert.doesNotMatch(JSON.stringify(page1), /@/, "no email or handle in a lead");
      const page3 = (await poll(env, ws.apiKey, run.id, 3)).body.data;
      assert.equal(page3.results.length, 10);
      assert.equal(page3.results[9].position, 60);
      assert.equal(page3.nextPage, null);
      const people = new Set<string>();
      for (const page of [1, 2, 3]) {
        for (const lead of (await poll(env, ws.apiKey, run.id, page)).body.data.results) {
          people.add(lead.networkUrl);
        }
      }
      assert.equal(people.size, 60, "each person delivered once");
      assert.equal((await poll(env, ws.apiKey, run.id, 0)).status, 400);

      // The ledger: one settle posting per page, one release of what was not used.
      const entries = await env.db.sql<{ kind: string; amount: string }[]>`
      SELECT kind, amount FROM ledger_entries
       WHERE workspace_id = ${ws.workspaceId} AND kind IN ('reserve', 'settle', 'release')
       ORDER BY id`;
      assert.deepEqual(entries.map((e) => [e.kind, Number(e.amount)]), [
        ["reserve", 200],
        ["settle", 50],
        ["settle", 50],
        ["settle", 20],
        ["release", 80],
      ]);

      // Another workspace cannot see or cancel it.
      const other = await createTestWorkspace(env, 100);
      assert.equal((await poll(env, other.apiKey, run.id)).body.error.code, "not_found");
      assert.equal((await poll(env, other.apiKey, run.id)).status, 404);
      assert.equal((await cancel(env, other.apiKey, run.id)).status, 404);
      assert.equal((await poll(env, ws.apiKey, "run_unknown")).status, 404);
      // an id no run can have, with characters the database cannot hold, is unknown too (not a 500)
      assert.equal((await poll(env, ws.apiKey, "run_%00x")).status, 404);
      assert.equal((await cancel(env, ws.apiKey, "run_%00x")).status, 404);
    } finally {
      await env.close();
    }
  },
);

Deno.test("lead search: every cancel transition of §3 and its reservation", DB_TEST, async () => {
  const env = await createTestEnv();
  try {
    await seed(env, 80);
    const ws = await createTestWorkspace(env, 1000);

    // queued → cancelled at once, nothing charged, the reservation released.
    const queued = (await start(env, ws.apiKey, { count: 50 })).body.data.run;
    assert.deepEqual(await balanceOf(env, ws.workspaceId), {
      available: 900,
      reserved: 100,
      granted: 1000,
    });
    const c1 = await cancel(env, ws.apiKey, queued.id);
    assert.deepEqual(c1, { status: 200, body: { data: { status: "cancelled" } } });
    assert.deepEqual(await balanceOf(env, ws.workspaceId), {
      available: 1000,
      reserved: 0,
      granted: 1000,
    });
    assert.equal((await runLeadSearch(env.ctx)).kind, "idle", "a cancelled run is not run");
    // terminal → already-terminal, unchanged.
    const c2 = await cancel(env, ws.apiKey, queued.id, {
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    assert.deepEqual(c2.body, { data: { status: "already-terminal" } });
    const after = (await poll(env, ws.apiKey, queued.id)).body.data;
    assert.equal(after.status, "cancelled");
    assert.equal(after.deliveredCount, 0);
    assert.equal(after.creditsCharged, 0);

    // processing → cancelling; repeated → cancelling; the run stops at its next page.
    const running = (await start(env, ws.apiKey, { count: 75 })).body.data.run;
    assert.equal((await runLeadSearch(env.ctx, { maxPages: 1 })).kind, "paused");
    const c3 = await cancel(env, ws.apiKey, running.id, {
      headers: { "Content-Type": "application/json" },
      body: "null",
    });
    assert.deepEqual(c3.body, { data: { status: "cancelling" } });
    assert.equal((await poll(env, ws.apiKey, running.id)).body.data.status, "cancelling");
    const c4 = await cancel(env, ws.apiKey, running.id);
    assert.deepEqual(c4.body, { data: { status: "cancelling" } });
    // A cancelling run is still active.
    assert.equal((await start(env, ws.apiKey, { count: 1 })).body.error.code, "run_already_active");
    env.clock.advance(60_000);
    const ended = await runLeadSearch(env.ctx);
    assert.deepEqual(ended, { kind: "finished", runId: running.id, status: "cancelled" });
    const final = (await poll(env, ws.apiKey, running.id)).body.data;
    assert.equal(final.deliveredCount, 25);
    assert.equal(final.creditsCharged, 50);
    assert.deepEqual(await balanceOf(env, ws.workspaceId), {
      available: 950,
      reserved: 0,
      granted: 1000,
    });
    assert.deepEqual((await cancel(env, ws.apiKey, running.id)).body, {
      data: { status: "already-terminal" },
    });

    // Bodies: an array is refused; a non-JSON body with a Content-Type other than JSON too.
    const bad = await cancel(env, ws.apiKey, running.id, {
      headers: { "Content-Type": "application/json" },
      body: "[1]",
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, "validation_error");
  } finally {
    await env.close();
  }
});

Deno.test(
  "lead search: a page still being searched when cancel answers is neither delivered nor charged",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      await seed(env, 80);
      const ws = await createTestWorkspace(env, 1000);
      const run = (await start(env, ws.apiKey, { count: 75 })).body.data.run;
      // Page 1 is delivered; page 2's directory search is under way when the cancel is answered.
      const paged = createPagedDirectorySearch();
      let searches = 0;
      const ended = await runLeadSearch(env.ctx, {
        search: async (sql, input) => {
          searches++;
          if (searches === 2) {
            const answer = await cancel(env, ws.apiKey, run.id);
            assert.deepEqual(answer.body, { data: { status: "cancelling" } });
          }
          return await paged(sql, input);
        },
      });
      assert.deepEqual(ended, { kind: "finished", runId: run.id, status: "cancelled" });
      assert.equal(searches, 2, "no page is searched after the cancel");
      const final = (await poll(env, ws.apiKey, run.id)).body.data;
      assert.equal(final.status, "cancelled");
      assert.equal(final.deliveredCount, 25, "only the page delivered before the cancel");
      assert.equal(final.creditsCharged, PRICE * final.deliveredCount);
      assert.equal(final.results.length, 25);
      assert.deepEqual(await balanceOf(env, ws.workspaceId), {
        available: 1000 - PRICE * 25,
        reserved: 0,
        granted: 1000,
      });
      const row = (await env.db.sql`SELECT reservation_id FROM lead_search_runs
                                     WHERE id = ${run.id}`)[0];
      const entries = await env.db.sql<
        { kind: string; amount: string; charge_key: string | null }[]
      >`
        SELECT kind, amount, charge_key FROM ledger_entries
         WHERE reservation_id = ${row.reservation_id} ORDER BY id`;
      assert.deepEqual(
        entries.map((e) => [e.kind, Number(e.amount), e.charge_key]),
        [
          ["reserve", PRICE * 75, null],
          ["settle", PRICE * 25, `lead-search:${run.id}:page:1`],
          ["release", PRICE * 50, null],
        ],
      );
      const stored = await env.db.sql`SELECT count(*)::int AS n FROM lead_search_results
                                       WHERE run_id = ${run.id}`;
      assert.equal(stored[0].n, 25);
    } finally {
      await env.close();
    }
  },
);

Deno.test("lead search: one active run under 20 concurrent starts", DB_TEST, async () => {
  const env = await createTestEnv();
  try {
    const ws = await createTestWorkspace(env, 1000);
    const answers = await Promise.all(
      Array.from(
        { length: 20 },
        (_, i) => start(env, ws.apiKey, { count: 10 }, { "Idempotency-Key": `concurrent-${i}` }),
      ),
    );
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 409);
    assert.equal(ok.length, 1);
    assert.equal(refused.length, 19);
    for (const r of refused) assert.equal(r.body.error.code, "run_already_active");
    assert.deepEqual(await balanceOf(env, ws.workspaceId), {
      available: 980,
      reserved: 20,
      granted: 1000,
    });
    // A refused start's key was given back: after the run ends the same key starts a run.
    await cancel(env, ws.apiKey, ok[0].body.data.run.id);
    const key = answers.findIndex((a) => a.status === 409);
    const retried = await start(env, ws.apiKey, { count: 10 }, {
      "Idempotency-Key": `concurrent-${key}`,
    });
    assert.equal(retried.status, 200);
    assert.equal(retried.body.data.replay, false);
  } finally {
    await env.close();
  }
});

Deno.test(
  "lead search: continuation rules; a lead is never delivered twice in a chain",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      await seed(env, 60);
      const ws = await createTestWorkspace(env, 1000);
      const other = await createTestWorkspace(env, 1000);
      const filters = { seniority: ["senior", "manager", "entry", "director", "vp", "cxo"] };
      const a = (await start(env, ws.apiKey, { filters, count: 30 })).body.data.run;

      // An unfinished run cannot be continued.
      await runLeadSearch(env.ctx, { maxPages: 1 });
      env.clock.advance(60_000);
      await runLeadSearch(env.ctx);
      assert.equal((await poll(env, ws.apiKey, a.id)).body.data.status, "completed");

      const differ = await start(env, ws.apiKey, {
        filters: { seniority: ["vp"] },
        count: 10,
        continueFromRunId: a.id,
      });
      assert.equal(differ.status, 400);
      assert.equal(differ.body.error.code, "invalid_continuation");
      const foreign = await start(env, other.apiKey, { count: 10, continueFromRunId: a.id });
      assert.equal(foreign.status, 400, "another workspace's run: 400, as README says");
      assert.equal(foreign.body.error.code, "invalid_continuation");
      const unknown = await start(env, ws.apiKey, { count: 10, continueFromRunId: "run_nope" });
      assert.equal(unknown.status, 400, "an unknown run: 400, as README says");
      assert.equal(unknown.body.error.code, "invalid_continuation");
      const impossible = await start(env, ws.apiKey, {
        count: 10,
        continueFromRunId: "run_\u0000",
      });
      assert.equal(impossible.body.error.code, "invalid_continuation");

      // Filters equal in another order and case are accepted.
      const b = await start(env, ws.apiKey, {
        filters: { seniority: [...filters.seniority].reverse().map((s) => s.toUpperCase()) },
        count: 100,
        continueFromRunId: a.id,
      });
      assert.equal(b.status, 200, JSON.stringify(b.body));
      const bRun = b.body.data.run;
      assert.deepEqual(bRun.filters, filters, "a continuation takes its source's filters");
      assert.equal(bRun.continueFromRunId, a.id);

      // A queued run cannot be continued either.
      const early = await start(env, other.apiKey, { count: 1 });
      const notDone = await start(env, other.apiKey, {
        count: 1,
        continueFromRunId: early.body.data.run.id,
      });
      assert.equal(notDone.status, 400);
      assert.equal(notDone.body.error.code, "invalid_continuation");
      await cancel(env, other.apiKey, early.body.data.run.id);

      while ((await runLeadSearch(env.ctx)).kind !== "idle") { /* run everything */ }
      const bDone = (await poll(env, ws.apiKey, bRun.id)).body.data;
      assert.equal(bDone.status, "completed");
      const matching = (await env.db.sql`SELECT count(*)::int AS n FROM people
      WHERE seniority = ANY(${filters.seniority}::text[])`)[0].n as number;
      assert.equal(bDone.deliveredCount, matching - 30, "only leads not delivered by A");
      assert.equal(bDone.creditsCharged, (matching - 30) * PRICE);
      const overlap = await env.db.sql`
      SELECT person_id FROM lead_search_results WHERE run_id IN (${a.id}, ${bRun.id})
       GROUP BY person_id HAVING count(*) > 1`;
      assert.equal(overlap.length, 0);

      // A run continued once cannot be continued again; its continuation can.
      const twice = await start(env, ws.apiKey, { count: 5, continueFromRunId: a.id });
      assert.equal(twice.status, 409);
      assert.equal(twice.body.error.code, "run_already_continued");
      const c = await start(env, ws.apiKey, { count: 5, continueFromRunId: bRun.id });
      assert.equal(c.status, 200);
      while ((await runLeadSearch(env.ctx)).kind !== "idle") { /* run */ }
      const cDone = (await poll(env, ws.apiKey, c.body.data.run.id)).body.data;
      assert.equal(cDone.status, "completed");
      assert.equal(cDone.deliveredCount, 0, "everyone in the chain was delivered already");
      assert.equal(cDone.creditsCharged, 0);
      assert.equal((await balanceOf(env, ws.workspaceId)).reserved, 0);
    } finally {
      await env.close();
    }
  },
);

Deno.test("lead search: validation, insufficient credits, filters match", DB_TEST, async () => {
  const env = await createTestEnv();
  try {
    await seed(env, 200);
    const ws = await createTestWorkspace(env, 100);
    for (
      const body of [
        { count: 0 },
        { count: 1001 },
        { count: 1.5 },
        { count: "10" },
        {},
        { count: 5, filters: [] },
        { count: 5, filters: "sales" },
        { count: 5, filters: { headcount: ["50-200"] } },
        { count: 5, filters: { jobTitle: [1] } },
        { count: 5, filters: { jobTitle: "sales" } },
        { count: 5, filters: { colour: ["red"] } },
        { count: 5, filters: { jobTitle: ["--"] } },
        { count: 5, filters: { jobTitle: ["CTO\u0000"] } },
      ]
    ) {
      const res = await start(env, ws.apiKey, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.code, "validation_error", JSON.stringify(body));
    }
    // The message names what was wrong.
    const unknown = await start(env, ws.apiKey, { filters: { bogus: ["x"] }, count: 5 });
    assert.equal(unknown.status, 400);
    assert.deepEqual(withoutRequestId(unknown.body).error, {
      code: "validation_error",
      message:
        "filters.bogus is not a known filter; known: jobTitle, location, company, industry, headcount, seniority, keywords",
    });
    const notObject = await start(env, ws.apiKey, { filters: [], count: 5 });
    assert.equal(notObject.body.error.message, "filters must be an object");
    const notString = await start(env, ws.apiKey, { count: 1, continueFromRunId: 7 });
    assert.equal(notString.status, 400);
    assert.equal(notString.body.error.message, "continueFromRunId must be a string");
    // A page given twice.
    const someRun = await env.app.request("/api/v1/lead-search/runs/run_nope?page=2&page=3", {
      headers: bearer(ws.apiKey),
    });
    assert.equal(someRun.status, 400);
    assert.deepEqual(withoutRequestId(await someRun.json()).error, {
      code: "validation_error",
      message: "page must be given once",
    });
    const badPage = await poll(env, ws.apiKey, "run_nope", 0);
    assert.equal(badPage.status, 400);
    assert.equal(badPage.body.error.message, "page must be a positive integer");

    const poor = await start(env, ws.apiKey, { count: 51 });
    assert.equal(poor.status, 200);
    assert.equal(poor.body.data.run, null);
    assert.equal(poor.body.data.reason, "insufficient-credits");
    assert.deepEqual(poor.body.data.balance, { available: 100, reserved: 0, granted: 100 });

    const filters = {
      jobTitle: ["director", "vice president"],
      location: ["berlin", "Paris, France"],
      headcount: ["51-200", "201-500", "501-1000", "1001-5000", "5001-10000", "10001+"],
    };
    // continueFromRunId null is no continuation, as if left out.
    const started = await start(env, ws.apiKey, { filters, count: 50, continueFromRunId: null });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const run = started.body.data.run;
    assert.equal(run.continueFromRunId, null);
    while ((await runLeadSearch(env.ctx)).kind !== "idle") { /* run */ }
    const done = (await poll(env, ws.apiKey, run.id)).body.data;
    assert.equal(done.status, "completed");
    const expected = (await env.db.sql`
      SELECT count(*)::int AS n FROM people p JOIN companies c ON c.id = p.company_id
       WHERE (p.title ILIKE '%director%' OR (p.title ILIKE '%vice%' AND p.title ILIKE '%president%'))
         AND (lower(p.location) LIKE 'berlin,%' OR lower(p.location) = 'paris, france')
         AND c.headcount <> '1-10' AND c.headcount <> '11-50'`)[0].n as number;
    assert.ok(expected > 0, "the demo data has matches");
    assert.equal(done.deliveredCount, Math.min(expected, 50));
    for (const lead of done.results) {
      assert.match(lead.title, /director|vice president/i);
      assert.match(lead.location, /^(berlin,|paris, france$)/i);
    }
  } finally {
    await env.close();
  }
});

Deno.test(
  "lead search: a directory failure ends the run failed, delivered leads charged",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      await seed(env, 60);
      const ws = await createTestWorkspace(env, 1000);
      const run = (await start(env, ws.apiKey, { count: 60 })).body.data.run;
      await runLeadSearch(env.ctx, { maxPages: 1 });
      env.clock.advance(60_000);
      const failing = await runLeadSearch(env.ctx, {
        search: () => Promise.reject(new Error("directory down")),
      });
      assert.deepEqual(failing, { kind: "finished", runId: run.id, status: "failed" });
      const done = (await poll(env, ws.apiKey, run.id)).body.data;
      assert.equal(done.failureReason, "search_unavailable");
      assert.equal(done.deliveredCount, 25);
      assert.equal(done.creditsCharged, 50);
      assert.deepEqual(await balanceOf(env, ws.workspaceId), {
        available: 950,
        reserved: 0,
        granted: 1000,
      });
    } finally {
      await env.close();
    }
  },
);

Deno.test(
  "lead search: leases — a held run is not taken; an expired one is, once",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      await seed(env, 60);
      const ws = await createTestWorkspace(env, 1000);
      const run = (await start(env, ws.apiKey, { count: 60 })).body.data.run;
      assert.equal((await runLeadSearch(env.ctx, { maxPages: 1, leaseMs: 10_000 })).kind, "paused");
      assert.equal((await runLeadSearch(env.ctx)).kind, "idle", "the lease still holds");
      env.clock.advance(11_000);
      assert.deepEqual(await recoverExpiredLeases(env.ctx), [run.id]);
      // Two runners race for it: one takes it, the other finds nothing.
      const [x, y] = await Promise.all([runLeadSearch(env.ctx), runLeadSearch(env.ctx)]);
      assert.deepEqual([x.kind, y.kind].sort(), ["finished", "idle"]);
      const done = (await poll(env, ws.apiKey, run.id)).body.data;
      assert.equal(done.deliveredCount, 60);
      assert.equal(done.creditsCharged, 120);
      // A runner asked to stop hands its run back at once.
      const next = (await start(env, ws.apiKey, { count: 5 })).body.data.run;
      const handed = await runLeadSearch(env.ctx, { shouldStop: () => true });
      assert.deepEqual(handed, { kind: "handed-back", runId: next.id });
      const row = (await env.db.sql`SELECT status, lease_token FROM lead_search_runs
                                   WHERE id = ${next.id}`)[0];
      assert.equal(row.status, "processing");
      assert.equal(row.lease_token, null);
      assert.equal((await runLeadSearch(env.ctx)).kind, "finished");
    } finally {
      await env.close();
    }
  },
);
