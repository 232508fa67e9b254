/**
 * `POST /api/v1/find` against real mail software: Debian's Postfix, postgrey and dnsmasq on
 * 127.0.0.x (`real_mail_world.ts`), the service's own DNS + SMTP engine pointed at them. Each case
 * asserts the API's answer and billing, and what Postfix's own log says the verifier did:
 * sessions and RCPTs per lookup, QUIT sent, never DATA or BDAT.
 *
 * Needs root (Postfix's master) and the Debian packages, installed here when missing; without
 * them the suite says why in one line and is skipped (CI runs as root and runs it).
 */
import assert from "node:assert/strict";
import { buildPorts } from "../../domain/build_ports.ts";
import { loadConfig } from "../../domain/config/config.ts";
import { emailCandidates } from "../../domain/find/email_candidates.ts";
import { catchAllKey } from "../../domain/verify/verification_cache.ts";
import { FakeClock } from "../../domain/shared/clock.ts";
import { openKv } from "../../domain/stores/kv.ts";
import { PRICE_EMAIL, WORLD_PRICES } from "../find_world.ts";
import { createTestEnv, createTestWorkspace, DB_TEST, lookupCaller } from "../harness.ts";
import {
  ensureRealMailSoftware,
  readPostfixSessions,
  REAL_DNS_SERVER,
  REAL_HELO_NAME,
  REAL_SMTP_PORT,
  startRealMailWorld,
} from "./real_mail_world.ts";

const PRICE = PRICE_EMAIL;
/** postgrey's delay; the verifier waits a second longer before its one retry. */
const GREYLIST_SECONDS = 2;

const missing = await ensureRealMailSoftware();
if (missing) console.log(`real mail suite skipped: ${missing}`);

/** How many candidates find asks for a name at a domain (no middle name, no known pattern). */
function candidateCount(given: string, surname: string, domain: string): number {
  return emailCandidates({ given, surname }, domain).length;
}

