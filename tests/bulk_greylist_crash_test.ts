/**
 * A bulk find job on the real service (main.ts as its own process) whose every domain greylists,
 * as postgrey does (fake SMTP `{ greylistMs }`: a new sender–recipient pair deferred for 4 s, far
 * longer than the service's in-call retry of 0.1 s): the rows wait, the process is SIGKILLed while
 * they wait and restarted on the same DATA_DIR (embedded PGlite) or database (TEST_DATABASE_URL).
 * The job completes with every row answered as its mailbox is (found or not-found, none given up
 * as `verification-unavailable`), each page settled once under its own charge key, settlements
 * equal to the rows' costs. `CRASH_TEST_STDERR=1` shows the processes' logs. The rig:
 * tests/bulk_crash_rig.ts.
 */
import assert from "node:assert/strict";
import { DB_TEST } from "./harness.ts";
import { withCrashRig } from "./bulk_crash_rig.ts";

const KEY = "svc_sk_" + "3e".repeat(24);
const PRICE = 10;
const GRANT = 100_000;
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
    await withCrashRig({
      key: KEY,
      secret: "bulk-grey-crash-secret-0123456789abcdef012345",
      grant: GRANT,
      zone: {
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
      },
      // A mail host per domain, as companies have.
      smtp: {
        hosts: Array.from({ length: DOMAINS }, (_, d) => `127.0.0.${d + 1}`),
        behaviour: {
          mailboxes: Object.fromEntries(accept.map((a) => [a, { greylistMs: 4_000 }])),
          otherRecipients: { greylistMs: 4_000, then: "reject" },
        },
      },
      env: {
        PRICE_FIND_EMAIL: String(PRICE),
        VERIFY_LOOKUP_SECONDS: "30",
        VERIFY_GREYLIST_RETRY_SECONDS: "0.1",
        VERIFY_GREYLIST_DELAY_SECONDS: "4",
      },
    }, async (rig) => {
      await rig.createJob("find", submitted, "grey-crash-job");
      await rig.killWhen(
        "rows waiting on greylisting",
        30_000,
        50,
        (job) => job.counts.waiting > 0,
      );
      const done = await rig.completed(60_000, 200);
      await rig.stop();

      assert.equal(done.counts.done, submitted.length);
      assert.equal(done.counts.waiting, 0);
      assert.equal(done.counts.found, accept.length, "every accepted mailbox found");
      assert.deepEqual(done.counts.refused, { "not-found": submitted.length - accept.length });

      const { rows: rowBooks, job, entries, balance } = await rig.books();
      assert.equal(rowBooks.answered, submitted.length);
      assert.equal(rowBooks.cost, submitted.length * PRICE, "every row billed (found or not)");
      const settles = entries.filter((e) => e.kind === "settle");
      assert.equal(settles.length, job.pages, "one settlement per recorded page");
      assert.equal(new Set(settles.map((e) => e.charge_key)).size, settles.length);
      assert.equal(settles.reduce((sum, e) => sum + Number(e.amount), 0), rowBooks.cost);
      assert.deepEqual(balance, { available: String(GRANT - rowBooks.cost), reserved: "0" });
    });
  },
);
