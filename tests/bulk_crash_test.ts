/**
 * A bulk job on the real service (main.ts as its own process) against fake DNS and SMTP on
 * 127.0.0.1: a 600-row find job is started over HTTP; once some pages are answered the process is
 * SIGKILLed mid-job and restarted on the same DATA_DIR (embedded PGlite) or database
 * (TEST_DATABASE_URL); after the dead runner's lease expires the new process finishes the job.
 * Every row is answered once in the books (none lost), each page is settled once under its own
 * charge key (no row charged twice), the settlements add up to the rows' costs and to what the job
 * says it charged, and the balance agrees with the ledger.
 *
 * Pages are slowed with `BULK_PAGE_DELAY_MS` (workers/bulk_job_runner.ts) so the kill lands
 * mid-job. `CRASH_TEST_STDERR=1` shows the processes' logs.
 */
import assert from "node:assert/strict";
import { type Database, openDatabase } from "../domain/stores/database.ts";
import { DB_TEST, openTestDatabase } from "./harness.ts";
import { freePort, ServiceChild, until } from "./service_child.ts";
import { startFakeDns } from "./fakes/dns_server.ts";
import { FAKE_TLS_CA_FILE, startFakeSmtp } from "./fakes/smtp_server.ts";

const KEY = "svc_sk_" + "2f".repeat(24);
const PRICE = 10;
const GRANT = 100_000;
const SHOW = Boolean(Deno.env.get("CRASH_TEST_STDERR"));
const DOMAINS = 30;
const GIVEN = [
  "Ada",
  "Grace",
  "Alan",
  "Edsger",
  "Barbara",
  "Donald",
  "Frances",
  "John",
  "Radia",
  "Ken",
];
const SURNAMES = [
  "Lovelace",
  "Hopper",
  "Turing",
  "Dijkstra",
  "Liskov",
  "Knuth",
  "Allen",
  "Backus",
  "Perlman",
  "Thompson",
];

/** 600 distinct rows over 30 domains; every fifth person's first candidate is accepted. */
function rows(): { rows: { name: string; company: string }[]; accept: string[] } {
  const out: { name: string; company: string }[] = [];
  const accept: string[] = [];
  for (let d = 0; d < DOMAINS; d++) {
    for (let p = 0; p < 20; p++) {
      const given = GIVEN[p % GIVEN.length];
      const surname = SURNAMES[(p + d) % SURNAMES.length] + (p >= 10 ? "son" : "");
      const domain = `co${d}.test`;
      out.push({ name: `${given} ${surname}`, company: domain });
      if (p % 5 === 0) accept.push(`${given}.${surname}@${domain}`.toLowerCase());
    }
  }
  return { rows: out, accept };
}

Deno.test(
  "bulk crash: SIGKILL mid-job, restart — no row lost, none charged twice",
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
      PRICE_FIND_EMAIL: String(PRICE),
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
          "Idempotency-Key": "crash-job-1",
        },
        body: JSON.stringify({ operation: "find", rows: submitted }),
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
      // Rows a crashed page had answered were asked again: more SMTP than rows, never more charges.
      assert.ok(smtp.sessions.length >= submitted.length);
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