Deno.test({
  name: "find against real Postfix, postgrey and dnsmasq",
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
      // The mail hosts of this world listen on 127.0.0.x.
      VERIFY_ALLOW_PRIVATE_ADDRESSES: "true",
    });
    const clock = new FakeClock(Date.now());
    const portsKv = await openKv(":memory:");
    const ports = await buildPorts(config, { kv: portsKv, clock });
    const env = await createTestEnv({ clock, ports, config: { prices: WORLD_PRICES } });
    try {
      const ws = await createTestWorkspace(env, 10_000);
      const find = lookupCaller(env, ws.apiKey, "/api/v1/find");
      /** One lookup, with what Postfix logged of it. */
      const lookup = async (name: string, domain: string) => {
        const mark = await mail.mark();
        const { status, data } = await find({ name, company: domain });
        assert.equal(status, 200);
        const log = await mail.logSince(mark);
        const postfix = readPostfixSessions(log);
        // Whatever the case: every session we opened ended with our QUIT unless the server hung
        // up, and no mail was ever sent.
        assert.equal(postfix.dataCommands, 0, "never DATA or BDAT");
        assert.equal(postfix.tlsFailures, 0, "no TLS failure in Postfix's log");
        return { data, postfix, log };
      };
      const billed = (data: Record<string, unknown>) =>
        assert.deepEqual(
          { charged: data.charged, pointsCharged: data.pointsCharged },
          { charged: true, pointsCharged: PRICE },
        );
      const free = (data: Record<string, unknown>) =>
        assert.deepEqual(
          { charged: data.charged, pointsCharged: data.pointsCharged },
          { charged: false, pointsCharged: 0 },
        );

      await t.step("a valid mailbox: found, billed, one session, probe + one RCPT", async () => {
        const { data, postfix } = await lookup("Ada Lovelace", "plain.test");
        assert.equal(data.found, true);
        assert.equal(data.email, "ada.lovelace@plain.test");
        assert.equal(data.status, "valid");
        assert.equal(data.reason, null);
        billed(data);
        assert.equal(data.verification.method, "smtp");
        assert.equal(data.verification.mxHost, "mx.plain.test");
        assert.equal(data.verification.smtpCode, 250);
        assert.equal(data.verification.enhancedStatus, "2.1.5");
        assert.equal(data.verification.provider, "other");
        assert.equal(data.verification.encrypted, false, "this host offers no STARTTLS");
        assert.deepEqual([postfix.sessions, postfix.rcpts, postfix.quits], [1, 2, 1]);
      });

      await t.step(
        "an unknown person: not-found, billed; the domain is known not catch-all (no probe), every candidate asked, 9 a session, no error limit hit",
        async () => {
          const { data, postfix } = await lookup("Zed Nobody", "plain.test");
          assert.equal(data.found, false);
          assert.equal(data.reason, "not-found");
          assert.equal(data.status, "invalid");
          billed(data);
          assert.equal(data.verification.smtpCode, 550);
          assert.equal(data.verification.enhancedStatus, "5.1.1");
          const candidates = candidateCount("Zed", "Nobody", "plain.test");
          assert.equal(postfix.rcpts, candidates);
          assert.equal(postfix.sessions, Math.ceil(candidates / 9));
          assert.equal(postfix.quits, postfix.sessions);
          assert.equal(postfix.errorLimitHits, 0);
          // Each session stayed under smtpd_soft_error_limit (10): no reply was slowed.
          for (const ended of postfix.ended) assert.ok(Number(ended.rcpt.split("/").pop()) <= 9);
        },
      );

      await t.step("a domain whose pattern is not first.last: jsmith, then mhamilton", async () => {
        const first = await lookup("John Smith", "pattern.test");
        assert.equal(first.data.email, "jsmith@pattern.test");
        billed(first.data);
        // The probe, first.last, first, then flast.
        assert.equal(first.postfix.rcpts, 4);
        // The domain's pattern is learned from the address just verified: flast is asked first.
        const second = await lookup("Margaret Hamilton", "pattern.test");
        assert.equal(second.data.email, "mhamilton@pattern.test");
        billed(second.data);
        assert.deepEqual([second.postfix.sessions, second.postfix.rcpts], [1, 1]);
      });

      await t.step("a catch-all domain: catch-all, no guess, one RCPT (the probe)", async () => {
        const { data, postfix } = await lookup("Ada Lovelace", "catchall.test");
        assert.equal(data.found, false);
        assert.equal(data.reason, "catch-all");
        assert.equal(data.status, "catch-all");
        assert.equal(data.email, null);
        billed(data);
        assert.deepEqual([postfix.sessions, postfix.rcpts, postfix.quits], [1, 1, 1]);
      });

      await t.step(
        "postgrey in front of valid mailboxes: found after one retry of the same recipients",
        async () => {
          const { data, postfix, log } = await lookup("Ada Lovelace", "grey.test");
          assert.equal(data.found, true, JSON.stringify(data));
          assert.equal(data.email, "ada.lovelace@grey.test");
          billed(data);
          const candidates = candidateCount("Ada", "Lovelace", "grey.test");
          // First pass: the probe and every candidate, all greylisted, 9 a session; then one
          // session asking the probe (now refused) and ada.lovelace (accepted).
          const firstPass = Math.ceil((candidates + 1) / 9);
          assert.equal(postfix.sessions, firstPass + 1);
          assert.equal(postfix.rcpts, candidates + 1 + 2);
          assert.equal(postfix.quits, postfix.sessions);
          // The probe asked in the retry is the very one greylisted in the first pass.
          const probes = [...log.matchAll(/to=<([a-z0-9]{20})@grey\.test>/g)].map((m) => m[1]);
          assert.equal(probes.length, 2, log);
          assert.equal(probes[0], probes[1]);
        },
      );

      await t.step("two MX, the preferred one dead: the second answers", async () => {
        const { data, postfix } = await lookup("Ada Lovelace", "twomx.test");
        assert.equal(data.email, "ada.lovelace@twomx.test");
        assert.equal(data.verification.mxHost, "mx.plain.test");
        billed(data);
        assert.equal(postfix.sessions, 1);
      });

      await t.step("no MX: the domain's own address (A fallback)", async () => {
        const { data } = await lookup("Ada Lovelace", "afallback.test");
        assert.equal(data.email, "ada.lovelace@afallback.test");
        assert.equal(data.verification.mxHost, "afallback.test");
        billed(data);
      });

      for (
        const [domain, what] of [
          ["nullmx.test", "a null MX"],
          ["dangling.test", "an MX naming a host without an address"],
          ["nosuch.test", "NXDOMAIN"],
        ]
      ) {
        await t.step(`${what}: unusable-domain, free, no session`, async () => {
          const { data, postfix } = await lookup("Ada Lovelace", domain);
          assert.equal(data.found, false);
          assert.equal(data.reason, "unusable-domain");
          assert.equal(data.status, "invalid");
          free(data);
          assert.equal(postfix.sessions, 0);
        });
      }

      await t.step(
        "STARTTLS with a self-signed certificate: encrypted, in one session",
        async () => {
          const { data, postfix } = await lookup("Ada Lovelace", "selfsigned.test");
          assert.equal(data.email, "ada.lovelace@selfsigned.test");
          billed(data);
          assert.equal(data.verification.encrypted, true);
          assert.equal(data.verification.certificateVerified, false);
          assert.deepEqual([postfix.sessions, postfix.tlsSessions, postfix.quits], [1, 1, 1]);
          assert.equal(postfix.ended[0].starttls, "1");
        },
      );

      await t.step("STARTTLS with a CA the service is told about: verified", async () => {
        const { data, postfix } = await lookup("Ada Lovelace", "tlsca.test");
        assert.equal(data.email, "ada.lovelace@tlsca.test");
        billed(data);
        assert.equal(data.verification.encrypted, true);
        assert.equal(data.verification.certificateVerified, true);
        assert.deepEqual([postfix.sessions, postfix.tlsSessions], [1, 1]);
      });

      await t.step("a 5.7.1 client policy reject: unavailable, free, asked once", async () => {
        const { data, postfix } = await lookup("Ada Lovelace", "policy.test");
        assert.equal(data.found, false);
        assert.equal(data.reason, "verification-unavailable");
        assert.equal(data.status, "unknown");
        free(data);
        assert.equal(data.verification.smtpCode, 554);
        assert.equal(data.verification.enhancedStatus, "5.7.1");
        assert.deepEqual([postfix.sessions, postfix.rcpts, postfix.quits], [1, 1, 1]);
      });

      await t.step(
        "a 5.1.8 sender reject: unavailable, free, nothing cached, the session ends at once",
        async () => {
          for (let round = 0; round < 2; round++) {
            const { data, postfix, log } = await lookup("Ada Lovelace", "sender.test");
            assert.equal(data.found, false);
            assert.equal(data.reason, "verification-unavailable");
            free(data);
            assert.equal(data.verification.smtpCode, 550);
            assert.equal(data.verification.enhancedStatus, "5.1.8");
            assert.deepEqual([postfix.sessions, postfix.rcpts, postfix.quits], [1, 1, 1]);
            // Nothing learned: the next lookup probes again (a random local part, not a name).
            assert.match(log, /to=<[a-z0-9]{20}@sender\.test>/);
            assert.equal((await portsKv.get(catchAllKey("sender.test"))).value, null);
          }
        },
      );

      await t.step(
        "smtpd_hard_error_limit reached (421): unavailable, free, no further host",
        async () => {
          const { data, postfix } = await lookup("Zed Nobody", "limits.test");
          assert.equal(data.found, false);
          assert.equal(data.reason, "verification-unavailable");
          free(data);
          assert.equal(data.verification.smtpCode, 421);
          assert.equal(postfix.errorLimitHits, 1);
          assert.equal(postfix.sessions, 1);
        },
      );

      await t.step(
        "several people at one domain (a bulk job's rows) share sessions, within the RCPT cap",
        async () => {
          const people = [["Ada", "Lovelace"], ["Grace", "Hopper"], ["Zed", "Nobody"]];
          const requests = people.map(([given, surname]) => ({
            domain: "plain.test",
            candidates: emailCandidates({ given, surname }, "plain.test").map((c) => c.address),
          }));
          const mark = await mail.mark();
          const outcomes = await ports.verifier.verifyBatch!(requests);
          const postfix = readPostfixSessions(await mail.logSince(mark));
          assert.deepEqual(outcomes.map((o) => o.kind), ["valid", "valid", "rejected"]);
          // plain.test is known not catch-all: no probe. Ada 1 RCPT, Grace 1, Zed every candidate.
          const rcpts = 2 + requests[2].candidates.length;
          assert.equal(postfix.rcpts, rcpts);
          assert.equal(postfix.sessions, Math.ceil(rcpts / 9));
          assert.equal(postfix.errorLimitHits, 0);
          assert.equal(postfix.dataCommands, 0);
        },
      );

      await t.step(
        "postgrey in front of a batch: the deferred person found after one retry, the other at once",
        async () => {
          const requests = [["Ada", "Lovelace"], ["Alan", "Turing"]].map(([given, surname]) => ({
            domain: "grey.test",
            candidates: emailCandidates({ given, surname }, "grey.test").map((c) => c.address),
          }));
          const mark = await mail.mark();
          const outcomes = await ports.verifier.verifyBatch!(requests);
          const postfix = readPostfixSessions(await mail.logSince(mark));
          assert.deepEqual(
            outcomes.map((o) => o.kind === "valid" && o.address),
            ["ada.lovelace@grey.test", "alan.turing@grey.test"],
          );
          // Ada's triplet passed earlier; Alan's candidates are all deferred once, then his
          // address is asked again, in one more session.
          const firstPass = 1 + requests[1].candidates.length;
          assert.equal(postfix.sessions, Math.ceil(firstPass / 9) + 1);
          assert.equal(postfix.rcpts, firstPass + 1);
        },
      );

      await t.step("the ledger holds exactly the billed answers", async () => {
        const [row] = await env.db.sql<{ n: number }[]>`
          SELECT coalesce(sum(amount), 0)::int AS n FROM ledger_entries
           WHERE workspace_id = ${ws.workspaceId} AND kind = 'charge'`;
        // valid, unknown, jsmith, mhamilton, catch-all, grey, twomx, afallback, two TLS hosts.
        assert.equal(row.n, 10 * PRICE);
      });
    } finally {
      await env.close();
      portsKv.close();
      await mail.stop();
    }
  },
});
