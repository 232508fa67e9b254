/**
 * `POST /api/v1/verify` against real mail software: Debian's Postfix, postgrey and dnsmasq on
 * 127.0.0.x (`real_mail_world.ts`), the service's own engine pointed at them. Each case asserts
 * the answer (status, reason, checks), its charge, and what Postfix's own log says the verifier
 * did: sessions and RCPTs, QUIT sent, never DATA or BDAT.
 *
 * Needs root (Postfix's master) and the Debian packages, installed here when missing; without
 * them the suite says why in one line and is skipped.
 */
import assert from "node:assert/strict";
import { buildPorts } from "../../domain/build_ports.ts";
import { loadConfig } from "../../domain/config/config.ts";
import { FakeClock } from "../../domain/shared/clock.ts";
import { openKv } from "../../domain/stores/kv.ts";
import { WORLD_PRICES } from "../find_world.ts";
import { createTestEnv, createTestWorkspace, DB_TEST, lookupCaller } from "../harness.ts";
import {
  ensureRealMailSoftware,
  readPostfixSessions,
  REAL_DNS_SERVER,
  REAL_HELO_NAME,
  REAL_SMTP_PORT,
  startRealMailWorld,
} from "./real_mail_world.ts";

const PRICE = WORLD_PRICES.verify;
/** postgrey's delay; the verifier waits a second longer before its one retry. */
const GREYLIST_SECONDS = 2;

const missing = await ensureRealMailSoftware();
if (missing) console.log(`real mail verify suite skipped: ${missing}`);

const NO_FLAGS = {
  syntax: true,
  disposable: false,
  role: false,
  freeMail: false,
  didYouMean: null,
};

