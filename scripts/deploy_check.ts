/**
 * `deno task deploy:check`: runs the service the way Deno Deploy would, and exercises every
 * operation once over HTTP.
 *
 * - The service is `deno run -A main.ts` from the project directory, no other flag (no
 *   `--unstable-*`: deno.json enables them), with only the variables a Deploy app would have:
 *   the platform's own (`DENO_DEPLOYMENT_ID`, `DENO_DEPLOY`, `DENO_DEPLOY_ORG_ID`/`_SLUG`,
 *   `DENO_DEPLOY_APP_ID`/`_SLUG`, `DENO_DEPLOY_BUILD_ID`, `DENO_TIMELINE`, `DENO_REGION`), a
 *   linked database's `DATABASE_URL` (a fresh database on the local Postgres that this script
 *   creates and drops), and the app's settings (`SVC_SECRET`, bootstrap key and points, the
 *   providers' URLs, `VERIFIER_URL`/`VERIFIER_SECRET`). `DATA_DIR` points at a path that does not
 *   exist: the check fails if the service creates it (nothing may be written to an instance's
 *   disk). KV is `Deno.openKv()` with no argument, the platform's.
 * - Providers are the fakes of `tests/fakes/serve_fakes.ts`; find goes through a remote verifier
 *   (`verifier.ts`, in this process) as on Deploy, where port 25 is not promised.
 * - A second instance on the same database and KV has no remote verifier and dials port 25: a
 *   mail host that refuses and one that never answers must both give `verification-unavailable`
 *   quickly and uncharged.
 * - Starting in Deploy mode without `DATABASE_URL`, or without `SVC_SECRET`, must fail at once
 *   with a message naming it.
 *
 * One line per check, then `N passed, N failed`; exit 1 on any failure. Postgres: the server of
 * `DEPLOY_CHECK_POSTGRES_URL`, else `CI_POSTGRES_URL`, else postgres://postgres@127.0.0.1:5432
 * (a database `test` must exist there to connect to). `DEPLOY_CHECK_SHOW=1` prints the
 * services' logs.
 */
import { createThrowawayDatabase, type ThrowawayDatabase } from "../tests/throwaway_database.ts";
import postgres from "postgres";
import { demoPeople } from "../domain/directory/demo_people.ts";
import { importPeople, parseImportRecord } from "../domain/directory/import_people.ts";
import { silentLogger } from "../domain/shared/logger.ts";
import { createWorkspace } from "../domain/workspaces/create_workspace.ts";
import { startVerifier } from "../verifier.ts";
import { startFakeDns } from "../tests/fakes/dns_server.ts";
import { startFakeWorld } from "../tests/fakes/serve_fakes.ts";
import { api, freePort, ServiceChild, sleep, until } from "../tests/service_child.ts";

const SHOW = Boolean(Deno.env.get("DEPLOY_CHECK_SHOW"));
const SERVER_URL = (Deno.env.get("DEPLOY_CHECK_POSTGRES_URL") ?? Deno.env.get("CI_POSTGRES_URL") ??
  "postgres://postgres@127.0.0.1:5432").replace(/\/$/, "");
const KEY = "svc_sk_" + "d3".repeat(24);
const POINTS = 100_000;
const LEAD_PRICE = 2;
const PEOPLE = 300;

let passed = 0;
let failed = 0;

/** Runs one check: a line `ok   name (detail)` or `FAIL name: why`. */
async function check(
  name: string,
  body: () => Promise<string | void> | string | void,
): Promise<boolean> {
  const started = performance.now();
  try {
    const detail = await body();
    const ms = Math.round(performance.now() - started);
    console.log(`ok   ${name}${detail ? ` — ${detail}` : ""} (${ms} ms)`);
    passed++;
    return true;
  } catch (error) {
    console.log(`FAIL ${name}: ${(error as Error).message}`);
    failed++;
    return false;
  }
}

function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const brief = (value: unknown) => JSON.stringify(value).slice(0, 600);

