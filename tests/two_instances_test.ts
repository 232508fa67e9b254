/**
 * Two instances, as a load balancer runs them: two service processes (`deno run -A main.ts`, tests/service_child.ts)
 * on one Postgres database and one KV (a sqlite KV file both open through `KV_PATH`), each on its
 * own port with nothing in front, serve a mixed workload sent to both at once:
 *
 * - single name parses over a shared `name_parse` budget (more requests than the budget, split
 *   between the instances), and batches;
 * - finds against the fakes (tests/fakes/serve_fakes.ts): found, not found, company mode, and one
 *   request sent to both instances at the same moment under one Idempotency-Key;
 * - lead-search runs started on both, delivered by both instances' runners (Worker threads)
 *   racing for them.
 *
 * Then: every charge is exact (the ledger's charge and settle postings add up to what the
 * answers said they charged, the balance agrees, nothing is left reserved); the rate limit is
 * shared (the admitted parses of both instances together never exceed the budget, each refusal is
 * uncharged); no run is processed twice (each run claimed by exactly one runner, its leads
 * delivered once — positions 1..n, no person twice — one settle posting per page).
 *
 * Postgres only (`TEST_DATABASE_URL`): on the embedded default the database is a PGlite
 * directory that only one process can open, so two instances cannot share it; the test is then
 * reported as ignored. `TWO_INSTANCES_SHOW=1` prints the instances' logs.
 */
import assert from "node:assert/strict";
import { importDemoPeople } from "../domain/directory/import_demo_people.ts";
import { migrate } from "../domain/stores/migrate.ts";
import { createWorkspace } from "../domain/workspaces/create_workspace.ts";
import { startFakeWorld } from "./fakes/serve_fakes.ts";
import { DB_TEST, openTestDatabase } from "./harness.ts";
import { api, freePort, ServiceChild, until } from "./service_child.ts";

const USES_POSTGRES = Boolean(Deno.env.get("TEST_DATABASE_URL"));
const SHOW = Boolean(Deno.env.get("TWO_INSTANCES_SHOW"));
const SECRET = "two-instances-secret-0123456789abcdef0123456789";
const POINTS = 100_000;
const LEAD_PRICE = 2;
const PEOPLE = 200;
/** The shared `name_parse` budget, and how many single parses each instance is sent. */
const PARSE_BUDGET = 40;
const PARSES_PER_INSTANCE = 45;
const RUNS = 6;

// deno-lint-ignore no-explicit-any
type Body = any;

const SKIP_REASON = "needs TEST_DATABASE_URL: two processes cannot share one embedded PGlite";

