/**
 * A bulk find job on the real service (main.ts as its own process) whose every domain greylists,
 * as postgrey does (fake SMTP `{ greylistMs }`: a new sender–recipient pair deferred for 4 s, far
 * longer than the service's in-call retry of 0.1 s): the rows wait, the process is SIGKILLed while
 * they wait and restarted on the same DATA_DIR (embedded PGlite) or database (TEST_DATABASE_URL).
 * The job completes with every row answered as its mailbox is (found or not-found, none given up
 * as `verification-unavailable`), each page settled once under its own charge key, settlements
 * equal to the rows' costs. `CRASH_TEST_STDERR=1` shows the processes' logs.
 */
import assert from "node:assert/strict";
import { type Database, openDatabase } from "../domain/stores/database.ts";
import { DB_TEST, openTestDatabase } from "./harness.ts";
import { freePort, ServiceChild, until } from "./service_child.ts";
import { startFakeDns } from "./fakes/dns_server.ts";
import { FAKE_TLS_CA_FILE, startFakeSmtp } from "./fakes/smtp_server.ts";

const KEY = "svc_sk_" + "3e".repeat(24);
const PRICE = 10;
const GRANT = 100_000;
const SHOW = Boolean(Deno.env.get("CRASH_TEST_STDERR"));
const DOMAINS = 5;
const GIVEN = ["Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "John"];
const SURNAMES = ["Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov"];

Deno.test(
  "bulk greylisting crash: SIGKILL while rows wait — every row answered as it is, none charged twice",
  DB_TEST,
  async () => {
    const submitted: { name: string; company: string }[] = [];
    const accept: string[] = [];
    for (let d = 0; d < DOMAINS; d++) {
      for (let p = 0; p < 6; p++) {
        const given = GIVEN[p];
        const surname = SURNAMES[(p + d) % SURNAMES.length];
        submitted.push({ name: `${given} ${surname}`, company: `grey${d}.test` });
        if (p % 2 === 0) accept.push(`${given}.${surname}@grey${d}.test`.toLowerCase());
      }
    }
    const dns = await startFakeDns({
      ...Object.fromEntries(
        Array.from({ length: DOMAINS }, (_, d) => [
          `grey${d}.test`,
          { mx: [{ preference: 10, exchange: `mx${d}.example.test` }] },
        ]),
      ),
      ...Object.fromEntries(
        Array.from({ length: DOMAINS }, (_, d) => [
          `mx${d}.example.test`,
          { a: [`127.0.0.${d + 1}`] },
        ]),
      ),
    });
    // A mail host per domain, as companies have.
    const smtp = await startFakeSmtp({
      hosts: Array.from({ length: DOMAINS }, (_, d) => `127.0.0.${d + 1}`),
      behaviour: {
        mailboxes: Object.fromEntries(accept.map((a) => [a, { greylistMs: 4_000 }])),
        otherRecipients: { greylistMs: 4_000, then: "reject" },
      },
    });
    const dataDir = await Deno.makeTempDir();
    const pg = Deno.env.get("TEST_DATABASE_URL") ? await openTestDatabase() : null;
    const port = freePort();
    const base = `http://127.0.0.1:${port}`;
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      SVC_SECRET: "bulk-grey-crash-secret-0123456789abcdef012345",
      SVC_BOOTSTRAP_KEY: KEY,
      SVC_BOOTSTRAP_POINTS: String(GRANT),
      PRICE_FIND_EMAIL: String(PRICE),
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
      VERIFY_LOOKUP_SECONDS: "30",
      VERIFY_GREYLIST_RETRY_SECONDS: "0.1",
      VERIFY_GREYLIST_DELAY_SECONDS: "4",
    };
    if (pg) env.DATABASE_URL = pg.url!;
    const start = (label: string) => new ServiceChild(label, env, { clearEnv: false, show: SHOW });
    let jobId = "";
    const poll = async () => {
      const res = await fetch(`${base}/api/v1/bulk/jobs/${jobId}`, {
        headers: { Authorization: `Bearer ${KEY}` },
      });
      assert.equal(res.status, 200);
      return (await res.json()).data;
    };
    let service = start("first");
    let books: Database | null = null;
    try {
      await service.waitHealthy(base);
      const res = await fetch(`${base}/api/v1/bulk/jobs`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${KEY}`,
          "Content-Type": "application/json",
          "Idempotency-Key": "grey-crash-job",
        },
        body: JSON.stringify({ operation: "find", rows: submitted }),
      });
      assert.equal(res.status, 200);
      jobId = (await res.json()).data.job.id;

      const waiting = await until("rows waiting on greylisting", 30_000, async () => {
        const job = await poll();
        return job.counts.waiting > 0 ? job : null;
      }, 50);
      assert.equal(waiting.status, "processing");
      await service.kill("SIGKILL");

      service = start("restarted");
      await service.waitHealthy(base);
      const done = await until("the job completed", 60_000, async () => {
        const job = await poll();
        return job.status === "completed" ? job : null;
      }, 200);
      await service.kill("SIGTERM");

      assert.equal(done.counts.done, submitted.length);
      assert.equal(done.counts.waiting, 0);
      assert.equal(done.counts.found, accept.length, "every accepted mailbox found");
      assert.deepEqual(done.counts.refused, { "not-found": submitted.length - accept.length });

      books = pg ?? await openDatabase({ url: null, pgliteDir: `${dataDir}/pglite` });
      const sql = books.sql;
      const [rowBooks] = await sql<{ answered: number; cost: number; pages: number }[]>`
        SELECT count(answer)::int AS answered, coalesce(sum(cost), 0)::int AS cost,
               count(DISTINCT page)::int AS pages
          FROM bulk_job_rows WHERE job_id = ${jobId}`;
      assert.equal(rowBooks.answered, submitted.length);
      assert.equal(rowBooks.cost, submitted.length * PRICE, "every row billed (found or not)");
      const [job] = await sql<{ reservation_id: string; pages: number; workspace_id: string }[]>`
        SELECT reservation_id, pages, workspace_id FROM bulk_jobs WHERE id = ${jobId}`;
      const settles = await sql<{ amount: string; charge_key: string }[]>`
        SELECT amount, charge_key FROM ledger_entries
         WHERE reservation_id = ${job.reservation_id} AND kind = 'settle'`;
      assert.equal(settles.length, job.pages, "one settlement per recorded page");
      assert.equal(new Set(settles.map((e) => e.charge_key)).size, settles.length);
      assert.equal(settles.reduce((sum, e) => sum + Number(e.amount), 0), rowBooks.cost);
      const [balance] = await sql<{ available: string; reserved: string }[]>`
        SELECT available, reserved FROM balances WHERE workspace_id = ${job.workspace_id}`;
      assert.deepEqual(balance, { available: String(GRANT - rowBooks.cost), reserved: "0" });
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
