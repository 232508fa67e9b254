/**
 * Greylisting as the mail world has it, and politeness across instances, against real Postfix,
 * postgrey and dnsmasq (`real_mail_world.ts`):
 *
 * - postgrey with a 60 s delay in front of mx.slowgrey.test, far longer than a lookup waits: a
 *   find answers `verification-unavailable` and a verify `unknown`/`greylisted`, each with
 *   `retryAfterSeconds`, free; after that time (one wait for both) the verify is `valid` and the
 *   find found, each billed once, and Postfix's log (a WARN line per RCPT at that host) shows
 *   the same sender and recipients, the catch-all probe included, both times.
 * - a 200-row bulk find over five greylisting domains (MX names on the same postgrey'd host), on
 *   the service as its own process, `kill -9` while rows wait: every row answered as its mailbox
 *   is, none charged twice.
 * - two service processes on one Postgres (TEST_DATABASE_URL), 32 concurrent lookups each at
 *   mx.plain.test: Postfix's own log never shows more than `VERIFY_MAX_SESSIONS_PER_HOST` sessions
 *   open at once; one killed with `kill -9` while it holds slots gives them back within the lease.
 *
 * About 3 min 45 s in all (the 60 s wait twice: once for find and verify, once for the bulk job).
 * Needs root and the Debian packages, as the rest of the suite.
 */
import assert from "node:assert/strict";
import { buildPorts } from "../../domain/build_ports.ts";
import { loadConfig } from "../../domain/config/config.ts";
import { systemClock } from "../../domain/shared/clock.ts";
import { openKv } from "../../domain/stores/kv.ts";
import { type Database, openDatabase } from "../../domain/stores/database.ts";
import { PRICE_EMAIL, WORLD_PRICES } from "../find_world.ts";
import {
  createTestEnv,
  createTestWorkspace,
  DB_TEST,
  lookupCaller,
  openTestDatabase,
} from "../harness.ts";
import {
  ensureRealMailSoftware,
  REAL_DNS_SERVER,
  REAL_HELO_NAME,
  REAL_SMTP_PORT,
  startRealMailWorld,
} from "./real_mail_world.ts";
import { api, freePort, ServiceChild, until } from "../service_child.ts";

const SLOW_GREYLIST_SECONDS = 60;
const PRICE_VERIFY = WORLD_PRICES.verify;
const SHOW = Boolean(Deno.env.get("CRASH_TEST_STDERR"));
const PG_URL = Deno.env.get("TEST_DATABASE_URL");
const KEY = "svc_sk_" + "4f".repeat(24);

/** The bulk case: five greylisting domains (MX names on the slow postgrey'd host), rows each. */
const BULK_DOMAINS = Array.from({ length: 5 }, (_, d) => `slow${d}.test`);
const BULK_ROWS_PER_DOMAIN = 40;
/** Half the rows are people with a mailbox, half people without. */
const bulkRows = BULK_DOMAINS.flatMap((domain) =>
  Array.from(
    { length: BULK_ROWS_PER_DOMAIN },
    (_, i) =>
      i % 2 === 0
        ? { name: `Ada Found${letters(i)}son`, company: domain, mailbox: true }
        : { name: `Zed No${letters(i)}body`, company: domain, mailbox: false },
  )
);
const BULK_MAILBOXES = bulkRows.filter((row) => row.mailbox).map((row) =>
  `${row.name.toLowerCase().replace(" ", ".")}@${row.company}`
);
const MAX_SESSIONS = 2;

const missing = await ensureRealMailSoftware();
if (missing) console.log(`real mail greylisting suite skipped: ${missing}`);

const ENV = {
  VERIFY_DNS_SERVER: REAL_DNS_SERVER,
  VERIFY_SMTP_PORT: String(REAL_SMTP_PORT),
  VERIFY_HELO_NAME: REAL_HELO_NAME,
  VERIFY_TIMEOUT_SECONDS: "5",
  VERIFY_LOOKUP_SECONDS: "30",
  VERIFY_GREYLIST_RETRY_SECONDS: "2",
  VERIFY_GREYLIST_DELAY_SECONDS: String(SLOW_GREYLIST_SECONDS),
  VERIFY_MAX_SESSIONS_PER_HOST: String(MAX_SESSIONS),
  VERIFY_ALLOW_PRIVATE_ADDRESSES: "true",
};

/**
 * Every RCPT asked at mx.slowgrey.test, as "sender recipient", from the WARN line the world's
 * Postfix logs for each (accepted, greylisted or refused alike).
 */
