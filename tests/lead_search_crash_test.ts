/**
 * Lead-search crash tests on the real service (main.ts as its own process, its runner on the
 * default Worker thread):
 *
 * 1. A run is started over HTTP; once some pages are delivered the process is SIGKILLed
 *    mid-run, restarted on the same DATA_DIR (embedded PGlite) or database (TEST_DATABASE_URL),
 *    and once the dead runner's lease expires the new process takes the run over; stopped
 *    gracefully (SIGTERM) two pages later, it hands the run back, and a third process completes
 *    it: every lead delivered exactly once, each page charged once under its own charge key, the
 *    reservation settled and released to the point.
 * 2. Postgres only: two service processes on one database (different ports and DATA_DIRs, one
 *    SVC_SECRET) race for the runs of several workspaces; one of them is SIGKILLed mid-way and
 *    the other takes its run over; then continuations run on both. No page is charged twice, no
 *    lead is delivered twice in a chain, and every balance adds up.
 *
 * Runs are slowed with `LEAD_SEARCH_PAGE_DELAY_MS` (workers/lead_search_runner.ts, a test-only
 * pause before each page) so a kill lands mid-run. `CRASH_TEST_STDERR=1` shows the processes'
 * logs (stdout, JSON lines) and stderr.
 */
import assert from "node:assert/strict";
import { importDemoPeople } from "../domain/directory/import_demo_people.ts";
import { type Database, openDatabase, type Sql } from "../domain/stores/database.ts";
import { migrate } from "../domain/stores/migrate.ts";
import { createWorkspace } from "../domain/workspaces/create_workspace.ts";
import { DB_TEST, openTestDatabase } from "./harness.ts";
import { freePort, ServiceChild, until } from "./service_child.ts";

const KEY = "svc_sk_" + "1e".repeat(24);
const SECRET = "lead-search-crash-secret-0123456789abcdef0123";
const PRICE = 2;
const SHOW = Boolean(Deno.env.get("CRASH_TEST_STDERR"));
const USES_POSTGRES = Boolean(Deno.env.get("TEST_DATABASE_URL"));

/** The service as its own process (`deno run -A main.ts`), its log lines kept for the test to read. */
function startService(label: string, env: Record<string, string>): ServiceChild {
  return new ServiceChild(label, { ...env, LOG_REQUESTS: "false" }, {
    clearEnv: false,
    show: SHOW,
  });
}

function serviceEnv(
  dataDir: string,
  port: number,
  databaseUrl: string | null,
  extra: Record<string, string> = {},
): Record<string, string> {
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    SVC_SECRET: SECRET,
    SVC_BOOTSTRAP_KEY: KEY,
    SVC_BOOTSTRAP_POINTS: "10000",
    PRICE_LEAD: String(PRICE),
    RATE_LIMIT_ACCOUNT: "100000/60",
    RATE_LIMIT_LEAD_SEARCH: "1000/60",
    // A dead runner's claim ends 2 s after its last page; a live one renews it every page.
    LEAD_SEARCH_LEASE_SECONDS: "2",
    LEAD_SEARCH_POLL_MS: "100",
    ...extra,
  };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  return env;
}

async function seedDirectory(sql: Sql, people: number): Promise<void> {
  await importDemoPeople({ db: { sql } }, { people, now: Date.now() });
}

async function api(
  base: string,
  apiKey: string,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? "GET",
    headers: {
      Authorization: `Bearer ${apiKey}`,
      ...(init.body !== undefined ? { "Content-Type": "application/json" } : {}),
      ...init.headers,
    },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  });
  return { status: res.status, body: await res.json() };
}

interface RunView {
  id: string;
  status: string;
  count: number;
  deliveredCount: number;
  creditsCharged: number;
}

