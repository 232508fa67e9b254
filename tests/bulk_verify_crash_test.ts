/**
 * A 1,000-row verify job on the real service (main.ts as its own process) against fake DNS and
 * SMTP on 127.0.0.1, as tests/bulk_crash_test.ts does for find: the job is started over HTTP; once
 * some pages are answered the process is SIGKILLed mid-job and restarted on the same DATA_DIR
 * (embedded PGlite) or database (TEST_DATABASE_URL); the new process finishes the job. Every row
 * is answered once in the books, each page settled once under its own charge key (no row charged
 * twice), the settlements add up to the rows' costs, to what the job says it charged and to the
 * balance spent; a domain's addresses share SMTP sessions (far fewer sessions than rows).
 *
 * `CRASH_TEST_STDERR=1` shows the processes' logs. The rig: tests/bulk_crash_rig.ts.
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

const KEY = "svc_sk_" + "3e".repeat(24);
const PRICE = 4;
const GRANT = 100_000;
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
    await withCrashRig({
      key: KEY,
      secret: "bulk-crash-secret-0123456789abcdef0123456789",
      grant: GRANT,
      zone: oneMailHostZone(DOMAINS),
      smtp: acceptingOnly(accept),
      env: { PRICE_VERIFY: String(PRICE), BULK_PAGE_DELAY_MS: "150" },
    }, async (rig) => {
      const jobId = await rig.createJob("verify", submitted, "verify-crash-job-1");
      const before = await rig.killWhen(
        "some pages answered",
        60_000,
        20,
        (job) => job.counts.done >= 100,
      );
      const done = await finishAfterKill(rig, before, submitted.length);
      const settled = assertBooksBalance(await rig.books(), {
        jobId,
        done,
        total: submitted.length,
        price: PRICE,
        grant: GRANT,
      });
      // Each verdict billed, nothing else: valid and refused mailboxes, never the malformed rows.
      const verdicts = submitted.length - MALFORMED;
      assert.equal(settled, verdicts * PRICE, "a verdict per address, none for bad syntax");
      assert.equal(done.counts.found, accept.length, "the accepted addresses are valid");
      // A domain's addresses share sessions: a probe and up to 8 addresses a session.
      const { smtp } = rig;
      console.log(`SMTP sessions: ${smtp.sessions.length}, RCPTs: ${smtp.rcpts.length}`);
      assert.ok(smtp.sessions.length < verdicts / 2, `${smtp.sessions.length} sessions`);
    });
  },
);