function askedPairs(log: string, domain: string): Set<string> {
  const re = new RegExp(
    `warn: RCPT .* from=<([^>]*)> to=<([^>]*@${domain.replace(".", "\\.")})>`,
    "g",
  );
  return new Set([...log.matchAll(re)].map((m) => `${m[1]} ${m[2]}`));
}

/** 0 → "a", 25 → "z", 26 → "ba": a distinct surname part per lookup. */
function letters(n: number): string {
  let out = "";
  do {
    out = String.fromCharCode(97 + (n % 26)) + out;
    n = Math.floor(n / 26);
  } while (n > 0);
  return out;
}

/** The most smtpd sessions open at once, read from the connect/disconnect lines in order. */
function mostOpenSessions(log: string): number {
  let open = 0;
  let most = 0;
  for (const line of log.split("\n")) {
    if (!line.includes("smtpd[")) continue;
    if (/\bdisconnect from /.test(line)) open--;
    else if (/\bconnect from /.test(line)) most = Math.max(most, ++open);
  }
  return most;
}

/** The service as its own process (main.ts), pointed at this mail world. */
function serviceEnv(
  caFile: string,
  dataDir: string,
  port: number,
  databaseUrl: string | null,
): Record<string, string> {
  const env: Record<string, string> = {
    ...ENV,
    VERIFY_TLS_CA_FILE: caFile,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    SVC_SECRET: "real-mail-greylisting-secret-0123456789abcdef",
    SVC_BOOTSTRAP_KEY: KEY,
    SVC_BOOTSTRAP_POINTS: "1000000",
    PRICE_FIND_EMAIL: String(PRICE_EMAIL),
    RATE_LIMIT_ACCOUNT: "100000/60",
    LOG_REQUESTS: "false",
    LEAD_SEARCH_RUNNER: "inline",
    LEAD_SEARCH_POLL_MS: "100",
    BULK_LEASE_SECONDS: "2",
  };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  return env;
}