function deployPlatformEnv(): Record<string, string> {
  const id = crypto.randomUUID().slice(0, 8);
  return {
    DENO_DEPLOYMENT_ID: `deploycheck-${id}`,
    DENO_DEPLOY: "true",
    DENO_DEPLOY_ORG_ID: `org-${id}`,
    DENO_DEPLOY_ORG_SLUG: "deploy-check",
    DENO_DEPLOY_APP_ID: `app-${id}`,
    DENO_DEPLOY_APP_SLUG: "contact-data-service",
    DENO_DEPLOY_BUILD_ID: `build-${id}`,
    DENO_TIMELINE: "production",
    DENO_REGION: "local",
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

// --- setup -------------------------------------------------------------------------------------

let database: ThrowawayDatabase;
try {
  database = await createThrowawayDatabase(`${SERVER_URL}/test`, "svc_deploy_check_");
} catch (error) {
  console.log(`FAIL create a database on ${SERVER_URL}: ${(error as Error).message}`);
  console.log("0 passed, 1 failed");
  Deno.exit(1);
}
const databaseUrl = database.url;
const sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });
const scratch = await Deno.makeTempDir({ prefix: "deploy-check-" });
const dataDir = `${scratch}/data-dir-that-must-not-appear`;
const world = await startFakeWorld();
const verifierSecret = "deploy-check-verifier-secret-0123456789";
const verifier = await startVerifier({
  ...world.env,
  HOST: "127.0.0.1",
  VERIFIER_PORT: "0",
  VERIFIER_SECRET: verifierSecret,
  KV_PATH: ":memory:",
}, silentLogger);
// The second instance's mail hosts: one refuses on port 25, one never answers (TEST-NET-1).
const port25Dns = await startFakeDns({
  "refuses.test": { mx: [{ preference: 10, exchange: "mx.refuses.test" }] },
  "mx.refuses.test": { a: ["127.0.0.1"] },
  "blackhole.test": { mx: [{ preference: 10, exchange: "mx.blackhole.test" }] },
  "mx.blackhole.test": { a: ["192.0.2.1"] },
});

const platform = deployPlatformEnv();
const appEnv: Record<string, string> = {
  ...platform,
  DATABASE_URL: databaseUrl,
  SVC_SECRET: "deploy-check-secret-0123456789abcdef0123456789abcdef",
  SVC_BOOTSTRAP_KEY: KEY,
  SVC_BOOTSTRAP_POINTS: String(POINTS),
  DATA_DIR: dataDir,
  HOST: "127.0.0.1",
  PRICE_LEAD: String(LEAD_PRICE),
  LEAD_SEARCH_POLL_MS: "100",
  // A pause before each lead-search page (a test-only setting), so a run can be cancelled mid-way.
  LEAD_SEARCH_PAGE_DELAY_MS: "150",
  LOG_REQUESTS: "false",
};
const mainPort = freePort();
const secondPort = freePort();
const main = new ServiceChild("deploy", {
  ...appEnv,
  ...world.env,
  PORT: String(mainPort),
  VERIFIER_URL: `http://127.0.0.1:${verifier.server.addr.port}`,
  VERIFIER_SECRET: verifierSecret,
}, { show: SHOW });
const base = `http://127.0.0.1:${mainPort}`;
let second: ServiceChild | null = null;
const secondBase = `http://127.0.0.1:${secondPort}`;

/** What the answers said was charged, to compare with the ledger at the end. */
let reportedCharges = 0;
const charged = (body: { data?: { pointsCharged?: number } }) => {
  reportedCharges += body?.data?.pointsCharged ?? 0;
  return body?.data?.pointsCharged ?? 0;
};