Deno.test({
  name: "verify against real Postfix, postgrey and dnsmasq",
  ignore: missing !== null,
  ...DB_TEST,
  async fn(t) {
    const mail = await startRealMailWorld({ greylistSeconds: GREYLIST_SECONDS });
    const config = loadConfig({
      VERIFY_DNS_SERVER: REAL_DNS_SERVER,
      VERIFY_SMTP_PORT: String(REAL_SMTP_PORT),
      VERIFY_HELO_NAME: REAL_HELO_NAME,
      VERIFY_TIMEOUT_SECONDS: "5",
      VERIFY_LOOKUP_SECONDS: "30",
      VERIFY_GREYLIST_RETRY_SECONDS: String(GREYLIST_SECONDS + 1),
      VERIFY_TLS_CA_FILE: mail.caFile,
      VERIFY_ALLOW_PRIVATE_ADDRESSES: "true",
    });
    const clock = new FakeClock(Date.now());
    const portsKv = await openKv(":memory:");
    const ports = await buildPorts(config, { kv: portsKv, clock });
    const env = await createTestEnv({ clock, ports, config: { prices: WORLD_PRICES } });
    let billedCount = 0;
    try {
      const ws = await createTestWorkspace(env, 10_000);
      const call = lookupCaller(env, ws.apiKey, "/api/v1/verify");
      /** One verification, with what Postfix logged of it. */
      const verify = async (email: string) => {
        const mark = await mail.mark();
        const { status, data } = await call({ email });
        assert.equal(status, 200);
        const log = await mail.logSince(mark);
        const postfix = readPostfixSessions(log);
        assert.equal(postfix.dataCommands, 0, "never DATA or BDAT");
        assert.equal(postfix.quits, postfix.sessions, "every session ended with our QUIT");
        return { data, postfix, log };
      };
      const billed = (data: Record<string, unknown>) => {
        billedCount++;
        assert.deepEqual([data.charged, data.pointsCharged], [true, PRICE]);
      };
      const free = (data: Record<string, unknown>) =>
        assert.deepEqual([data.charged, data.pointsCharged], [false, 0]);

      await t.step("a valid mailbox: valid, billed, one session, probe + the address", async () => {
        const { data, postfix } = await verify("Ada.Lovelace@plain.test");
        assert.equal(data.email, "ada.lovelace@plain.test");
        assert.deepEqual([data.status, data.reason, data.confidence], ["valid", null, 0.95]);
        assert.deepEqual(data.checks, NO_FLAGS);
        assert.deepEqual(data.mail, {
          mxHosts: ["mx.plain.test"],
          acceptsMail: true,
          provider: "other",
          catchAll: false,
        });
        assert.equal(data.verification.mxHost, "mx.plain.test");
        assert.equal(data.verification.smtpCode, 250);
        assert.equal(data.verification.enhancedStatus, "2.1.5");
        assert.equal(data.verification.encrypted, false);
        billed(data);
        assert.deepEqual([postfix.sessions, postfix.rcpts], [1, 2]);
      });

      await t.step("an unknown mailbox: invalid, 5.1.1, billed, one RCPT (no probe)", async () => {
        const { data, postfix } = await verify("zed.nobody@plain.test");
        assert.deepEqual([data.status, data.reason], ["invalid", "mailbox-not-found"]);
        assert.equal(data.verification.smtpCode, 550);
        assert.equal(data.verification.enhancedStatus, "5.1.1");
        billed(data);
        assert.deepEqual([postfix.sessions, postfix.rcpts], [1, 1]);
        assert.equal(postfix.errorLimitHits, 0);
      });

      await t.step("a role address: flagged role, verified like any other", async () => {
        const { data, postfix } = await verify("info@plain.test");
        assert.deepEqual(data.checks, { ...NO_FLAGS, role: true });
        assert.equal(data.status, "valid");
        billed(data);
        assert.deepEqual([postfix.sessions, postfix.rcpts], [1, 1]);
      });

      await t.step("a catch-all domain: catch-all, billed, the probe alone decides", async () => {
        const { data, postfix } = await verify("anyone@catchall.test");
        assert.deepEqual([data.status, data.reason], ["catch-all", "catch-all"]);
        assert.equal(data.mail.catchAll, true);
        billed(data);
        assert.deepEqual([postfix.sessions, postfix.rcpts], [1, 1]);
      });

      await t.step("postgrey: valid after one retry of the same two recipients", async () => {
        const { data, postfix, log } = await verify("ada.lovelace@grey.test");
        assert.equal(data.status, "valid", JSON.stringify(data));
        billed(data);
        assert.deepEqual([postfix.sessions, postfix.rcpts], [2, 4]);
        const probes = [...log.matchAll(/to=<([a-z0-9]{20})@grey\.test>/g)].map((m) => m[1]);
        assert.equal(probes.length, 2, log);
        assert.equal(probes[0], probes[1], "the retry asks the same probe");
      });

      await t.step("a 5.1.8 sender rejection: unknown, free, nothing cached", async () => {
        for (let round = 0; round < 2; round++) {
          const { data, postfix } = await verify("ada.lovelace@sender.test");
          assert.deepEqual([data.status, data.reason], ["unknown", "sender-rejected"]);
          assert.equal(data.verification.smtpCode, 550);
          assert.equal(data.verification.enhancedStatus, "5.1.8");
          assert.equal(data.cached, false);
          free(data);
          assert.deepEqual([postfix.sessions, postfix.rcpts], [1, 1]);
        }
      });

      await t.step("no MX but an address: the domain itself answers", async () => {
        const { data, postfix } = await verify("ada.lovelace@afallback.test");
        assert.equal(data.status, "valid");
        assert.deepEqual(data.mail.mxHosts, ["afallback.test"]);
        assert.equal(data.verification.mxHost, "afallback.test");
        billed(data);
        assert.equal(postfix.sessions, 1);
      });

      for (
        const [email, reason, what] of [
          ["ada.lovelace@nullmx.test", "null-mx", "a null MX"],
          ["ada.lovelace@dangling.test", "no-mail-server", "a dangling MX"],
          ["ada.lovelace@nosuch.test", "domain-not-found", "NXDOMAIN"],
        ]
      ) {
        await t.step(`${what}: invalid, ${reason}, billed, no session`, async () => {
          const { data, postfix } = await verify(email);
          assert.deepEqual([data.status, data.reason], ["invalid", reason]);
          assert.equal(data.mail.acceptsMail, false);
          assert.equal(data.verification, null);
          billed(data);
          assert.equal(postfix.sessions, 0);
        });
      }

      await t.step("a disposable domain: flagged, verified (a catch-all here)", async () => {
        const { data, postfix } = await verify("someone@mailinator.com");
        assert.deepEqual(data.checks, { ...NO_FLAGS, disposable: true });
        assert.equal(data.status, "catch-all");
        billed(data);
        assert.deepEqual([postfix.sessions, postfix.rcpts], [1, 1]);
      });

      await t.step("a typo of gmail.com: the suggestion, never applied", async () => {
        const { data, postfix } = await verify("ada@gmial.com");
        assert.equal(data.email, "ada@gmial.com");
        assert.equal(data.checks.didYouMean, "ada@gmail.com");
        assert.deepEqual([data.status, data.reason], ["invalid", "domain-not-found"]);
        billed(data);
        assert.equal(postfix.sessions, 0);
      });

      await t.step("a repeat within the window: from the cache, billed, no session", async () => {
        const { data, postfix } = await verify("ada.lovelace@plain.test");
        assert.deepEqual([data.status, data.cached], ["valid", true]);
        billed(data);
        assert.equal(postfix.sessions, 0);
      });

      await t.step("the ledger holds exactly the billed answers", async () => {
        const [row] = await env.db.sql<{ n: number }[]>`
          SELECT coalesce(sum(amount), 0)::int AS n FROM ledger_entries
           WHERE workspace_id = ${ws.workspaceId} AND kind = 'charge'`;
        assert.equal(row.n, billedCount * PRICE);
      });
    } finally {
      await env.close();
      portsKv.close();
      await mail.stop();
    }
  },
});
