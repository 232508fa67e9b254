/**
 * The rig the bulk crash tests share (tests/bulk_crash_test.ts, bulk_verify_crash_test.ts,
 * bulk_greylist_crash_test.ts): fake DNS and SMTP on 127.0.0.1, the real service (main.ts as its
 * own process) on a fresh DATA_DIR (embedded PGlite) or a throwaway database (TEST_DATABASE_URL),
 * a bulk job created over HTTP and polled, a SIGKILL and a restart on the same data, and the
 * job's books read back from the database. What each test asks (operation, rows, the mail world,
 * when to kill, what the books must say) stays in the test.
 *
 * `CRASH_TEST_STDERR=1` shows the processes' logs.
 */
import assert from "node:assert/strict";
import { type Database, openDatabase } from "../domain/stores/database.ts";
import { openTestDatabase } from "./harness.ts";
import { freePort, ServiceChild, until } from "./service_child.ts";
import { type FakeDns, type FakeZone, startFakeDns } from "./fakes/dns_server.ts";
import {
  FAKE_TLS_CA_FILE,
  type FakeSmtp,
  type FakeSmtpOptions,
  startFakeSmtp,
} from "./fakes/smtp_server.ts";

const SHOW = Boolean(Deno.env.get("CRASH_TEST_STDERR"));

export interface CrashRigOptions {
  /** The bootstrap API key the job is created with. */
  key: string;
  /** `SVC_SECRET` of the service. */
  secret: string;
  /** Points the bootstrap workspace starts with. */
  grant: number;
  /** The fake DNS's zone. */
  zone: FakeZone;
  /** The fake SMTP servers' hosts and behaviour. */
  smtp: FakeSmtpOptions;
  /** The service's variables beyond the shared ones (prices, page delay, greylisting…). */
  env: Record<string, string>;
}

/** A bulk job's status as `GET /api/v1/bulk/jobs/{id}` gives it (`data`). */
// deno-lint-ignore no-explicit-any
export type PolledJob = any;

/** What the database says about a job once it is done. */
export interface JobBooks {
  rows: { n: number; answered: number; cost: number; pages: number };
  job: { reservation_id: string; pages: number; workspace_id: string };
  /** The ledger entries under the job's reservation, in the order they were written. */
  entries: { kind: string; amount: string; charge_key: string | null }[];
  balance: { available: string; reserved: string };
}

export interface CrashRig {
  base: string;
  dns: FakeDns;
  smtp: FakeSmtp;
  /** The job's id once `createJob` has run. */
  readonly jobId: string;
  /** `POST /api/v1/bulk/jobs` with these rows; returns the job's id. */
  createJob(operation: string, rows: unknown[], idempotencyKey: string): Promise<string>;
  /** `GET /api/v1/bulk/jobs/{id}` of the job. */
  poll(): Promise<PolledJob>;
  /**
   * Waits until `ready(job)` (polling every `everyMs`), checks the job is still processing,
   * SIGKILLs the service and starts it again on the same data; returns the job as it was seen.
   */
  killWhen(
    what: string,
    timeoutMs: number,
    everyMs: number,
    ready: (job: PolledJob) => boolean,
  ): Promise<PolledJob>;
  /** Waits until the job completes (polling every `everyMs`); returns it. */
  completed(timeoutMs: number, everyMs: number): Promise<PolledJob>;
  /** Stops the service (SIGTERM). */
  stop(): Promise<void>;
  /** Reads the job's books from the database (after `stop`). */
  books(): Promise<JobBooks>;
}

