/**
 * The remote verifier: `startVerifier` in-process on port 0 against the DNS and SMTP fakes,
 * asked through `createRemoteVerifier`, gives the same outcomes as the local engine with the
 * same settings; the secret is required and checked; bad bodies are 400; nothing logged names an
 * address.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../domain/config/config.ts";
import type { VerificationOutcome } from "../domain/verify/email_verifier.ts";
import {
  checkRemoteVerifierCredentials,
  createRemoteVerifier,
  CREDENTIALS_REFUSED,
  logRemoteVerifierCheck,
} from "../domain/verify/remote_verifier.ts";
import { createVerifierHandler } from "../domain/verify/verifier_server.ts";
import { createSmtpVerifier } from "../domain/verify/smtp_verifier.ts";
import { createDnsResolver } from "../domain/providers/dns/create_dns_resolver.ts";
import { memoryLogger } from "../domain/shared/logger.ts";
import { startVerifier } from "../verifier.ts";
import { startFakeDns } from "./fakes/dns_server.ts";
import { FAKE_TLS_CA_FILE, startFakeSmtp } from "./fakes/smtp_server.ts";

const OPEN = { sanitizeOps: false, sanitizeResources: false };
const SECRET = "test-verifier-secret-0123456789";

function mx(host: string) {
  return { mx: [{ preference: 10, exchange: host }] };
}

async function setup() {
  const dns = await startFakeDns({
    "valid.test": mx("mx1.example.test"),
    "rejects.test": mx("mx1.example.test"),
    "catchall.test": mx("mx2.example.test"),
    "blocked.test": mx("mx3.example.test"),
    "nullmx.test": { mx: [{ preference: 0, exchange: "." }] },
    "mx1.example.test": { a: ["127.0.0.1"] },
    "mx2.example.test": { a: ["127.0.0.2"] },
    "mx3.example.test": { a: ["127.0.0.3"] },
  });
  const smtp = await startFakeSmtp({
    hosts: ["127.0.0.1", "127.0.0.2", "127.0.0.3"],
    hostBehaviour: {
      "127.0.0.1": { mailboxes: { "ada@valid.test": "accept" } },
      "127.0.0.2": { catchAll: true },
      "127.0.0.3": { otherRecipients: "policy" },
    },
  });
  const env: Record<string, string> = {
    HOST: "127.0.0.1",
    VERIFIER_PORT: "0",
    VERIFIER_SECRET: SECRET,
    KV_PATH: ":memory:",
    VERIFY_DNS_SERVER: dns.address,
    VERIFY_SMTP_PORT: String(smtp.port),
    // Long enough for a TLS handshake on a loaded CI machine: a slower one falls back to plain
    // text, and the evidence the two verifiers give would differ.
    VERIFY_TIMEOUT_SECONDS: "2",
    VERIFY_LOOKUP_SECONDS: "3",
    VERIFY_GREYLIST_RETRY_SECONDS: "0.2",
    VERIFY_TLS_CA_FILE: FAKE_TLS_CA_FILE,
    // The fake mail hosts listen on 127.0.0.x.
    VERIFY_ALLOW_PRIVATE_ADDRESSES: "true",
  };
  const logger = memoryLogger();
  const service = await startVerifier(env, logger);
  const url = `http://127.0.0.1:${service.server.addr.port}`;
  const config = loadConfig({ ...env, VERIFIER_SECRET: undefined }).verify;
  const kv = await Deno.openKv(":memory:");
  const local = createSmtpVerifier({
    dns: (await createDnsResolver({
      nameServer: config.dnsServer,
      timeoutMs: config.commandTimeoutMs,
    })).resolver,
    kv,
    config,
  });
  const remote = createRemoteVerifier({ url, secret: SECRET, timeoutMs: 5000 });
  return {
    url,
    local,
    remote,
    logger,
    smtp,
    async close() {
      await service.stop();
      kv.close();
      await smtp.close();
      await dns.close();
    },
  };
}

/** The outcome without the time it was read. */
function comparable(outcome: VerificationOutcome) {
  const evidence = "evidence" in outcome && outcome.evidence
    ? { ...outcome.evidence, checkedAt: "-" }
    : null;
  return { ...outcome, ...("evidence" in outcome ? { evidence } : {}) };
}

Deno.test("remote verifier: the same outcomes as the local engine", OPEN, async () => {
  const rig = await setup();
  try {
    const cases: [string, string[], string][] = [
      ["valid.test", ["bob@valid.test", "ada@valid.test"], "valid"],
      ["rejects.test", ["bob@rejects.test"], "rejected"],
      ["catchall.test", ["bob@catchall.test"], "catch-all"],
      ["nullmx.test", ["bob@nullmx.test"], "unusable-domain"],
      ["missing.test", ["bob@missing.test"], "unusable-domain"],
      ["blocked.test", ["bob@blocked.test"], "unavailable"],
    ];
    for (const [domain, candidates, kind] of cases) {
      const local = await rig.local.verify({ domain, candidates });
      const remote = await rig.remote.verify({ domain, candidates });
      assert.equal(local.kind, kind, domain);
      assert.deepEqual(comparable(remote), comparable(local), domain);
    }
    // One log line per request, no address in any of them.
    const requests = rig.logger.lines.map((line) => JSON.parse(line)).filter((line) =>
      line.msg === "request"
    );
    assert.equal(requests.length, cases.length);
    assert.deepEqual(
      { method: requests[0].method, path: requests[0].path, status: requests[0].status },
      { method: "POST", path: "/verify", status: 200 },
    );
    assert.ok(rig.logger.lines.every((line) => !line.includes("@")));
  } finally {
    await rig.close();
  }
});