async function startRun(
  base: string,
  apiKey: string,
  body: Record<string, unknown>,
): Promise<RunView> {
  const res = await api(base, apiKey, "/api/v1/lead-search", {
    method: "POST",
    body,
    headers: { "Idempotency-Key": crypto.randomUUID() },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.data.reason, null);
  assert.equal(res.body.data.run.status, "queued");
  return res.body.data.run;
}

async function pollRun(base: string, apiKey: string, runId: string): Promise<RunView> {
  const res = await api(base, apiKey, `/api/v1/lead-search/runs/${runId}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data;
}

interface Lead {
  position: number;
  name: string;
  networkUrl: string | null;
}

/** Every delivered lead of a run, through the API's pages of 25. */
async function allLeads(base: string, apiKey: string, runId: string): Promise<Lead[]> {
  const leads: Lead[] = [];
  for (let page: number | null = 1; page !== null;) {
    const res = await api(base, apiKey, `/api/v1/lead-search/runs/${runId}?page=${page}`);
    assert.equal(res.status, 200);
    const data = res.body.data;
    assert.ok(data.results.length <= 25);
    if (data.nextPage !== null) assert.equal(data.results.length, 25, "a full page before more");
    for (const lead of data.results) {
      assert.deepEqual(Object.keys(lead).sort(), [
        "company",
        "location",
        "name",
        "networkUrl",
        "position",
        "title",
      ]);
      leads.push(lead);
    }
    page = data.nextPage;
  }
  return leads;
}

/** Positions 1..deliveredCount, each once; no lead (network URL) twice. */
function assertDeliveredOnce(leads: Lead[], deliveredCount: number): void {
  assert.deepEqual(
    leads.map((l) => l.position),
    Array.from({ length: deliveredCount }, (_, i) => i + 1),
    "positions are 1..deliveredCount, contiguous",
  );
  const urls = leads.map((l) => l.networkUrl);
  assert.ok(urls.every((u) => typeof u === "string" && u.length > 0), "every lead has a URL");
  assert.equal(new Set(urls).size, urls.length, "no lead delivered twice");
}

interface RunRowCheck {
  id: string;
  workspace_id: string;
  status: string;
  delivered_count: number;
  credits_charged: string;
  lead_price: number;
  reservation_id: string;
  chain_id: string;
  pages: number;
  lease_token: string | null;
}

/**
 * What the database says of a finished run: its results, the ledger postings of its reservation
 * (one reserve, one settle per page under `lead-search:<run>:page:<n>`, one release) and that
 * they add up to what the run says it charged.
 */
async function assertRunBooks(sql: Sql, runId: string): Promise<RunRowCheck> {
  const [run] = await sql<RunRowCheck[]>`SELECT * FROM lead_search_runs WHERE id = ${runId}`;
  assert.ok(run, `run ${runId} exists`);
  assert.equal(run.status, "completed");
  assert.equal(run.lease_token, null, "a finished run holds no lease");
  assert.equal(run.lead_price, PRICE);
  const charged = Number(run.credits_charged);
  assert.equal(charged, run.delivered_count * PRICE, "creditsCharged = delivered × price");

  const results = await sql<{ position: number; person_id: string; page: number }[]>`
    SELECT position, person_id, page FROM lead_search_results WHERE run_id = ${runId}
     ORDER BY position`;
  assert.equal(results.length, run.delivered_count);
  assert.equal(new Set(results.map((r) => r.person_id)).size, results.length, "people once");
  const perPage = new Map<number, number>();
  for (const r of results) perPage.set(r.page, (perPage.get(r.page) ?? 0) + 1);
  assert.deepEqual(
    [...perPage.keys()].sort((a, b) => a - b),
    Array.from({ length: run.pages }, (_, i) => i + 1),
    "pages 1..n",
  );

  const entries = await sql<{ kind: string; amount: string; charge_key: string | null }[]>`
    SELECT kind, amount, charge_key FROM ledger_entries
     WHERE reservation_id = ${run.reservation_id} ORDER BY id`;
  const of = (kind: string) => entries.filter((e) => e.kind === kind);
  const settles = of("settle");
  assert.equal(settles.length, run.pages, "one settle posting per delivered page");
  assert.deepEqual(
    settles.map((e) => e.charge_key).sort(),
    Array.from({ length: run.pages }, (_, i) => `lead-search:${runId}:page:${i + 1}`).sort(),
    "one charge key per page, none twice",
  );
  for (const e of settles) {
    const page = Number(e.charge_key!.split(":").pop());
    assert.equal(Number(e.amount), perPage.get(page)! * PRICE, `page ${page} charged its leads`);
  }
  assert.equal(settles.reduce((s, e) => s + Number(e.amount), 0), charged, "settles = charged");
  const reserve = of("reserve");
  const release = of("release");
  assert.equal(reserve.length, 1);
  assert.equal(release.length, 1, "released once");
  assert.equal(
    Number(reserve[0].amount),
    charged + Number(release[0].amount),
    "reserved = settled + released",
  );
  const [reservation] = await sql<{ state: string; amount: string; settled: string }[]>`
    SELECT state, amount, settled FROM reservations WHERE id = ${run.reservation_id}`;
  assert.equal(reservation.state, "closed");
  assert.equal(Number(reservation.settled), charged);
  return run;
}

/** A workspace's balance row agrees with its ledger: granted − settled − charged, none reserved. */
async function assertBalanceBooks(sql: Sql, workspaceId: string, granted: number) {
  const [balance] = await sql<{ available: string; reserved: string; granted: string }[]>`
    SELECT available, reserved, granted FROM balances WHERE workspace_id = ${workspaceId}`;
  const [spent] = await sql<{ n: string }[]>`
    SELECT coalesce(sum(amount), 0) AS n FROM ledger_entries
     WHERE workspace_id = ${workspaceId} AND kind IN ('settle', 'charge')`;
  const [open] = await sql<{ n: string }[]>`
    SELECT count(*) AS n FROM reservations WHERE workspace_id = ${workspaceId} AND state = 'open'`;
  assert.equal(Number(open.n), 0, "no reservation left open");
  assert.equal(Number(balance.granted), granted);
  assert.equal(Number(balance.reserved), 0);
  assert.equal(Number(balance.available), granted - Number(spent.n));
  return Number(spent.n);
}

// 1. ------------------------------------------------------------------------------------------

// 690 people: 27 full pages and one of 15, then an empty search completes the run (count 1000
// asks for more than there is, so the release of what was not used is checked too).
const PEOPLE = 690;
const PAGES = Math.ceil(PEOPLE / 25);

Deno.test(
  "lead search crash: SIGKILL mid-run, restart, SIGTERM hands back, the run completes — every lead delivered and charged once",
  DB_TEST,
  async () => {
    const dataDir = await Deno.makeTempDir();
    const pg = USES_POSTGRES ? await openTestDatabase() : null;
    // The directory is filled before the service starts: the embedded database's directory
    // can only be opened while no other process owns it.
    const seedDb: Database = pg ??
      await openDatabase({ url: null, pgliteDir: `${dataDir}/pglite` });
    await migrate(seedDb.sql);
    await seedDirectory(seedDb.sql, PEOPLE);
    if (!pg) await seedDb.close();

    const port = freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = serviceEnv(dataDir, port, pg?.url ?? null, {
      LEAD_SEARCH_PAGE_DELAY_MS: "60",
    });
    let service = startService("first", env);
    let booksDb: Database | null = null;
    try {
      await service.waitHealthy(base);
      // The default runner: a Worker thread, on the embedded database as on Postgres.
      assert.deepEqual(service.logged("lead-search runner started").map((r) => r.runner), [
        "worker",
      ]);
      const started = await api(base, KEY, "/api/v1/lead-search", {
        method: "POST",
        body: { filters: {}, count: 1000 },
        headers: { "Idempotency-Key": "crash-run-1" },
      });
      assert.equal(started.status, 200, JSON.stringify(started.body));
      const runId: string = started.body.data.run.id;
      assert.deepEqual(started.body.data.balance, {
        available: 10000 - 1000 * PRICE,
        reserved: 1000 * PRICE,
        granted: 10000,
      });

      // The kill is driven by the run, not a timer: two pages in, still processing.
      const before = await until("two pages delivered", 20_000, async () => {
        const run = await pollRun(base, KEY, runId);
        return run.deliveredCount >= 50 ? run : null;
      }, 10);
      assert.equal(before.status, "processing");
      assert.ok(before.deliveredCount < PEOPLE, "the run is mid-way");
      await service.kill("SIGKILL");
      const claimsBefore = service.logged("lead search claimed").length;
      assert.equal(claimsBefore, 1);

      service = startService("restarted", env);
      await service.waitHealthy(base);
      const after = await pollRun(base, KEY, runId);
      console.log(
        `delivered before the kill: ≥ ${before.deliveredCount}; at restart: ${after.deliveredCount} of ${PEOPLE}`,
      );
      assert.ok(after.deliveredCount >= before.deliveredCount, "nothing delivered was lost");
      assert.ok(after.deliveredCount < PEOPLE, "the crash interrupted the run");
      assert.equal(after.creditsCharged, after.deliveredCount * PRICE);
      // A retried start with the same key answers the same run, uncharged.
      const retried = await api(base, KEY, "/api/v1/lead-search", {
        method: "POST",
        body: { filters: {}, count: 1000 },
        headers: { "Idempotency-Key": "crash-run-1" },
      });
      assert.equal(retried.status, 200);
      assert.equal(retried.body.data.run.id, runId);
      assert.equal(retried.body.data.replay, true);

      // Once the dead runner's lease has expired the restarted one takes the run over. Two
      // pages later it is stopped gracefully (SIGTERM): it finishes its page and hands the run
      // back (lease cleared), so the next process need not wait for a lease to expire.
      const resumed = await until("the restarted process delivering", 20_000, async () => {
        const run = await pollRun(base, KEY, runId);
        return run.deliveredCount >= after.deliveredCount + 50 ? run : null;
      }, 10);
      assert.equal(resumed.status, "processing");
      assert.ok(
        service.logged("lead search claimed").some((r) => r.runId === runId),
        "the restarted process took the run over",
      );
      const terminated = await service.kill("SIGTERM");
      assert.equal(terminated.code, 0, "a graceful stop");
      assert.ok(
        service.logged("lead search handed back").some((r) => r.runId === runId),
        "the stopping process handed the run back",
      );
      {
        const peek = pg ?? await openDatabase({ url: null, pgliteDir: `${dataDir}/pglite` });
        const [row] = await peek.sql<{ status: string; lease_token: string | null }[]>`
          SELECT status, lease_token FROM lead_search_runs WHERE id = ${runId}`;
        if (peek !== pg) await peek.close();
        assert.equal(row.status, "processing");
        assert.equal(row.lease_token, null, "handed back: no lease held");
      }

      service = startService("third", env);
      await service.waitHealthy(base);
      const done = await until("the run completed", 30_000, async () => {
        const run = await pollRun(base, KEY, runId);
        return run.status === "completed" ? run : null;
      }, 100);
      assert.ok(
        service.logged("lead search claimed").some((r) => r.runId === runId),
        "the third process finished the run",
      );
      assert.equal(done.deliveredCount, PEOPLE);
      assert.equal(done.creditsCharged, PEOPLE * PRICE);
      assertDeliveredOnce(await allLeads(base, KEY, runId), done.deliveredCount);

      const points = await api(base, KEY, "/api/v1/points");
      assert.equal(points.body.data.granted, 10000);
      assert.equal(points.body.data.reserved, 0, "the reservation is released");
      assert.equal(points.body.data.available, 10000 - PEOPLE * PRICE);

      // The books, read from the database itself once the service has stopped (PGlite has one
      // owner; Postgres could be read at any time).
      const stopped = await service.kill("SIGTERM");
      assert.equal(stopped.code, 0, "a graceful stop");
      booksDb = pg ?? await openDatabase({ url: null, pgliteDir: `${dataDir}/pglite` });
      const run = await assertRunBooks(booksDb.sql, runId);
      assert.equal(run.pages, PAGES);
      const spent = await assertBalanceBooks(booksDb.sql, run.workspace_id, 10000);
      assert.equal(spent, PEOPLE * PRICE);
    } finally {
      await service.kill("SIGKILL");
      if (booksDb && booksDb !== pg) await booksDb.close();
      await pg?.drop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
);

// 2. ------------------------------------------------------------------------------------------

const RACE_PEOPLE = 400;
const RACE_WORKSPACES = 6;
const RACE_FIRST_COUNT = 300; // 12 pages; the continuation delivers the other 100 (4 pages)
const RACE_POINTS = 5000;

Deno.test(
  "lead search crash: two processes on one Postgres race for the runs, one is killed — no page charged twice, no lead delivered twice",
  { ...DB_TEST, ignore: !USES_POSTGRES },
  async () => {
    const pg = await openTestDatabase();
    const dirs = [await Deno.makeTempDir(), await Deno.makeTempDir()];
    await migrate(pg.sql);
    await seedDirectory(pg.sql, RACE_PEOPLE);
    const workspaces: Awaited<ReturnType<typeof createWorkspace>>[] = [];
    for (let i = 0; i < RACE_WORKSPACES; i++) {
      workspaces.push(
        await createWorkspace({ db: pg }, { name: `race-${i}`, points: RACE_POINTS }),
      );
    }
    const ports = [freePort(), freePort()];
    const bases = ports.map((p) => `http://127.0.0.1:${p}`);
    const envs = [0, 1].map((i) =>
      serviceEnv(dirs[i], ports[i], pg.url, { LEAD_SEARCH_PAGE_DELAY_MS: "40" })
    );
    const processes = [startService("A", envs[0]), startService("B", envs[1])];
    const allProcesses = [...processes];
    try {
      await Promise.all(processes.map((p, i) => p.waitHealthy(bases[i])));

      // Every workspace starts a run, alternately through A and B; a second start is refused.
      const firstRuns = await Promise.all(
        workspaces.map((ws, i) =>
          startRun(bases[i % 2], ws.apiKey, {
            filters: {},
            count: RACE_FIRST_COUNT,
          })
        ),
      );
      const refused = await api(bases[1], workspaces[0].apiKey, "/api/v1/lead-search", {
        method: "POST",
        body: { count: 5 },
        headers: { "Idempotency-Key": crypto.randomUUID() },
      });
      assert.equal(refused.status, 409);
      assert.equal(refused.body.error.code, "run_already_active");

      // B dies without warning while its run (or runs) are part-delivered: A takes them over
      // once the lease expires.
      await until("a run of B's part-delivered", 20_000, async () => {
        const mine = new Set(processes[1].logged("lead search claimed").map((r) => r.runId));
        for (const [i, run] of firstRuns.entries()) {
          if (!mine.has(run.id)) continue;
          const polled = await pollRun(bases[0], workspaces[i].apiKey, run.id);
          if (polled.status === "processing" && polled.deliveredCount > 0) return true;
        }
        return false;
      });
      await processes[1].kill("SIGKILL");
      const claimedByB = new Set(processes[1].logged("lead search claimed").map((r) => r.runId));
      console.log(`B claimed ${claimedByB.size} run(s) before it was killed`);

      await until("every first run completed", 40_000, async () => {
        const runs = await Promise.all(
          firstRuns.map((r, i) => pollRun(bases[0], workspaces[i].apiKey, r.id)),
        );
        return runs.every((r) => r.status === "completed");
      }, 100);
      for (const runId of claimedByB) {
        const polled = firstRuns.findIndex((r) => r.id === runId);
        if (polled < 0) continue;
        const finishedByB = processes[1].logged("lead search finished")
          .some((r) => r.runId === runId);
        if (!finishedByB) {
          assert.ok(
            processes[0].logged("lead search claimed").some((r) => r.runId === runId),
            `A took over ${runId}`,
          );
        }
      }

      // B comes back; every workspace continues its run, alternately through B and A.
      processes[1] = startService("B again", envs[1]);
      allProcesses.push(processes[1]);
      await processes[1].waitHealthy(bases[1]);
      const continuations = await Promise.all(
        workspaces.map((ws, i) =>
          startRun(bases[(i + 1) % 2], ws.apiKey, {
            count: 1000,
            continueFromRunId: firstRuns[i].id,
          })
        ),
      );
      await until("every continuation completed", 40_000, async () => {
        const runs = await Promise.all(
          continuations.map((r, i) => pollRun(bases[i % 2], workspaces[i].apiKey, r.id)),
        );
        return runs.every((r) => r.status === "completed");
      }, 100);

      for (const [i, ws] of workspaces.entries()) {
        const first = await pollRun(bases[0], ws.apiKey, firstRuns[i].id);
        const next = await pollRun(bases[1], ws.apiKey, continuations[i].id);
        assert.equal(first.deliveredCount, RACE_FIRST_COUNT);
        assert.equal(next.deliveredCount, RACE_PEOPLE - RACE_FIRST_COUNT);
        const leads = [
          ...await allLeads(bases[0], ws.apiKey, firstRuns[i].id),
          ...await allLeads(bases[1], ws.apiKey, continuations[i].id),
        ];
        assertDeliveredOnce(
          leads.slice(0, first.deliveredCount),
          first.deliveredCount,
        );
        assertDeliveredOnce(leads.slice(first.deliveredCount), next.deliveredCount);
        const urls = new Set(leads.map((l) => l.networkUrl));
        assert.equal(urls.size, RACE_PEOPLE, "the chain delivered everyone exactly once");

        await assertRunBooks(pg.sql, firstRuns[i].id);
        await assertRunBooks(pg.sql, continuations[i].id);
        const spent = await assertBalanceBooks(pg.sql, ws.workspaceId, RACE_POINTS);
        assert.equal(spent, RACE_PEOPLE * PRICE);
        const points = await api(bases[i % 2], ws.apiKey, "/api/v1/points");
        assert.equal(points.body.data.available, RACE_POINTS - RACE_PEOPLE * PRICE);
        assert.equal(points.body.data.reserved, 0);
      }

      // Database-wide: no charge key twice, one settle per delivered page of every run.
      const [dupes] = await pg.sql<{ n: string }[]>`
        SELECT count(*) AS n FROM (
          SELECT charge_key FROM ledger_entries WHERE charge_key IS NOT NULL
           GROUP BY charge_key HAVING count(*) > 1) d`;
      assert.equal(Number(dupes.n), 0, "no charge key posted twice");
      const [pages] = await pg.sql<
        { settles: string; pages: string; charged: string; sum: string }[]
      >`
        SELECT (SELECT count(*) FROM ledger_entries WHERE kind = 'settle') AS settles,
               (SELECT sum(pages) FROM lead_search_runs) AS pages,
               (SELECT sum(credits_charged) FROM lead_search_runs) AS charged,
               (SELECT sum(amount) FROM ledger_entries WHERE kind = 'settle') AS sum`;
      assert.equal(Number(pages.settles), Number(pages.pages));
      assert.equal(Number(pages.sum), Number(pages.charged));
      assert.equal(Number(pages.charged), RACE_WORKSPACES * RACE_PEOPLE * PRICE);

      // Which process did what (informational: the claims race; a finish is logged once).
      const finishes = allProcesses.flatMap((p) =>
        p.logged("lead search finished").map((r) => r.runId)
      );
      assert.equal(new Set(finishes).size, finishes.length, "no run finished twice");
      for (const p of allProcesses) {
        console.log(
          `${p.label}: ${p.logged("lead search claimed").length} claims, ${
            p.logged("lead search finished").length
          } runs finished`,
        );
      }
    } finally {
      for (const p of allProcesses) await p.kill("SIGKILL");
      await pg.drop();
      for (const dir of dirs) await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
);

// 3. ------------------------------------------------------------------------------------------

Deno.test(
  "lead search crash: two processes whose leases run out mid-page steal runs from each other — a runner that lost its lease neither delivers nor bills",
  { ...DB_TEST, ignore: !USES_POSTGRES },
  async () => {
    const pg = await openTestDatabase();
    const dirs = [await Deno.makeTempDir(), await Deno.makeTempDir()];
    await migrate(pg.sql);
    const people = 125; // 5 pages a run
    await seedDirectory(pg.sql, people);
    const workspaces: Awaited<ReturnType<typeof createWorkspace>>[] = [];
    for (let i = 0; i < 3; i++) {
      workspaces.push(await createWorkspace({ db: pg }, { name: `steal-${i}`, points: 1000 }));
    }
    const ports = [freePort(), freePort()];
    const bases = ports.map((p) => `http://127.0.0.1:${p}`);
    // A page takes the 150 ms pause and its search and delivery; the claim lasts 150 ms, so it
    // has always run out when the page is recorded. The idle process (looking every 20 ms)
    // often claims the run in that window while its holder is still working on it; the holder
    // then finds its lease gone and writes nothing, and the thief delivers the page instead.
    const processes = [0, 1].map((i) =>
      startService(
        `steal-${i}`,
        serviceEnv(dirs[i], ports[i], pg.url, {
          LEAD_SEARCH_PAGE_DELAY_MS: "150",
          LEAD_SEARCH_LEASE_SECONDS: "0.15",
          LEAD_SEARCH_POLL_MS: "20",
        }),
      )
    );
    try {
      await Promise.all(processes.map((p, i) => p.waitHealthy(bases[i])));
      // One run at a time, so the other process is idle and looking while a page runs long.
      const runs: RunView[] = [];
      for (const [i, ws] of workspaces.entries()) {
        const run = await startRun(bases[i % 2], ws.apiKey, { filters: {}, count: 250 });
        runs.push(run);
        await until(`run ${i} completed`, 20_000, async () => {
          const polled = await pollRun(bases[0], ws.apiKey, run.id);
          return polled.status === "completed";
        }, 50);
      }
      for (const [i, ws] of workspaces.entries()) {
        const run = await pollRun(bases[1], ws.apiKey, runs[i].id);
        assert.equal(run.deliveredCount, people);
        assertDeliveredOnce(await allLeads(bases[0], ws.apiKey, runs[i].id), people);
        await assertRunBooks(pg.sql, runs[i].id);
        assert.equal(await assertBalanceBooks(pg.sql, ws.workspaceId, 1000), people * PRICE);
      }
      const claims = processes.map((p) => p.logged("lead search claimed").length);
      const finishes = processes.flatMap((p) =>
        p.logged("lead search finished").map((r) => r.runId)
      );
      assert.equal(finishes.length, runs.length, "every run finished once");
      assert.equal(new Set(finishes).size, runs.length);
      console.log(
        `claims: ${claims.join(" + ")} for ${runs.length} runs (${
          claims[0] + claims[1] - runs.length
        } takeovers of a live runner's expired lease)`,
      );
    } finally {
      for (const p of processes) await p.kill("SIGKILL");
      await pg.drop();
      for (const dir of dirs) await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
);