/** Starts the fakes and the service, runs `body`, and tears everything down. */
export async function withCrashRig(
  options: CrashRigOptions,
  body: (rig: CrashRig) => Promise<void>,
): Promise<void> {
  const dns = await startFakeDns(options.zone);
  const smtp = await startFakeSmtp(options.smtp);
  const dataDir = await Deno.makeTempDir();
  const pg = Deno.env.get("TEST_DATABASE_URL") ? await openTestDatabase() : null;
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    SVC_SECRET: options.secret,
    SVC_BOOTSTRAP_KEY: options.key,
    SVC_BOOTSTRAP_POINTS: String(options.grant),
    RATE_LIMIT_ACCOUNT: "100000/60",
    LOG_REQUESTS: "false",
    LEAD_SEARCH_RUNNER: "inline",
    LEAD_SEARCH_POLL_MS: "100",
    BULK_LEASE_SECONDS: "2",
    VERIFY_DNS_SERVER: dns.address,
    VERIFY_SMTP_PORT: String(smtp.port),
    VERIFY_ALLOW_PRIVATE_ADDRESSES: "true",
    VERIFY_TLS_CA_FILE: FAKE_TLS_CA_FILE,
    VERIFY_HELO_NAME: "verifier.test",
    VERIFY_TIMEOUT_SECONDS: "2",
    VERIFY_LOOKUP_SECONDS: "10",
    ...options.env,
  };
  if (pg) env.DATABASE_URL = pg.url!;
  const start = (label: string) => new ServiceChild(label, env, { clearEnv: false, show: SHOW });
  let jobId = "";
  let service = start("first");
  let books = null as Database | null;
  const poll = async () => {
    const res = await fetch(`${base}/api/v1/bulk/jobs/${jobId}`, {
      headers: { Authorization: `Bearer ${options.key}` },
    });
    assert.equal(res.status, 200);
    return (await res.json()).data;
  };
  const rig: CrashRig = {
    base,
    dns,
    smtp,
    get jobId() {
      return jobId;
    },
    async createJob(operation, rows, idempotencyKey) {
      const res = await fetch(`${base}/api/v1/bulk/jobs`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${options.key}`,
          "Content-Type": "application/json",
          "Idempotency-Key": idempotencyKey,
        },
        body: JSON.stringify({ operation, rows }),
      });
      assert.equal(res.status, 200);
      jobId = (await res.json()).data.job.id;
      return jobId;
    },
    poll,
    async killWhen(what, timeoutMs, everyMs, ready) {
      const seen = await until(what, timeoutMs, async () => {
        const job = await poll();
        return ready(job) ? job : null;
      }, everyMs);
      assert.equal(seen.status, "processing");
      await service.kill("SIGKILL");
      service = start("restarted");
      await service.waitHealthy(base);
      return seen;
    },
    completed(timeoutMs, everyMs) {
      return until("the job completed", timeoutMs, async () => {
        const job = await poll();
        return job.status === "completed" ? job : null;
      }, everyMs);
    },
    async stop() {
      await service.kill("SIGTERM");
    },
    async books() {
      books ??= pg ?? await openDatabase({ url: null, pgliteDir: `${dataDir}/pglite` });
      const sql = books.sql;
      const [rows] = await sql<JobBooks["rows"][]>`
        SELECT count(*)::int AS n, count(answer)::int AS answered,
               coalesce(sum(cost), 0)::int AS cost, count(DISTINCT page)::int AS pages
          FROM bulk_job_rows WHERE job_id = ${jobId}`;
      const [job] = await sql<JobBooks["job"][]>`
        SELECT reservation_id, pages, workspace_id FROM bulk_jobs WHERE id = ${jobId}`;
      const entries = await sql<JobBooks["entries"]>`
        SELECT kind, amount, charge_key FROM ledger_entries
         WHERE reservation_id = ${job.reservation_id} ORDER BY id`;
      const [balance] = await sql<JobBooks["balance"][]>`
        SELECT available, reserved FROM balances WHERE workspace_id = ${job.workspace_id}`;
      return { rows, job, entries, balance };
    },
  };
  try {
    await service.waitHealthy(base);
    await body(rig);
  } finally {
    if (service) await service.kill("SIGKILL").catch(() => {});
    if (books && books !== pg) await books.close();
    await pg?.drop();
    await smtp.close();
    await dns.close();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
}

/** `co0.test` … `co{n-1}.test`, every one's mail on `mx1.example.test` at 127.0.0.1. */
export function oneMailHostZone(domains: number): FakeZone {
  return {
    ...Object.fromEntries(
      Array.from({ length: domains }, (_, d) => [
        `co${d}.test`,
        { mx: [{ preference: 10, exchange: "mx1.example.test" }] },
      ]),
    ),
    "mx1.example.test": { a: ["127.0.0.1"] },
  };
}

/** One SMTP host at 127.0.0.1 that accepts exactly these mailboxes. */
export function acceptingOnly(accept: string[]): FakeSmtpOptions {
  return {
    hosts: ["127.0.0.1"],
    behaviour: { mailboxes: Object.fromEntries(accept.map((a) => [a, "accept" as const])) },
  };
}

/**
 * After `killWhen` on a job of `total` rows: the restarted service lost nothing answered and the
 * kill did interrupt the job; waits for the job to complete, stops the service, returns the job.
 */
export async function finishAfterKill(
  rig: CrashRig,
  before: PolledJob,
  total: number,
): Promise<PolledJob> {
  const after = await rig.poll();
  assert.ok(after.counts.done >= before.counts.done, "nothing answered was lost");
  assert.ok(after.counts.done < total, "the kill interrupted the job");
  const done = await rig.completed(120_000, 100);
  console.log(
    `answered before the kill: ≥ ${before.counts.done}; at restart: ${after.counts.done} of ${total}`,
  );
  await rig.stop();
  return done;
}

/**
 * The books of a completed job of `total` rows at `price` a row from a workspace granted `grant`:
 * every row answered, the job's charge the rows' costs, one settlement per page under its own
 * key, settlements = the rows' costs, one reservation released of what was not settled, and the
 * balance agreeing with the ledger. Returns the points settled.
 */
export function assertBooksBalance(
  books: JobBooks,
  expected: { jobId: string; done: PolledJob; total: number; price: number; grant: number },
): number {
  const { rows: rowBooks, job, entries, balance } = books;
  const { jobId, done, total } = expected;
  assert.deepEqual(
    { n: rowBooks.n, answered: rowBooks.answered },
    { n: total, answered: total },
    "every row answered",
  );
  assert.equal(done.counts.done, total);
  assert.equal(done.counts.charged, rowBooks.cost, "the job's charge is the rows' costs");
  const settles = entries.filter((e) => e.kind === "settle");
  assert.equal(settles.length, job.pages, "one settlement per recorded page");
  assert.equal(rowBooks.pages, job.pages);
  assert.deepEqual(
    settles.map((e) => e.charge_key).sort(),
    Array.from({ length: job.pages }, (_, i) => `bulk:${jobId}:page:${i + 1}`).sort(),
    "each page charged once under its own key",
  );
  const settled = settles.reduce((sum, e) => sum + Number(e.amount), 0);
  assert.equal(settled, rowBooks.cost, "settlements = the rows' costs");
  const reserve = entries.filter((e) => e.kind === "reserve");
  const release = entries.filter((e) => e.kind === "release");
  assert.equal(reserve.length, 1);
  assert.equal(release.length, 1);
  assert.equal(Number(reserve[0].amount), total * expected.price);
  assert.equal(Number(reserve[0].amount), settled + Number(release[0].amount));
  assert.deepEqual(balance, { available: String(expected.grant - settled), reserved: "0" });
  return settled;
}