try {
  const up = await check(
    "starts with `deno run -A main.ts` in Deploy mode on Postgres",
    async () => {
      await main.waitHealthy(base, 90_000);
      const health = await api(base, "", "/healthz");
      expect(health.body?.database?.kind === "postgres", `healthz: ${brief(health.body)}`);
      expect(
        main.logged("running on Deno Deploy").length === 1,
        "no 'running on Deno Deploy' line",
      );
      return `healthz ${brief(health.body)}`;
    },
  );
  if (!up) throw new Error("the service did not start; the other checks cannot run");

  await check(
    "Deploy mode: platform KV, inline runner driven from cron, plain Deno.serve, remote verifier",
    () => {
      const kv = main.logged("kv ready")[0];
      expect(kv?.kind === "platform", `kv: ${brief(kv)}`);
      const runner = main.logged("lead-search runner started")[0];
      expect(
        runner?.runner === "inline" && runner?.drivenFromCron === true,
        `runner: ${brief(runner)}`,
      );
      const http = main.logged("http server ready")[0];
      expect(http?.mode === "deno-serve", `http: ${brief(http)}`);
      const lookups = main.logged("lookups ready")[0];
      expect(lookups?.verifier === "remote", `lookups: ${brief(lookups)}`);
      const bootstrap = main.logged("bootstrap workspace ready")[0];
      expect(bootstrap?.created === true, `bootstrap: ${brief(bootstrap)}`);
    },
  );

  // A second instance on the same database and the same (platform) KV, without a remote verifier.
  second = new ServiceChild("deploy-2", {
    ...appEnv,
    ...world.env,
    PORT: String(secondPort),
    VERIFY_DNS_SERVER: port25Dns.address,
    VERIFY_SMTP_PORT: "",
    VERIFY_TLS_CA_FILE: "",
    // The first instance ensured the bootstrap workspace; this one finds it.
    SVC_BOOTSTRAP_KEY: "",
    SVC_BOOTSTRAP_POINTS: "",
  }, { show: SHOW });

  await check("GET /api/v1/points", async () => {
    const res = await api(base, KEY, "/api/v1/points");
    expect(res.status === 200, `${res.status} ${brief(res.body)}`);
    expect(res.body.data.available === POINTS, `available ${res.body.data.available}`);
    return `available ${res.body.data.available}`;
  });

  await check("GET /api/v1/openapi.json", async () => {
    const res = await api(base, "", "/api/v1/openapi.json");
    expect(res.status === 200, `${res.status}`);
    expect(String(res.body.openapi).startsWith("3.1"), `openapi ${res.body.openapi}`);
    const paths = Object.keys(res.body.paths ?? {});
    expect(paths.includes("/api/v1/find"), `paths ${paths.join(", ")}`);
    return `${paths.length} paths`;
  });

  await check(
    "POST /api/v1/name/parse (with an Idempotency-Key, then its free replay)",
    async () => {
      const init = {
        body: { name: "Dr. Tanaka Hiroshi" },
        headers: { "Idempotency-Key": `deploy-check-${crypto.randomUUID()}` },
      };
      const res = await api(base, KEY, "/api/v1/name/parse", init);
      expect(res.status === 200, `${res.status} ${brief(res.body)}`);
      expect(res.body.data.surname === "Tanaka", `answer ${brief(res.body)}`);
      expect(charged(res.body) === 1, `pointsCharged ${res.body.data.pointsCharged}`);
      const replay = await api(base, KEY, "/api/v1/name/parse", init);
      expect(replay.body.data.replay === true && replay.body.data.pointsCharged === 0, "replay");
      return `${res.body.data.given} / ${res.body.data.surname}, source ${res.body.data.source}`;
    },
  );

  await check("POST /api/v1/name/parse/batch", async () => {
    const res = await api(base, KEY, "/api/v1/name/parse/batch", {
      body: { names: ["Ada Lovelace", "García Márquez, Gabriel", "Nagy László"] },
      headers: { "Idempotency-Key": `deploy-check-batch-${crypto.randomUUID()}` },
    });
    expect(res.status === 200, `${res.status} ${brief(res.body)}`);
    const results = res.body.data.results ?? [];
    expect(results.length === 3, `results ${brief(results)}`);
    expect(charged(res.body) === 3, `pointsCharged ${res.body.data.pointsCharged}`);
    return `${results.length} rows`;
  });

  await check("POST /api/v1/find (email mode, through the remote verifier)", async () => {
    const res = await api(base, KEY, "/api/v1/find", {
      body: { name: "Grace Hopper", company: "https://www.acme.test/about" },
    });
    expect(res.status === 200, `${res.status} ${brief(res.body)}`);
    expect(res.body.data.found === true, `answer ${brief(res.body)}`);
    expect(res.body.data.email === "grace.hopper@acme.test", `email ${res.body.data.email}`);
    expect(res.body.data.verification?.method === "smtp", `verification ${brief(res.body.data)}`);
    expect(charged(res.body) === 10, `pointsCharged ${res.body.data.pointsCharged}`);
    return `${res.body.data.email} via ${res.body.data.verification.mxHost}`;
  });

  await check("POST /api/v1/find (company mode, Wikidata)", async () => {
    const res = await api(base, KEY, "/api/v1/find", {
      body: { mode: "company", name: "Peter Gibbons", company: "Initech" },
    });
    expect(res.status === 200, `${res.status} ${brief(res.body)}`);
    expect(res.body.data.found === true, `answer ${brief(res.body)}`);
    expect(charged(res.body) === 12, `pointsCharged ${res.body.data.pointsCharged}`);
    return `${res.body.data.email}, company from ${res.body.data.company?.source}`;
  });

  await check("POST /api/v1/network-search", async () => {
    const res = await api(base, KEY, "/api/v1/network-search", {
      body: { firstName: "Grace", lastName: "Hopper" },
    });
    expect(res.status === 200, `${res.status} ${brief(res.body)}`);
    expect(res.body.data.matches?.length >= 1, `answer ${brief(res.body)}`);
    expect(charged(res.body) === 5, `pointsCharged ${res.body.data.pointsCharged}`);
    return res.body.data.matches[0].networkUrl;
  });

  await check("POST /api/v1/enrich/email", async () => {
    const res = await api(base, KEY, "/api/v1/enrich/email", {
      body: { email: "grace.hopper@acme.test" },
    });
    expect(res.status === 200, `${res.status} ${brief(res.body)}`);
    expect(res.body.data.reason === null, `answer ${brief(res.body)}`);
    expect(!JSON.stringify(res.body).includes("555"), "a phone number came through");
    expect(charged(res.body) === 10, `pointsCharged ${res.body.data.pointsCharged}`);
    return `${res.body.data.person?.name}, ${res.body.data.person?.companyName}`;
  });

  // The directory for lead search, loaded into the linked database as `admin demo` would.
  const records = demoPeople(PEOPLE, { now: Date.now() }).map((record) => {
    const parsed = parseImportRecord(record);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.record;
  });
  await importPeople({ db: { sql } }, records);

  await check("lead search: start → poll → completed (inline runner)", async () => {
    const start = await api(base, KEY, "/api/v1/lead-search", {
      body: { filters: {}, count: 40 },
      headers: { "Idempotency-Key": `deploy-check-leads-${crypto.randomUUID()}` },
    });
    expect(start.status === 200 && start.body.data.run, `${start.status} ${brief(start.body)}`);
    const runId = start.body.data.run.id;
    const done = await until("the run completed", 30_000, async () => {
      const run = await api(base, KEY, `/api/v1/lead-search/runs/${runId}`);
      return run.body.data.status === "completed" ? run.body.data : null;
    }, 100);
    expect(done.deliveredCount === 40, `delivered ${done.deliveredCount}`);
    expect(done.creditsCharged === 40 * LEAD_PRICE, `charged ${done.creditsCharged}`);
    reportedCharges += done.creditsCharged;
    return `${done.deliveredCount} leads, ${done.creditsCharged} points`;
  });

  await check("lead search: start → poll (processing) → cancel → cancelled", async () => {
    const start = await api(base, KEY, "/api/v1/lead-search", {
      body: { filters: {}, count: 1000 },
      headers: { "Idempotency-Key": `deploy-check-leads-${crypto.randomUUID()}` },
    });
    expect(start.status === 200 && start.body.data.run, `${start.status} ${brief(start.body)}`);
    const runId = start.body.data.run.id;
    await until("some leads delivered", 20_000, async () => {
      const run = await api(base, KEY, `/api/v1/lead-search/runs/${runId}`);
      return run.body.data.status === "processing" && run.body.data.deliveredCount > 0;
    }, 50);
    const cancel = await api(base, KEY, `/api/v1/lead-search/runs/${runId}/cancel`, { body: {} });
    expect(cancel.status === 200, `cancel ${cancel.status} ${brief(cancel.body)}`);
    const done = await until("the run cancelled", 20_000, async () => {
      const run = await api(base, KEY, `/api/v1/lead-search/runs/${runId}`);
      return run.body.data.status === "cancelled" ? run.body.data : null;
    }, 100);
    expect(done.deliveredCount < PEOPLE, `delivered ${done.deliveredCount} of ${PEOPLE}`);
    expect(
      done.creditsCharged === done.deliveredCount * LEAD_PRICE,
      `charged ${done.creditsCharged}`,
    );
    reportedCharges += done.creditsCharged;
    const points = await api(base, KEY, "/api/v1/points");
    expect(points.body.data.reserved === 0, `reserved ${points.body.data.reserved}`);
    return `cancelled after ${done.deliveredCount} leads`;
  });

  await check("GET /docs (API reference)", async () => {
    const res = await fetch(`${base}/docs`);
    const text = await res.text();
    expect(res.status === 200, `${res.status}`);
    expect(/swagger/i.test(text), "no swagger-ui on the page");
    return `${text.length} bytes`;
  });

  await check("GET /app/sign-in (the web app)", async () => {
    const res = await fetch(`${base}/app/sign-in`);
    const text = await res.text();
    expect(res.status === 200, `${res.status}`);
    expect(/<form method="post" action="\/app\/sign-in"/.test(text), "no sign-in form");
    return `${text.length} bytes`;
  });

  await check(
    "second instance: port 25 refused or silent → verification-unavailable, uncharged, fast",
    async () => {
      await second!.waitHealthy(secondBase, 90_000);
      const lookups = second!.logged("lookups ready")[0];
      expect(
        lookups?.verifier === "smtp" && lookups?.smtpConnectTimeoutMs === 3000,
        brief(lookups),
      );
      const before = await api(secondBase, KEY, "/api/v1/points");
      const times: string[] = [];
      for (const company of ["refuses.test", "blackhole.test"]) {
        const started = performance.now();
        const res = await api(secondBase, KEY, "/api/v1/find", {
          body: { name: "Ada Lovelace", company },
        });
        const ms = Math.round(performance.now() - started);
        expect(res.status === 200, `${company}: ${res.status} ${brief(res.body)}`);
        expect(
          res.body.data.found === false && res.body.data.reason === "verification-unavailable",
          `${company}: ${brief(res.body)}`,
        );
        expect(
          res.body.data.pointsCharged === 0,
          `${company}: charged ${res.body.data.pointsCharged}`,
        );
        expect(ms < 10_000, `${company}: took ${ms} ms`);
        times.push(`${company} ${ms} ms`);
      }
      const after = await api(secondBase, KEY, "/api/v1/points");
      expect(after.body.data.available === before.body.data.available, "the balance moved");
      return times.join(", ");
    },
  );

  await check("both instances share the platform KV: one rate-limit budget", async () => {
    // A workspace with no points, so nothing is charged: an admitted batch is refused for its
    // price (402), one over the budget with 429. The `name_parse_batch` budget (120 a minute)
    // is counted in KV; both instances together must admit no more than it.
    const { apiKey } = await createWorkspace({ db: { sql } }, { name: "deploy-check-limits" });
    const limit = 120;
    const send = (i: number) =>
      api(i % 2 === 0 ? base : secondBase, apiKey, "/api/v1/name/parse/batch", {
        body: { names: ["Ada Lovelace"] },
        headers: { "Idempotency-Key": `deploy-check-limit-${i}` },
      });
    const first = await send(0);
    // Not across a window's end: wait for the next window when this one is nearly over.
    const reset = Number(first.headers.get("ratelimit-reset") ?? 60);
    if (reset < 10) await sleep(reset * 1000 + 500);
    const answers = [];
    for (let i = 1; i <= limit + 40; i += 16) {
      answers.push(
        ...await Promise.all(
          Array.from({ length: Math.min(16, limit + 41 - i) }, (_, k) => send(i + k)),
        ),
      );
    }
    const refused = answers.filter((a) => a.status === 429).length;
    const admitted = answers.length - refused + (reset < 10 ? 0 : 1);
    const other = answers.filter((a) => a.status !== 429 && a.status !== 402);
    expect(other.length === 0, `answers ${brief(other.map((a) => [a.status, a.body]))}`);
    expect(admitted <= limit, `admitted ${admitted} of a budget of ${limit}`);
    expect(refused > 0, "nothing refused");
    return `${
      answers.length + 1
    } batches to both instances: ${admitted} admitted (budget ${limit}), ${refused} refused`;
  });

  await check("charges: the ledger holds exactly what the answers said", async () => {
    const points = await api(base, KEY, "/api/v1/points");
    const spent = points.body.data.granted - points.body.data.available;
    const [ledger] = await sql<{ n: string }[]>`
      SELECT coalesce(sum(amount), 0) AS n FROM ledger_entries WHERE kind IN ('charge', 'settle')`;
    expect(spent === reportedCharges, `balance says ${spent}, answers said ${reportedCharges}`);
    expect(Number(ledger.n) === reportedCharges, `ledger ${ledger.n}, answers ${reportedCharges}`);
    return `${reportedCharges} points`;
  });

  await check("SIGTERM stops both instances within 5 s, exit code 0", async () => {
    const started = performance.now();
    main.signal("SIGTERM");
    second!.signal("SIGTERM");
    const timeout = sleep(5_000).then(() => null);
    const [a, b] = await Promise.all([
      Promise.race([main.exited(), timeout]),
      Promise.race([second!.exited(), timeout]),
    ]);
    expect(a && b, "still running after 5 s");
    expect(a.code === 0 && b.code === 0, `exit codes ${a.code}, ${b.code}`);
    return `${Math.round(performance.now() - started)} ms`;
  });

  await check("nothing written under DATA_DIR", async () => {
    expect(!(await exists(dataDir)), `${dataDir} was created`);
    const left = [];
    for await (const entry of Deno.readDir(scratch)) left.push(entry.name);
    expect(left.length === 0, `written beside it: ${left.join(", ")}`);
  });

  for (
    const [missing, message] of [
      ["DATABASE_URL", /DATABASE_URL is required on Deno Deploy/],
      ["SVC_SECRET", /SVC_SECRET is required on Deno Deploy/],
    ] as const
  ) {
    await check(
      `Deploy mode without ${missing}: refuses to start, with a clear message`,
      async () => {
        const env = { ...appEnv, PORT: String(freePort()) };
        delete (env as Record<string, string>)[missing];
        const started = performance.now();
        const child = new ServiceChild(`no-${missing}`, env, { show: SHOW });
        const status = await Promise.race([child.exited(), sleep(30_000).then(() => null)]);
        if (!status) {
          child.killGroup();
          throw new Error("still running after 30 s");
        }
        expect(status.code === 1, `exit code ${status.code}`);
        const failure = child.logged("failed to start")[0];
        expect(failure && message.test(String(failure.error)), `output:\n${child.output()}`);
        expect(!(await exists(dataDir)), `${dataDir} was created`);
        return `exit 1 after ${Math.round(performance.now() - started)} ms: "${
          String(failure.error).slice(0, 90)
        }…"`;
      },
    );
  }
} catch (error) {
  console.log(`FAIL ${(error as Error).message}`);
  failed++;
} finally {
  main.killGroup();
  second?.killGroup();
  await Promise.allSettled([main.exited(), second?.exited()]);
  await verifier.stop();
  await world.close();
  await port25Dns.close();
  await sql.end({ timeout: 5 });
  await database.drop();
  await Deno.remove(scratch, { recursive: true }).catch(() => {});
}

console.log(`${passed} passed, ${failed} failed`);
Deno.exit(failed === 0 ? 0 : 1);
