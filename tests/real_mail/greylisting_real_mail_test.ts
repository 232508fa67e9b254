/**
 * Greylisting as the mail world has it, and politeness across instances, against real Postfix,
 * postgrey and dnsmasq (`real_mail_world.ts`):
 *
 * - postgrey with a 60 s delay in front of mx.slowgrey.test, far longer than a lookup waits: a
 *   find answers `verification-unavailable` with `retryAfterSeconds`, free; the same find after
 *   that time is found and billed once, and Postfix's log shows the same sender and the same
 *   recipients (the catch-all probe included) both times.
 * - two engines ("instances", each with its own ports) sharing one database for their session
 *   slots, 32 concurrent lookups each at mx.plain.test: Postfix's own log never shows more than
 *   `VERIFY_MAX_SESSIONS_PER_HOST` sessions open at once.
 *
 * The 60 s wait is the one slow case of the suite (it holds the suite's lock for about 75 s).
 * Needs root and the Debian packages, as the rest of the suite.
 */
import assert from "node:assert/strict";
import { buildPorts } from "../../domain/build_ports.ts";
import { loadConfig } from "../../domain/config/config.ts";
import { systemClock } from "../../domain/shared/clock.ts";
import { openKv } from "../../domain/stores/kv.ts";
import { migrate } from "../../domain/stores/migrate.ts";
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

const SLOW_GREYLIST_SECONDS = 60;
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

/** Postfix's reject lines of a log piece: (sender, recipient) pairs, in order. */
function rejectedPairs(log: string, domain: string): Array<[string, string]> {
  const re = new RegExp(`from=<([^>]*)> to=<([^>]*@${domain.replace(".", "\\.")})>`, "g");
  return [...log.matchAll(re)].map((m) => [m[1], m[2]]);
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

Deno.test({
  name: "real mail: greylisting for minutes, and session slots across instances",
  ignore: missing !== null,
  ...DB_TEST,
  async fn(t) {
    const mail = await startRealMailWorld({
      greylistSeconds: 2,
      slowGreylistSeconds: SLOW_GREYLIST_SECONDS,
    });
    const config = loadConfig({ ...ENV, VERIFY_TLS_CA_FILE: mail.caFile });
    const slotsDb = await openTestDatabase();
    await migrate(slotsDb.sql);
    const kv = await openKv(":memory:");
    const secret = "real-mail-greylisting-secret-0123456789abcdef";
    // Two instances: two sets of ports (two engines), one KV and one database between them.
    const instance = () => buildPorts(config, { kv, clock: systemClock, secret, sql: slotsDb.sql });
    const envs = [
      await createTestEnv({ ports: await instance(), config: { prices: WORLD_PRICES } }),
    ];
    try {
      const env = envs[0];
      const ws = await createTestWorkspace(env, 10_000);
      const find = lookupCaller(env, ws.apiKey, "/api/v1/find");

      await t.step(
        "postgrey at 60 s: verification-unavailable with retryAfterSeconds, free; then found, billed once, same sender and recipients",
        async () => {
          const request = { name: "Ada Lovelace", company: "slowgrey.test" };
          let mark = await mail.mark();
          const first = await find(request, "slow-grey");
          const firstLog = await mail.logSince(mark);
          assert.equal(first.status, 200);
          assert.equal(first.data.reason, "verification-unavailable", JSON.stringify(first.data));
          assert.equal(first.data.verification.smtpCode, 450);
          assert.equal(first.data.pointsCharged, 0);
          const wait = first.data.retryAfterSeconds;
          assert.ok(wait > 0 && wait <= SLOW_GREYLIST_SECONDS, `retryAfterSeconds ${wait}`);
          const asked = rejectedPairs(firstLog, "slowgrey.test");
          assert.ok(asked.length > 2, firstLog);
          assert.ok(asked.every(([from]) => from === `verify@${REAL_HELO_NAME}`));

          await new Promise((resolve) => setTimeout(resolve, (wait + 1) * 1000));
          mark = await mail.mark();
          const again = await find(request, "slow-grey");
          const againLog = await mail.logSince(mark);
          assert.equal(again.data.found, true, JSON.stringify(again.data));
          assert.equal(again.data.email, "ada.lovelace@slowgrey.test");
          assert.equal(again.data.replay, false);
          assert.equal(again.data.pointsCharged, PRICE_EMAIL);
          const [{ n }] = await env.db.sql<{ n: number }[]>`
            SELECT coalesce(sum(amount), 0)::int AS n FROM ledger_entries
             WHERE workspace_id = ${ws.workspaceId} AND kind = 'charge'`;
          assert.equal(n, PRICE_EMAIL, "billed once");
          // The same sender; the probe (refused now) is the very one greylisted before; every
          // recipient refused now was asked, greylisted, the first time.
          const second = rejectedPairs(againLog, "slowgrey.test");
          assert.ok(second.length >= 1, againLog);
          assert.equal(second[0][1], asked[0][1], "the same catch-all probe");
          const before = new Set(asked.map(([from, to]) => `${from} ${to}`));
          for (const [from, to] of second) assert.ok(before.has(`${from} ${to}`), to);
          assert.doesNotMatch(againLog, /Greylisted/);
        },
      );

      await t.step(
        "two instances, 32 concurrent lookups each at one host: never more than VERIFY_MAX_SESSIONS_PER_HOST sessions in Postfix's log",
        async () => {
          envs.push(
            await createTestEnv({
              db: env.db,
              ports: await instance(),
              config: { prices: WORLD_PRICES },
            }),
          );
          const finders = envs.map((e) => lookupCaller(e, ws.apiKey, "/api/v1/find"));
          const mark = await mail.mark();
          const answers = await Promise.all(
            finders.flatMap((f, i) =>
              Array.from(
                { length: 32 },
                (_, j) => f({ name: `Zed No${letters(i * 32 + j)}body`, company: "plain.test" }),
              )
            ),
          );
          const log = await mail.logSince(mark);
          for (const answer of answers) assert.equal(answer.data.reason, "not-found");
          const most = mostOpenSessions(log);
          console.log(`most sessions open at once in Postfix's log: ${most}`);
          assert.ok(most <= MAX_SESSIONS, `${most} sessions at once`);
          assert.ok(most >= 1);
        },
      );

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
      for (const env of envs.slice(1)) await env.close().catch(() => {});
      await envs[0].close();
      kv.close();
      await slotsDb.drop();
      await mail.stop();
    }
  },
});