Deno.test(
  "remote verifier: secret, body checks, health, and failures as verifier-error",
  OPEN,
  async () => {
    const rig = await setup();
    try {
      const post = (body: unknown, secret = SECRET) =>
        fetch(`${rig.url}/verify`, {
          method: "POST",
          headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        });
      const request = { domain: "valid.test", candidates: ["ada@valid.test"] };

      const wrong = await post(request, "not-the-secret");
      assert.equal(wrong.status, 401);
      assert.equal((await wrong.json()).error.code, "unauthenticated");
      const none = await fetch(`${rig.url}/verify`, { method: "POST", body: "{}" });
      assert.equal(none.status, 401);
      await none.body?.cancel();
      assert.equal(rig.smtp.connections(), 0);

      for (
        const bad of [
          { domain: "valid.test", candidates: [] },
          { domain: "valid.test", candidates: ["ada@other.test"] },
          { domain: "not a domain", candidates: ["ada@valid.test"] },
          {
            domain: "valid.test",
            candidates: Array.from({ length: 51 }, (_, i) => `a${i}@valid.test`),
          },
          { domain: "x".repeat(254), candidates: ["a@valid.test"] },
        ]
      ) {
        const response = await post(bad);
        assert.equal(response.status, 400, JSON.stringify(bad).slice(0, 80));
        const body = await response.json();
        assert.equal(body.error.code, "validation_error");
        assert.ok(!JSON.stringify(body).includes("@"));
      }
      const notJson = await fetch(`${rig.url}/verify`, {
        method: "POST",
        headers: { Authorization: `Bearer ${SECRET}` },
        body: "{",
      });
      assert.equal(notJson.status, 400);
      await notJson.body?.cancel();

      const get = await fetch(`${rig.url}/verify`);
      assert.equal(get.status, 405);
      await get.body?.cancel();
      const health = await fetch(`${rig.url}/healthz`);
      assert.equal(health.status, 200);
      assert.deepEqual(await health.json(), { status: "ok" });

      // Upper-case domain is accepted and read lower-case.
      const upper = await post({ domain: "VALID.test", candidates: ["ada@VALID.TEST"] });
      assert.equal(upper.status, 200);
      assert.equal((await upper.json()).kind, "valid");

      const withWrongSecret = createRemoteVerifier({
        url: rig.url,
        secret: "nope",
        timeoutMs: 2000,
      });
      assert.deepEqual(await withWrongSecret.verify(request), {
        kind: "unavailable",
        why: "verifier-error",
        evidence: null,
      });
      const unreachable = createRemoteVerifier({
        url: "http://127.0.0.1:1",
        secret: SECRET,
        timeoutMs: 2000,
      });
      assert.equal((await unreachable.verify(request)).kind, "unavailable");
      const nonsense = createRemoteVerifier({
        url: rig.url,
        secret: SECRET,
        timeoutMs: 2000,
        fetch: () => Promise.resolve(Response.json({ kind: "valid" })),
      });
      assert.deepEqual(await nonsense.verify(request), {
        kind: "unavailable",
        why: "verifier-error",
        evidence: null,
      });
    } finally {
      await rig.close();
    }
  },
);

Deno.test("remote verifier: VERIFIER_SECRET is required", async () => {
  await assert.rejects(
    () => startVerifier({ KV_PATH: ":memory:", VERIFIER_PORT: "0" }, memoryLogger()),
    /VERIFIER_SECRET must be set/,
  );
});

Deno.test("remote verifier: a wrong VERIFIER_SECRET is warned about, once a minute, and checked at start", async () => {
  const handle = createVerifierHandler({
    verifier: {
      verify: () => Promise.resolve({ kind: "unusable-domain", evidence: null } as never),
    },
    secret: SECRET,
  });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handle);
  const url = `http://127.0.0.1:${server.addr.port}`;
  try {
    let clock = 0;
    const logger = memoryLogger();
    const wrong = createRemoteVerifier({
      url,
      secret: "not-the-secret",
      timeoutMs: 2_000,
      logger,
      now: () => clock,
    });
    const request = { domain: "valid.test", candidates: ["ada@valid.test"] };
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(await wrong.verify(request), {
        kind: "unavailable",
        why: "verifier-error",
        evidence: null,
      });
    }
    const warnings = () => logger.lines.filter((line) => line.includes(CREDENTIALS_REFUSED));
    assert.equal(warnings().length, 1, "once a minute");
    clock += 60_000;
    await wrong.verify(request);
    assert.equal(warnings().length, 2);
    const last = JSON.parse(warnings()[1]);
    assert.equal(last.level, "warn");
    assert.equal(last.status, 401);
    assert.equal(last.refusals, 3, "the refusals since the previous warning");
    for (const line of logger.lines) {
      assert.ok(!line.includes("valid.test") && !line.includes("not-the-secret"), line);
    }

    assert.deepEqual(await checkRemoteVerifierCredentials({ url, secret: SECRET }), {
      result: "accepted",
      status: 400,
    });
    assert.deepEqual(await checkRemoteVerifierCredentials({ url, secret: "wrong" }), {
      result: "refused",
      status: 401,
    });
    const start = memoryLogger();
    await logRemoteVerifierCheck({ url, secret: "wrong" }, start);
    assert.equal(JSON.parse(start.lines[0]).level, "warn");
    assert.ok(start.lines[0].includes("VERIFIER_SECRET"));
  } finally {
    await server.shutdown();
  }
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (closed.addr as Deno.NetAddr).port;
  closed.close();
  assert.deepEqual(
    await checkRemoteVerifierCredentials({ url: `http://127.0.0.1:${port}`, secret: SECRET }),
    { result: "unreachable", status: null },
  );
});
