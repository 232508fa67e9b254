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
 * mid-job. `CRASH_TEST_STDERR=1` shows the processes' logs. The rig: tests/bulk_crash_rig.ts.
 */
import assert from "node:assert/strict";
import { DB_TEST } from "./harness.ts";
import {
  acceptingOnly,
  assertBooksBalance,
  finishAfterKill,
  oneMailHostZone,
  withCrashRig,
} from "./bulk_crash_rig.ts";

const KEY = "svc_sk_" + "2f".repeat(24);
const PRICE = 10;
const GRANT = 100_000;
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
    await withCrashRig({
      key: KEY,
      secret: "bulk-crash-secret-0123456789abcdef0123456789",
      grant: GRANT,
      zone: oneMailHostZone(DOMAINS),
      smtp: acceptingOnly(accept),
      env: { PRICE_FIND_EMAIL: String(PRICE), BULK_PAGE_DELAY_MS: "150" },
    }, async (rig) => {
      const jobId = await rig.createJob("find", submitted, "crash-job-1");
      const before = await rig.killWhen(
        "some pages answered",
        60_000,
        20,
        (job) => job.counts.done >= 100,
      );
      const done = await finishAfterKill(rig, before, submitted.length);
      assertBooksBalance(await rig.books(), {
        jobId,
        done,
        total: submitted.length,
        price: PRICE,
        grant: GRANT,
      });
      // Rows a crashed page had answered were asked again: more SMTP than rows, never more charges.
      assert.ok(rig.smtp.sessions.length >= submitted.length);
    });
  },
);