Deno.test({
  name: "real mail: greylisting for minutes, and session slots across instances",
  ignore: missing !== null,
  ...DB_TEST,
  async fn(t) {
    const mail = await startRealMailWorld({
      greylistSeconds: 2,
      slowGreylistSeconds: SLOW_GREYLIST_SECONDS,
      slowGreyDomains: BULK_DOMAINS,
      mailboxes: BULK_MAILBOXES,
    });
    const config = loadConfig({ ...ENV, VERIFY_TLS_CA_FILE: mail.caFile });
    const kv = await openKv(":memory:");
    const secret = "real-mail-greylisting-secret-0123456789abcdef";
    const env = await createTestEnv({
      ports: await buildPorts(config, { kv, clock: systemClock, secret }),
      config: { prices: WORLD_PRICES },
    });
    const envs = [env];
    const children: ServiceChild[] = [];
    const dirs: string[] = [];
    const pgs: Array<{ drop(): Promise<void> }> = [];
    try {
      const ws = await createTestWorkspace(env, 10_000);
      const find = lookupCaller(env, ws.apiKey, "/api/v1/find");
      const verify = lookupCaller(env, ws.apiKey, "/api/v1/verify");

      await t.step(
        "postgrey at 60 s: a find and a verify answer unavailable/greylisted with retryAfterSeconds, free; after it found and valid, billed once, same sender and recipients",
        async () => {
          const findRequest = { name: "Ada Lovelace", company: "slowgrey.test" };
          const verifyRequest = { email: "grace.hopper@slowgrey.test" };
          const sender = `verify@${REAL_HELO_NAME}`;
          const started = performance.now();
          let mark = await mail.mark();
          const first = await find(findRequest, "slow-grey");
          const findLog = await mail.logSince(mark);
          const findAt = performance.now();
          assert.equal(first.status, 200);
          assert.equal(first.data.reason, "verification-unavailable", JSON.stringify(first.data));
          assert.equal(first.data.verification.smtpCode, 450);
          assert.equal(first.data.pointsCharged, 0);
          const findWait = first.data.retryAfterSeconds;
          assert.ok(findWait > 0 && findWait <= SLOW_GREYLIST_SECONDS, `retryAfter ${findWait}`);
          const findAsked = askedPairs(findLog, "slowgrey.test");
          assert.ok(findAsked.size > 2, findLog);
          assert.ok([...findAsked].every((pair) => pair.startsWith(`${sender} `)));
          assert.match(findLog, /Greylisted/);

          mark = await mail.mark();
          const firstVerify = await verify(verifyRequest, "slow-grey-verify");
          const verifyLog = await mail.logSince(mark);
          const verifyAt = performance.now();
          assert.equal(firstVerify.status, 200);
          assert.deepEqual(
            [firstVerify.data.status, firstVerify.data.reason],
            ["unknown", "greylisted"],
            JSON.stringify(firstVerify.data),
          );
          assert.deepEqual([firstVerify.data.charged, firstVerify.data.pointsCharged], [false, 0]);
          const verifyWait = firstVerify.data.retryAfterSeconds;
          assert.ok(
            verifyWait > 0 && verifyWait <= SLOW_GREYLIST_SECONDS,
            `retryAfter ${verifyWait}`,
          );
          // The catch-all probe and the address, from our sender; the probe is find's.
          const verifyAsked = askedPairs(verifyLog, "slowgrey.test");
          assert.equal(verifyAsked.size, 2, verifyLog);
          assert.ok(verifyAsked.has(`${sender} grace.hopper@slowgrey.test`), verifyLog);
          const probe = [...verifyAsked].find((pair) => !pair.includes("grace.hopper"))!;
          assert.ok(findAsked.has(probe), "find and verify ask the same catch-all probe");
          assert.match(verifyLog, /Greylisted/);

          // One wait for both: until the later of the two times they were told.
          const due = Math.max(findAt + findWait * 1000, verifyAt + verifyWait * 1000);
          await new Promise((resolve) =>
            setTimeout(resolve, Math.max(0, due - performance.now()) + 1000)
          );

          // The verify first: it asks the probe and the address again, exactly as before.
          mark = await mail.mark();
          const verifyAgain = await verify(verifyRequest, "slow-grey-verify");
          const verifyAgainLog = await mail.logSince(mark);
          assert.deepEqual(
            [verifyAgain.data.status, verifyAgain.data.reason],
            ["valid", null],
            JSON.stringify(verifyAgain.data),
          );
          assert.deepEqual(
            [verifyAgain.data.charged, verifyAgain.data.pointsCharged],
            [true, PRICE_VERIFY],
          );
          assert.deepEqual(askedPairs(verifyAgainLog, "slowgrey.test"), verifyAsked);
          assert.doesNotMatch(verifyAgainLog, /Greylisted/);

          // Then the find: every RCPT (its candidates; the probe unless the verify's verdict on the
          // domain is already known) one it asked, greylisted, before.
          mark = await mail.mark();
          const again = await find(findRequest, "slow-grey");
          const againLog = await mail.logSince(mark);
          assert.equal(again.data.found, true, JSON.stringify(again.data));
          assert.equal(again.data.email, "ada.lovelace@slowgrey.test");
          assert.equal(again.data.replay, false);
          assert.equal(again.data.pointsCharged, PRICE_EMAIL);
          const findAgain = askedPairs(againLog, "slowgrey.test");
          assert.ok(findAgain.has(`${sender} ada.lovelace@slowgrey.test`), againLog);
          for (const pair of findAgain) assert.ok(findAsked.has(pair), pair);
          assert.doesNotMatch(againLog, /Greylisted/);

          const [{ n }] = await env.db.sql<{ n: number }[]>`
            SELECT coalesce(sum(amount), 0)::int AS n FROM ledger_entries
             WHERE workspace_id = ${ws.workspaceId} AND kind = 'charge'`;
          assert.equal(n, PRICE_EMAIL + PRICE_VERIFY, "each billed once");
          console.log(`find + verify behind 60 s postgrey: ${seconds(started)} s`);
        },
      );

      await t.step(
        `a ${bulkRows.length}-row bulk find over five greylisting domains, kill -9 while rows wait: every row answered as its mailbox is, none charged twice`,
        async () => {
          const started = performance.now();
          const dataDir = await Deno.makeTempDir();
          dirs.push(dataDir);
          const pg = PG_URL ? await openTestDatabase() : null;
          if (pg) pgs.push(pg);
          const port = freePort();
          const base = `http://127.0.0.1:${port}`;
          const childEnv = serviceEnv(mail.caFile, dataDir, port, pg?.url ?? null);
          const start = (label: string) => {
            const child = new ServiceChild(label, childEnv, { clearEnv: false, show: SHOW });
            children.push(child);
            return child;
          };
          let service = start("bulk");
          await service.waitHealthy(base);
          const created = await api(base, KEY, "/api/v1/bulk/jobs", {
            body: {
              operation: "find",
              rows: bulkRows.map(({ name, company }) => ({ name, company })),
            },
            headers: { "Idempotency-Key": "real-grey-bulk" },
          });
          assert.equal(created.status, 200, JSON.stringify(created.body));
          const jobId = created.body.data.job.id;
          const poll = async () => {
            const res = await api(base, KEY, `/api/v1/bulk/jobs/${jobId}`);
            assert.equal(res.status, 200);
            return res.body.data;
          };
          const waiting = await until("rows waiting on greylisting", 60_000, async () => {
            const job = await poll();
            return job.counts.waiting > 0 ? job : null;
          }, 100);
          assert.equal(waiting.status, "processing");
          await service.kill("SIGKILL");
          console.log(
            `bulk: killed at ${seconds(started)} s with ${waiting.counts.waiting} rows waiting`,
          );

          service = start("bulk restarted");
          await service.waitHealthy(base);
          const done = await until("the job completed", 240_000, async () => {
            const job = await poll();
            return job.status === "completed" ? job : null;
          }, 500);
          await service.kill("SIGTERM");
          console.log(`bulk: completed at ${seconds(started)} s`);

          const withMailbox = bulkRows.filter((row) => row.mailbox).length;
          assert.equal(done.counts.done, bulkRows.length);
          assert.equal(done.counts.waiting, 0);
          assert.equal(done.counts.found, withMailbox, JSON.stringify(done.counts));
          assert.deepEqual(done.counts.refused, { "not-found": bulkRows.length - withMailbox });

          let books: Database | null = null;
          try {
            books = pg ?? await openDatabase({ url: null, pgliteDir: `${dataDir}/pglite` });
            const sql = books.sql;
            const rows = await sql<{ position: number; answer: Record<string, unknown> }[]>`
              SELECT position, answer FROM bulk_job_rows WHERE job_id = ${jobId}
               ORDER BY position`;
            assert.equal(rows.length, bulkRows.length);
            for (const row of rows) {
              const asked = bulkRows[row.position - 1];
              const text = JSON.stringify(row.answer);
              if (asked.mailbox) {
                const email = `${asked.name.toLowerCase().replace(" ", ".")}@${asked.company}`;
                assert.ok(text.includes(`"${email}"`), `${email}: ${text}`);
              } else {
                assert.ok(text.includes("not-found"), `${asked.name}: ${text}`);
              }
            }
            const [rowBooks] = await sql<{ cost: number }[]>`
              SELECT coalesce(sum(cost), 0)::int AS cost FROM bulk_job_rows
               WHERE job_id = ${jobId}`;
            assert.equal(rowBooks.cost, bulkRows.length * PRICE_EMAIL, "every row billed once");
            const [job] = await sql<{ reservation_id: string; pages: number }[]>`
              SELECT reservation_id, pages FROM bulk_jobs WHERE id = ${jobId}`;
            const settles = await sql<{ amount: string; charge_key: string }[]>`
              SELECT amount, charge_key FROM ledger_entries
               WHERE reservation_id = ${job.reservation_id} AND kind = 'settle'`;
            assert.equal(settles.length, job.pages, "one settlement per recorded page");
            assert.equal(new Set(settles.map((e) => e.charge_key)).size, settles.length);
            assert.equal(settles.reduce((sum, e) => sum + Number(e.amount), 0), rowBooks.cost);
          } finally {
            if (books && books !== pg) await books.close();
          }
        },
      );

      await t.step({
        name: "two service processes on one Postgres, 32 concurrent lookups each at one host: " +
          "never more than VERIFY_MAX_SESSIONS_PER_HOST sessions in Postfix's log; " +
          "kill -9 of one holding slots frees them within the lease" +
          (PG_URL ? "" : " (ignored: needs TEST_DATABASE_URL)"),
        ignore: !PG_URL,
        fn: async () => {
          const started = performance.now();
          const pg = await openTestDatabase();
          pgs.push(pg);
          const bases: string[] = [];
          const instances: ServiceChild[] = [];
          // One after the other: the first migrates the database and creates the key.
          for (const label of ["instance-a", "instance-b"]) {
            const dataDir = await Deno.makeTempDir();
            dirs.push(dataDir);
            const port = freePort();
            const child = new ServiceChild(
              label,
              serviceEnv(mail.caFile, dataDir, port, pg.url),
              { clearEnv: false, show: SHOW },
            );
            children.push(child);
            instances.push(child);
            bases.push(`http://127.0.0.1:${port}`);
            await child.waitHealthy(bases.at(-1)!);
          }
          const lookup = (base: string, name: string) =>
            api(base, KEY, "/api/v1/find", { body: { name, company: "plain.test" } });

          let mark = await mail.mark();
          const answers = await Promise.all(
            bases.flatMap((base, i) =>
              Array.from(
                { length: 32 },
                (_, j) => lookup(base, `Zed Pr${letters(i * 32 + j)}ocess`),
              )
            ),
          );
          const log = await mail.logSince(mark);
          for (const answer of answers) {
            assert.equal(answer.body.data?.reason, "not-found", JSON.stringify(answer.body));
          }
          const most = mostOpenSessions(log);
          console.log(`two processes: most sessions open at once in Postfix's log: ${most}`);
          assert.ok(most <= MAX_SESSIONS, `${most} sessions at once`);
          assert.ok(most >= 1);

          // Instance A alone under load; once it holds slots, kill -9 it.
          mark = await mail.mark();
          const aLoad = Array.from(
            { length: 32 },
            (_, j) => lookup(bases[0], `Zed Ki${letters(j)}lled`).catch((error) => error),
          );
          const held = await until("instance A holding slots", 30_000, async () => {
            const rows = await pg.sql<{ token: string }[]>`
              SELECT token::text FROM verify_host_slots WHERE lease_until > now()`;
            return rows.length > 0 ? rows.map((r) => r.token) : null;
          }, 10);
          await instances[0].kill("SIGKILL");
          const killedAt = performance.now();
          await Promise.all(aLoad);
          // Instance B's lookups go on meanwhile, waiting for A's slots only as long as a lease.
          const bAnswers = Promise.all(
            Array.from(
              { length: 32 },
              (_, j) => lookup(bases[1], `Zed Su${letters(j)}rvivor`),
            ),
          );
          await until("the killed instance's slots free", 15_000, async () => {
            const [{ n }] = await pg.sql<{ n: number }[]>`
              SELECT count(*)::int AS n FROM verify_host_slots
               WHERE token = ANY(${held}::uuid[]) AND lease_until > now()`;
            return n === 0;
          }, 50);
          const freedMs = performance.now() - killedAt;
          console.log(
            `the killed instance's ${held.length} slots free ${
              Math.round(freedMs)
            } ms after kill -9`,
          );
          assert.ok(freedMs <= 6_000 + 1_000, `within the 6 s lease (${Math.round(freedMs)} ms)`);
          for (const answer of await bAnswers) {
            assert.equal(answer.body.data?.reason, "not-found", JSON.stringify(answer.body));
          }
          await until("the slot table empty", 7_000, async () => {
            const [{ n }] = await pg.sql<{ n: number }[]>`
              SELECT count(*)::int AS n FROM verify_host_slots WHERE lease_until > now()`;
            return n === 0;
          }, 50);
          const afterKill = mostOpenSessions(await mail.logSince(mark));
          assert.ok(afterKill <= MAX_SESSIONS, `${afterKill} sessions at once around the kill`);
          await instances[1].kill("SIGTERM");
          console.log(`two processes: ${seconds(started)} s`);
        },
      });

      await t.step(
        "the same load with each instance counting only its own sessions opens more (what the leases prevent)",
        async () => {
          const unshared = [];
          for (let i = 0; i < 2; i++) {
            unshared.push(
              await createTestEnv({
                db: env.db,
                ports: await buildPorts(config, { kv, clock: systemClock, secret }),
                config: { prices: WORLD_PRICES },
              }),
            );
          }
          envs.push(...unshared);
          const finders = unshared.map((e) => lookupCaller(e, ws.apiKey, "/api/v1/find"));
          const mark = await mail.mark();
          await Promise.all(
            finders.flatMap((f, i) =>
              Array.from(
                { length: 32 },
                (_, j) => f({ name: `Zed Un${letters(i * 32 + j)}shared`, company: "plain.test" }),
              )
            ),
          );
          const most = mostOpenSessions(await mail.logSince(mark));
          console.log(`most sessions open at once, per-process slots: ${most}`);
          assert.ok(most > MAX_SESSIONS, `${most} sessions at once`);
        },
      );
    } finally {
      for (const child of children) await child.kill("SIGKILL").catch(() => {});
      for (const e of envs.slice(1)) await e.close().catch(() => {});
      await env.close();
      kv.close();
      for (const pg of pgs) await pg.drop().catch(() => {});
      for (const dir of dirs) await Deno.remove(dir, { recursive: true }).catch(() => {});
      await mail.stop();
    }
  },
});

function seconds(since: number): number {
  return Math.round((performance.now() - since) / 100) / 10;
}
