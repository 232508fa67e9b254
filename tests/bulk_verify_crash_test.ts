/**
 * A 1,000-row verify job on the real service (main.ts as its own process) against fake DNS and
 * SMTP on 127.0.0.1, as tests/bulk_crash_test.ts does for find: the job is started over HTTP; once
 * some pages are answered the process is SIGKILLed mid-job and restarted on the same DATA_DIR
 * (embedded PGlite) or database (TEST_DATABASE_URL); the new process finishes the job. Every row
 * is answered once in the books, each page settled once under its own charge key (no row charged
 * twice), the settlements add up to the rows' costs, to what the job says it charged and to the
 * balance spent; a domain's addresses share SMTP sessions (far fewer sessions than rows).
 *
 * `CRASH_TEST_STDERR=1` shows the processes' logs.
 */
import assert from "node:assert/strict";
import { type Database, openDatabase } from "../domain/stores/database.ts";
import { DB_TEST, openTestDatabase } from "./harness.ts";
import { freePort, ServiceChild, until } from "./service_child.ts";
import { startFakeDns } from "./fakes/dns_server.ts";
import { FAKE_TLS_CA_FILE, startFakeSmtp } from "./fakes/smtp_server.ts";

const KEY = "svc_sk_" + "3e".repeat(24);
const PRICE = 4;
const GRANT = 100_000;
const SHOW = Boolean(Deno.env.get("CRASH_TEST_STDERR"));
const DOMAINS = 50;
const PER_DOMAIN = 20;
/** Rows that are no address: answered `invalid-syntax`, free. */
const MALFORMED = 10;

/** 1,000 rows: 990 addresses over 50 domains (every third accepted) and 10 malformed. */
function rows(): { rows: { email: string }[]; accept: string[] } {
  const out: { email: string }[] = [];
  const accept: string[] = [];
  for (let d = 0; d < DOMAINS; d++) {
    for (let p = 0; p < PER_DOMAIN; p++) {
      if (out.length >= DOMAINS * PER_DOMAIN - MALFORMED) break;
      const email = `person${p}@co${d}.test`;
      out.push({ email });
      if (p % 3 === 0) accept.push(email);
    }
  }
  for (let i = 0; i < MALFORMED; i++) out.push({ email: `not an address ${i}` });
  return { rows: out, accept };
}