Deno.test({
  name: "two instances on one Postgres and one KV: charges exact, limits shared, no run twice" +
    (USES_POSTGRES ? "" : ` (ignored: ${SKIP_REASON})`),
  ignore: !USES_POSTGRES,
  ...DB_TEST,
  fn: async () => {
    const pg = await openTestDatabase();
    await migrate(pg.sql);
    await importDemoPeople({ db: pg }, { people: PEOPLE, now: Date.now() });
    const { workspaceId, apiKey: key } = await createWorkspace({ db: pg }, {
      name: "two-instances",
      points: POINTS,
    });
    // One active run per workspace: each run has a workspace of its own.
    const leadWorkspaces: { apiKey: string }[] = [];
    for (let i = 0; i < RUNS; i++) {
      leadWorkspaces.push(
        await createWorkspace({ db: pg }, { name: `two-instances-leads-${i}`, points: 1000 }),
      );
    }
    const world = await startFakeWorld();
    const scratch = await Deno.makeTempDir({ prefix: "two-instances-" });
    const shared: Record<string, string> = {
      ...world.env,
      DATABASE_URL: pg.url!,
      // One KV for both: the same sqlite file (in production a KV Connect server, or Deploy's).
      KV_PATH: `${scratch}/shared-kv.sqlite3`,
      SVC_SECRET: SECRET,
      HOST: "127.0.0.1",
      LOG_REQUESTS: "false",
      PRICE_LEAD: String(LEAD_PRICE),
      RATE_LIMIT_ACCOUNT: "100000/60",
      // A window far longer than the test, so no window boundary falls inside it.
      RATE_LIMIT_NAME_PARSE: `${PARSE_BUDGET}/1000000`,
      RATE_LIMIT_LEAD_SEARCH: "1000/60",
      RATE_LIMIT_FIND: "1000/60",
      LEAD_SEARCH_POLL_MS: "50",
      LEAD_SEARCH_LEASE_SECONDS: "10",
      // A pause before each page, so the runs overlap and both runners are busy at once.
      LEAD_SEARCH_PAGE_DELAY_MS: "40",
    };
    const ports = [freePort(), freePort()];
    const instances = ports.map((port, i) =>
      new ServiceChild(`instance-${"ab"[i]}`, {
        ...shared,
        PORT: String(port),
        DATA_DIR: `${scratch}/data-${"ab"[i]}`,
      }, { show: SHOW })
    );
    const bases = ports.map((port) => `http://127.0.0.1:${port}`);
    /** The i-th request goes to instance i % 2. */
    const base = (i: number) => bases[i % 2];
    let reported = 0;
    const charged = (body: Body) => {
      const points = Number(body?.data?.pointsCharged ?? 0);
      reported += points;
      return points;
    };
    try {
      await Promise.all(instances.map((child, i) => child.waitHealthy(bases[i], 90_000)));
      for (const child of instances) {
        assert.equal(child.logged("kv ready")[0]?.kind, "file");
        assert.equal(child.logged("database ready")[0]?.kind, "postgres");
      }

      // --- the mixed workload, to both instances at once ---------------------------------------
      const parses = Array.from(
        { length: 2 * PARSES_PER_INSTANCE },
        (_, i) => () =>
          api(base(i), key, "/api/v1/name/parse", { body: { name: `Ada${i} Lovelace` } }),
      );
      const batches = Array.from(
        { length: 6 },
        (_, i) => () =>
          api(base(i), key, "/api/v1/name/parse/batch", {
            body: { names: ["Grace Hopper", "Tanaka Hiroshi", `Given${i} Family${i}`] },
            headers: { "Idempotency-Key": `two-instances-batch-${i}` },
          }),
      );
      const finds = [
        { name: "Grace Hopper", company: "acme.test" },
        { name: "Peter Gibbons", company: "https://www.initech.test/" },
        { name: "Ada Lovelace", company: "acme.test" },
        { mode: "company", name: "Peter Gibbons", company: "Initech" },
        { name: "Grace Hopper", company: "acme.test" },
        { name: "Nobody Here", company: "nomail.test" },
      ].map((body, i) => () => api(base(i), key, "/api/v1/find", { body }));
      // One find under one key, sent to both instances at the same moment: charged once.
      const sameKey = [0, 1].map((i) => () =>
        api(base(i), key, "/api/v1/find", {
          body: { name: "Grace Hopper", company: "acme.test" },
          headers: { "Idempotency-Key": "two-instances-same-key" },
        })
      );
      const starts = Array.from(
        { length: RUNS },
        (_, i) => () =>
          api(base(i), leadWorkspaces[i].apiKey, "/api/v1/lead-search", {
            body: { filters: {}, count: 30 + 10 * i },
            headers: { "Idempotency-Key": `two-instances-run-${i}` },
          }),
      );

      const started = performance.now();
      const tasks = [...starts, ...sameKey, ...finds, ...batches, ...parses];
      const answers: { status: number; body: Body }[] = new Array(tasks.length);
      // 16 requests in flight at a time across both instances.
      let next = 0;
      await Promise.all(Array.from({ length: 16 }, async () => {
        while (next < tasks.length) {
          const i = next++;
          answers[i] = await tasks[i]();
        }
      }));
      const at = (offset: number, length: number) => answers.slice(offset, offset + length);
      let offset = 0;
      const startAnswers = at(offset, RUNS);
      const sameKeyAnswers = at(offset += RUNS, 2);
      const findAnswers = at(offset += 2, finds.length);
      const batchAnswers = at(offset += finds.length, batches.length);
      const parseAnswers = at(offset += batches.length, parses.length);

      // Parses: the shared budget admits PARSE_BUDGET in all, whichever instance answered.
      const admitted = parseAnswers.filter((a) => a.status === 200);
      const refused = parseAnswers.filter((a) => a.status === 429);
      assert.equal(admitted.length + refused.length, parses.length, "only 200 or 429");
      for (const a of admitted) assert.equal(charged(a.body), 1);
      for (const a of refused) assert.equal(a.body?.data?.pointsCharged ?? 0, 0);
      assert.ok(
        admitted.length <= PARSE_BUDGET,
        `${admitted.length} parses admitted by both instances together, over a budget of ` +
          `${PARSE_BUDGET}`,
      );
      assert.ok(admitted.length > 0, "some parses admitted");
      const admittedBy = [0, 1].map((k) =>
        parseAnswers.filter((a, i) => i % 2 === k && a.status === 200).length
      );

      for (const a of batchAnswers) {
        assert.equal(a.status, 200, JSON.stringify(a.body));
        assert.equal(charged(a.body), 3);
      }

      for (const a of findAnswers) {
        assert.equal(a.status, 200, JSON.stringify(a.body));
        charged(a.body);
      }
      const [grace, peter, ada, company, graceAgain, nobody] = findAnswers.map((a) => a.body.data);
      assert.equal(grace.email, "grace.hopper@acme.test");
      assert.equal(grace.pointsCharged, 10);
      assert.equal(peter.email, "peter.gibbons@initech.test");
      // Every candidate rejected: a completed lookup (charged as such), nothing found.
      assert.equal(ada.found, false);
      assert.equal(company.found, true, JSON.stringify(company));
      assert.equal(company.pointsCharged, 12);
      assert.equal(graceAgain.email, "grace.hopper@acme.test");
      assert.equal(nobody.found, false);

      // The same key on both instances: one charge; the other is its replay or "in progress".
      for (const a of sameKeyAnswers) {
        assert.ok(a.status === 200 || a.status === 409, `${a.status} ${JSON.stringify(a.body)}`);
        charged(a.body);
      }
      const sameKeyCharges = sameKeyAnswers.map((a) => Number(a.body?.data?.pointsCharged ?? 0));
      assert.deepEqual(sameKeyCharges.sort((a, b) => a - b), [0, 10], "charged exactly once");

      // Lead search: every run completes, each claimed by one runner, its leads delivered once.
      const runIds: string[] = startAnswers.map((a) => {
        assert.equal(a.status, 200, JSON.stringify(a.body));
        assert.equal(a.body.data.pointsCharged, 0, "a start only reserves");
        return a.body.data.run.id;
      });
      const runs = await until("every run completed", 45_000, async () => {
        const views = await Promise.all(
          runIds.map((id, i) =>
            api(base(i + 1), leadWorkspaces[i].apiKey, `/api/v1/lead-search/runs/${id}`)
          ),
        );
        return views.every((v) => v.body.data.status === "completed")
          ? views.map((v) => v.body.data)
          : null;
      }, 100);
      const workloadMs = Math.round(performance.now() - started);
      const claimedBy = new Map<string, string[]>();
      for (const child of instances) {
        for (const record of child.logged("lead search claimed")) {
          const id = String(record.runId);
          claimedBy.set(id, [...(claimedBy.get(id) ?? []), child.label]);
        }
      }
      for (const [i, run] of runs.entries()) {
        const count = 30 + 10 * i;
        assert.equal(run.deliveredCount, count, `run ${run.id} delivered ${run.deliveredCount}`);
        assert.equal(run.creditsCharged, count * LEAD_PRICE);
        reported += run.creditsCharged;
        assert.equal(
          claimedBy.get(run.id)?.length,
          1,
          `run ${run.id} claimed by ${claimedBy.get(run.id)}`,
        );
        const results = await pg.sql<{ position: number; person_id: string; page: number }[]>`
          SELECT position, person_id, page FROM lead_search_results WHERE run_id = ${run.id}
           ORDER BY position`;
        assert.deepEqual(
          results.map((r) => r.position),
          Array.from({ length: count }, (_, k) => k + 1),
          "positions 1..n, each once",
        );
        assert.equal(new Set(results.map((r) => r.person_id)).size, count, "no person twice");
        const pages = new Set(results.map((r) => r.page)).size;
        const settles = await pg.sql<{ charge_key: string }[]>`
          SELECT e.charge_key FROM ledger_entries e JOIN lead_search_runs r
            ON r.reservation_id = e.reservation_id
           WHERE r.id = ${run.id} AND e.kind = 'settle'`;
        assert.equal(settles.length, pages, "one settle posting per page");
        assert.equal(
          new Set(settles.map((s) => s.charge_key)).size,
          pages,
          "no page charged twice",
        );
      }
      const runnersUsed = new Set([...claimedBy.values()].flat());

      // --- every charge exact --------------------------------------------------------------------
      const [ledger] = await pg.sql<{ n: string }[]>`
        SELECT coalesce(sum(amount), 0) AS n FROM ledger_entries
         WHERE kind IN ('charge', 'settle')`;
      assert.equal(Number(ledger.n), reported, "the ledger holds exactly what the answers said");
      let spent = 0;
      for (const [i, apiKey] of [key, ...leadWorkspaces.map((w) => w.apiKey)].entries()) {
        const points = await api(base(i), apiKey, "/api/v1/points");
        assert.equal(points.body.data.reserved, 0, "nothing left reserved");
        spent += points.body.data.granted - points.body.data.available;
      }
      assert.equal(spent, reported, "the balances moved by exactly what the answers said");
      const [main] = await pg.sql<{ n: string }[]>`
        SELECT coalesce(sum(amount), 0) AS n FROM ledger_entries
         WHERE workspace_id = ${workspaceId} AND kind IN ('charge', 'settle')`;
      assert.equal(
        Number(main.n),
        reported - runs.reduce((sum, run) => sum + run.creditsCharged, 0),
      );

      console.log(
        `two instances: ${tasks.length} requests + ${RUNS} runs in ${workloadMs} ms; ` +
          `parses admitted ` +
          `${admitted.length}/${PARSE_BUDGET} (a ${admittedBy[0]}, b ${admittedBy[1]}), ` +
          `${refused.length} refused; runs claimed by ${[...runnersUsed].join(" and ")}; ` +
          `${reported} points charged = ledger`,
      );

      // Both stop on SIGTERM.
      const statuses = await Promise.all(instances.map((child) => child.kill("SIGTERM")));
      assert.deepEqual(statuses.map((s) => s.code), [0, 0]);
    } catch (error) {
      if (!SHOW) {
        for (const child of instances) {
          console.error(`--- ${child.label}\n${child.output().slice(-3000)}`);
        }
      }
      throw error;
    } finally {
      for (const child of instances) child.killGroup();
      await Promise.allSettled(instances.map((child) => child.exited()));
      await world.close();
      await pg.drop();
      await Deno.remove(scratch, { recursive: true }).catch(() => {});
    }
  },
});