Deno.test(
  "bulk verify crash: 1,000 rows, SIGKILL mid-job, restart — no row lost, none charged twice",
  DB_TEST,
  async () => {
    const { rows: submitted, accept } = rows();
    const dns = await startFakeDns({
      ...Object.fromEntries(
        Array.from({ length: DOMAINS }, (_, d) => [
          `co${d}.test`,
          { mx: [{ preference: 10, exchange: "mx1.example.test" }] },
        ]),
      ),
      "mx1.example.test": { a: ["127.0.0.1"] },
    });
    const smtp = await startFakeSmtp({
      hosts: ["127.0.0.1"],
      behaviour: { mailboxes: Object.fromEntries(accept.map((a) => [a, "accept" as const])) },
    });
    const dataDir = await Deno.makeTempDir();
    const pg = Deno.env.get("TEST_DATABASE_URL") ? await openTestDatabase() : null;
    const port = freePort();
    const base = `http://127.0.0.1:${port}`;
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      SVC_SECRET: "bulk-crash-secret-0123456789abcdef0123456789",
      SVC_BOOTSTRAP_KEY: KEY,
      SVC_BOOTSTRAP_POINTS: String(GRANT),
      PRICE_VERIFY: String(PRICE),
      RATE_LIMIT_ACCOUNT: "100000/60",
      LOG_REQUESTS: "false",
      LEAD_SEARCH_RUNNER: "inline",
      LEAD_SEARCH_POLL_MS: "100",
      BULK_LEASE_SECONDS: "2",
      BULK_PAGE_DELAY_MS: "150",
      VERIFY_DNS_SERVER: dns.address,
      VERIFY_SMTP_PORT: String(smtp.port),
      VERIFY_ALLOW_PRIVATE_ADDRESSES: "true",
      VERIFY_TLS_CA_FILE: FAKE_TLS_CA_FILE,
      VERIFY_HELO_NAME: "verifier.test",
      VERIFY_TIMEOUT_SECONDS: "2",
      VERIFY_LOOKUP_SECONDS: "10",
    };
    if (pg) env.DATABASE_URL = pg.url!;
    const start = (label: string) => new ServiceChild(label, env, { clearEnv: false, show: SHOW });
    const poll = async () => {
      const res = await fetch(`${base}/api/v1/bulk/jobs/${jobId}`, {
        headers: { Authorization: `Bearer ${KEY}` },
      });
      assert.equal(res.status, 200);
      return (await res.json()).data;
    };
    let jobId = "";
    let service = start("first");
    let books: Database | null = null;
    try {
      await service.waitHealthy(base);
      const res = await fetch(`${base}/api/v1/bulk/jobs`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${KEY}`,
          "Content-Type": "application/json",
          "Idempotency-Key": "verify-crash-job-1",
        },
        body: JSON.stringify({ operation: "verify", rows: submitted }),
      });
      assert.equal(res.status, 200);
      jobId = (await res.json()).data.job.id;

      const before = await until("some pages answered", 60_000, async () => {
        const job = await poll();
        return job.counts.done >= 100 ? job : null;
      }, 20);
      assert.equal(before.status, "processing");
      await service.kill("SIGKILL");

      service = start("restarted");
      await service.waitHealthy(base);
      const after = await poll();
      assert.ok(after.counts.done >= before.counts.done, "nothing answered was lost");
      assert.ok(after.counts.done < submitted.length, "the kill interrupted the job");
      const done = await until("the job completed", 120_000, async () => {
        const job = await poll();
        return job.status === "completed" ? job : null;
      }, 100);
      console.log(
        `answered before the kill: ≥ ${before.counts.done}; at restart: ${after.counts.done} of ${submitted.length}`,
      );
      await service.kill("SIGTERM");

      books = pg ?? await openDatabase({ url: null, pgliteDir: `${dataDir}/pglite` });
      const sql = books.sql;
      const [rowBooks] = await sql<{ n: number; answered: number; cost: number; pages: number }[]>`
      SELECT count(*)::int AS n, count(answer)::int AS answered,
             coalesce(sum(cost), 0)::int AS cost, count(DISTINCT page)::int AS pages
        FROM bulk_job_rows WHERE job_id = ${jobId}`;
      assert.deepEqual(
        { n: rowBooks.n, answered: rowBooks.answered },
        { n: submitted.length, answered: submitted.length },
        "every row answered",
      );
      assert.equal(done.counts.done, submitted.length);
      assert.equal(done.counts.charged, rowBooks.cost, "the job's charge is the rows' costs");
      const [job] = await sql<{ reservation_id: string; pages: number; workspace_id: string }[]>`
      SELECT reservation_id, pages, workspace_id FROM bulk_jobs WHERE id = ${jobId}`;
      const entries = await sql<{ kind: string; amount: string; charge_key: string | null }[]>`
      SELECT kind, amount, charge_key FROM ledger_entries
       WHERE reservation_id = ${job.reservation_id} ORDER BY id`;
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
      assert.equal(Number(reserve[0].amount), submitted.length * PRICE);
      assert.equal(Number(reserve[0].amount), settled + Number(release[0].amount));
      const [balance] = await sql<{ available: string; reserved: string }[]>`
      SELECT available, reserved FROM balances WHERE workspace_id = ${job.workspace_id}`;
      assert.deepEqual(balance, { available: String(GRANT - settled), reserved: "0" });
      // Each verdict billed, nothing else: valid and refused mailboxes, never the malformed rows.
      const verdicts = submitted.length - MALFORMED;
      assert.equal(settled, verdicts * PRICE, "a verdict per address, none for bad syntax");
      assert.equal(done.counts.found, accept.length, "the accepted addresses are valid");
      // A domain's addresses share sessions: a probe and up to 8 addresses a session.
      console.log(`SMTP sessions: ${smtp.sessions.length}, RCPTs: ${smtp.rcpts.length}`);
      assert.ok(smtp.sessions.length < verdicts / 2, `${smtp.sessions.length} sessions`);
    } finally {
      if (service) await service.kill("SIGKILL").catch(() => {});
      if (books && books !== pg) await books.close();
      await pg?.drop();
      await smtp.close();
      await dns.close();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
);
