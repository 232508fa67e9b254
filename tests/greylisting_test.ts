/**
 * Greylisting as the mail world has it: a server that defers a new (client, sender, recipient)
 * for minutes, longer than one lookup may wait. The engine remembers the first deferral and says
 * when to ask again (`retryAfterSeconds`); the next lookup asks the very same recipients (the
 * catch-all probe derives from the secret, the domain and the day; find keeps its candidate
 * order) and passes. Against fake DNS + SMTP servers on loopback whose greylisting is postgrey's
 * (`{ greylistMs }`: keyed on host, sender and recipient, real time); delays are a few seconds.
 */
import assert from "node:assert/strict";
import { loadConfig, type VerifyConfig } from "../domain/config/config.ts";
import { createSmtpVerifier } from "../domain/verify/smtp_verifier.ts";
import {
  createRemoteVerifier,
  createVerifierHandler,
  type EmailVerifier,
} from "../domain/verify/mod.ts";
import { createDnsResolver } from "../domain/providers/dns/create_dns_resolver.ts";
import { FakeClock } from "../domain/shared/clock.ts";
import { catchAllProbeLocalPart, dayOf } from "../domain/verify/catch_all_probe.ts";
import { type FakeDns, startFakeDns } from "./fakes/dns_server.ts";
import {
  FAKE_TLS_CA_FILE,
  type FakeSmtp,
  type FakeSmtpBehaviour,
  startFakeSmtp,
} from "./fakes/smtp_server.ts";
import { recordVerifiedEmail } from "../domain/directory/record_verified_email.ts";
import { createContactDataClient } from "../client/src/mod.ts";
import { createTestWorkspace, DB_TEST } from "./harness.ts";
import { finder, pointsSpent, PRICE_EMAIL, startWorld } from "./find_world.ts";

const OPEN = { sanitizeOps: false, sanitizeResources: false };

interface Rig {
  dns: FakeDns;
  smtp: FakeSmtp;
  kv: Deno.Kv;
  config: VerifyConfig;
  clock: FakeClock;
  engine(secret?: string): ReturnType<typeof createSmtpVerifier>;
  close(): Promise<void>;
}

async function rig(
  behaviour: FakeSmtpBehaviour,
  env: Record<string, string> = {},
  hostBehaviour: Record<string, FakeSmtpBehaviour> = {},
): Promise<Rig> {
  const dns = await startFakeDns({
    "example.test": {
      mx: [
        { preference: 10, exchange: "mx1.example.test" },
        { preference: 20, exchange: "mx2.example.test" },
      ],
    },
    "mx1.example.test": { a: ["127.0.0.1"] },
    "mx2.example.test": { a: ["127.0.0.2"] },
  });
  const smtp = await startFakeSmtp({ hosts: ["127.0.0.1", "127.0.0.2"], behaviour, hostBehaviour });
  const config = loadConfig({
    VERIFY_DNS_SERVER: dns.address,
    VERIFY_SMTP_PORT: String(smtp.port),
    VERIFY_HELO_NAME: "verifier.test",
    VERIFY_MAIL_FROM: "probe@verifier.test",
    VERIFY_TIMEOUT_SECONDS: "2",
    VERIFY_LOOKUP_SECONDS: "5",
    VERIFY_GREYLIST_RETRY_SECONDS: "0.2",
    VERIFY_TLS_CA_FILE: FAKE_TLS_CA_FILE,
    VERIFY_ALLOW_PRIVATE_ADDRESSES: "true",
    ...env,
  }).verify;
  const kv = await Deno.openKv(":memory:");
  const clock = new FakeClock(Date.now());
  const resolver = (await createDnsResolver({
    nameServer: config.dnsServer,
    timeoutMs: config.commandTimeoutMs,
  })).resolver;
  return {
    dns,
    smtp,
    kv,
    config,
    clock,
    engine: (secret = "a secret of the service") =>
      createSmtpVerifier({ dns: resolver, kv, config, clock, secret }),
    async close() {
      kv.close();
      await smtp.close();
      await dns.close();
    },
  };
}

/** The recipients of each session, in order. */
function sessionsOf(smtp: FakeSmtp): string[][] {
  return smtp.sessions.map((session) => session.rcpts);
}

Deno.test(
  "greylisting longer than a lookup: retryAfterSeconds, then the same recipients pass",
  OPEN,
  async () => {
    // postgrey: every new (sender, recipient) deferred for 4 s; unknown ones refused after.
    const r = await rig({
      mailboxes: { "ada@example.test": { greylistMs: 4000 } },
      otherRecipients: { greylistMs: 4000, then: "reject" },
    }, { VERIFY_GREYLIST_DELAY_SECONDS: "5" });
    try {
      const engine = r.engine();
      const candidates = ["bob@example.test", "ada@example.test"];
      const first = await engine.verify({ domain: "example.test", candidates });
      assert.equal(first.kind, "unavailable");
      assert.ok(first.kind === "unavailable");
      assert.equal(first.why, "greylisted");
      // The configured delay, counted from the first deferral (the clock has not moved).
      assert.equal(first.retryAfterSeconds, 5);
      // The first pass and the in-call retry asked the same three recipients.
      const [pass, retry] = sessionsOf(r.smtp);
      assert.equal(pass.length, 3);
      assert.match(pass[0], /^[a-z0-9]{20}@example\.test$/);
      assert.deepEqual(retry, pass.slice(0, 1), "the retry stops at the probe, still deferred");

      // Asked again too early: still greylisted, told the time left, not a new full delay.
      r.clock.advance(1000);
      const early = await engine.verify({ domain: "example.test", candidates });
      assert.equal(early.kind === "unavailable" && early.retryAfterSeconds, 4);

      await new Promise((resolve) => setTimeout(resolve, 4100));
      r.smtp.reset();
      // Another engine with the same secret (another instance) asks the same probe address.
      const after = await r.engine().verify({ domain: "example.test", candidates });
      assert.equal(after.kind === "valid" && after.address, "ada@example.test");
      assert.deepEqual(sessionsOf(r.smtp), [pass], "the same sender and recipients, in order");
    } finally {
      await r.close();
    }
  },
);

Deno.test("greylisting: a delay the reply states is the one told", OPEN, async () => {
  const r = await rig({
    otherRecipients: { code: 450, message: "4.7.1 Greylisted for 90 seconds" },
  });
  try {
    const outcome = await r.engine().verify({
      domain: "example.test",
      candidates: ["ada@example.test"],
    });
    assert.equal(outcome.kind === "unavailable" && outcome.why, "greylisted");
    assert.equal(outcome.kind === "unavailable" && outcome.retryAfterSeconds, 90);
  } finally {
    await r.close();
  }
});

Deno.test("greylisting: what KV remembers names no address", OPEN, async () => {
  const r = await rig({ otherRecipients: "greylist" });
  try {
    const outcome = await r.engine().verify({
      domain: "example.test",
      candidates: ["ada.lovelace@example.test"],
    });
    assert.equal(outcome.kind === "unavailable" && outcome.retryAfterSeconds, 300);
    const entries = await Array.fromAsync(r.kv.list({ prefix: ["verify", "greylist"] }));
    assert.equal(entries.length, 2, "the probe and the candidate, at mx1");
    for (const entry of entries) {
      assert.equal(entry.key[2], "mx1.example.test");
      assert.doesNotMatch(JSON.stringify(entry), /lovelace|@/);
    }
  } finally {
    await r.close();
  }
});

Deno.test("catch-all probe: stable for a secret, domain and day; not guessable", () => {
  const day = dayOf(Date.UTC(2026, 11, 2, 13));
  const probe = catchAllProbeLocalPart("s1", "example.test", day);
  assert.match(probe, /^[a-z0-9]{20}$/);
  assert.equal(catchAllProbeLocalPart("s1", "Example.TEST", day), probe);
  assert.equal(dayOf(Date.UTC(2026, 11, 2, 23, 59)), day);
  assert.notEqual(catchAllProbeLocalPart("s2", "example.test", day), probe);
  assert.notEqual(catchAllProbeLocalPart("s1", "example.test", day + 1), probe);
  assert.notEqual(catchAllProbeLocalPart("s1", "other.test", day), probe);
});

Deno.test(
  "greylisting across midnight: yesterday's probe is asked again where it was deferred",
  OPEN,
  async () => {
    const r = await rig({
      mailboxes: { "ada@example.test": { greylistMs: 3000 } },
      otherRecipients: { greylistMs: 3000, then: "reject" },
    });
    try {
      const candidates = ["ada@example.test"];
      const first = await r.engine().verify({ domain: "example.test", candidates });
      assert.equal(first.kind === "unavailable" && first.why, "greylisted");
      const probe = r.smtp.sessions[0].rcpts[0];
      // A minute into the next UTC day.
      r.clock.advance((dayOf(r.clock.now()) + 1) * 86_400_000 + 60_000 - r.clock.now());
      await new Promise((resolve) => setTimeout(resolve, 3100));
      r.smtp.reset();
      const after = await r.engine().verify({ domain: "example.test", candidates });
      assert.equal(after.kind, "valid");
      assert.equal(r.smtp.sessions[0].rcpts[0], probe);
    } finally {
      await r.close();
    }
  },
);

Deno.test(
  "a 421 or 'too many connections' pauses the host for every engine sharing KV",
  OPEN,
  async () => {
    const r = await rig(
      { mailboxes: { "ada@example.test": "accept" } },
      { VERIFY_HOST_BACKOFF_SECONDS: "60" },
      {
        "127.0.0.1": {
          greeting: { code: 421, message: "4.7.0 Error: too many connections", close: true },
        },
      },
    );
    try {
      const candidates = ["ada@example.test"];
      const first = await r.engine().verify({ domain: "example.test", candidates });
      assert.equal(first.kind, "valid", "mx2 answered");
      assert.equal(r.smtp.connections("127.0.0.1"), 1);
      // Another instance (another engine on the same KV) leaves mx1 alone for the pause.
      const second = await r.engine().verify({ domain: "example.test", candidates });
      assert.equal(second.kind, "valid");
      assert.equal(r.smtp.connections("127.0.0.1"), 1, "mx1 not dialled while paused");
      assert.equal(r.smtp.connections("127.0.0.2"), 2);
      r.clock.advance(61_000);
      await r.engine().verify({ domain: "example.test", candidates });
      assert.equal(r.smtp.connections("127.0.0.1"), 2, "dialled again once the pause is over");
    } finally {
      await r.close();
    }
  },
);

Deno.test("every host paused: unavailable with the time the pause ends", OPEN, async () => {
  const tooMany = { code: 421, message: "4.7.0 too many connections, try again in 30 seconds" };
  const r = await rig({ greeting: { ...tooMany, close: true } });
  try {
    const candidates = ["ada@example.test"];
    const first = await r.engine().verify({ domain: "example.test", candidates });
    assert.equal(first.kind === "unavailable" && first.why, "hosts-down");
    const connections = r.smtp.connections();
    r.clock.advance(10_000);
    const second = await r.engine().verify({ domain: "example.test", candidates });
    assert.equal(second.kind === "unavailable" && second.why, "hosts-down");
    assert.equal(second.kind === "unavailable" && second.retryAfterSeconds, 20);
    assert.equal(r.smtp.connections(), connections, "no host dialled");
  } finally {
    await r.close();
  }
});

Deno.test(
  "find: greylisted → verification-unavailable with retryAfterSeconds, free; then found, billed once",
  DB_TEST,
  async () => {
    const world = await startWorld({
      dns: {
        "slowgrey.test": { mx: [{ preference: 10, exchange: "mx4.example.test" }] },
        "mx4.example.test": { a: ["127.0.0.4"] },
      },
      mailHosts: {
        "127.0.0.4": {
          mailboxes: { "grace.hopper@slowgrey.test": { greylistMs: 4000 } },
          otherRecipients: { greylistMs: 4000, then: "reject" },
        },
      },
      env: { VERIFY_GREYLIST_DELAY_SECONDS: "5" },
    });
    try {
      const ws = await createTestWorkspace(world.env, 1000);
      const find = finder(world.env, ws.apiKey);
      const request = { name: "Grace Hopper", company: "slowgrey.test" };
      const first = await find(request, "grey-key");
      assert.equal(first.status, 200);
      assert.equal(first.data.found, false);
      assert.equal(first.data.reason, "verification-unavailable");
      assert.equal(first.data.status, "unknown");
      assert.equal(first.data.retryAfterSeconds, 5);
      assert.equal(first.data.pointsCharged, 0);
      assert.equal(await pointsSpent(world.env, ws.workspaceId), 0);
      const asked = world.smtp.sessions.filter((s) => s.host === "127.0.0.4")
        .map((s) => [s.mailFrom, ...s.rcpts]);

      // Meanwhile the directory learns this domain's pattern from someone else: the order a
      // fresh lookup would rank changes, the greylisted person's stays.
      await recordVerifiedEmail(world.env, {
        fullName: "Alan Turing",
        given: "Alan",
        surname: "Turing",
        domain: "slowgrey.test",
        companyName: null,
        address: "turinga@slowgrey.test",
        status: "valid",
        verifiedAt: new Date(),
      });

      await new Promise((resolve) => setTimeout(resolve, 4100));
      world.smtp.reset();
      const again = await find(request, "grey-key");
      assert.equal(again.data.found, true);
      assert.equal(again.data.email, "grace.hopper@slowgrey.test");
      assert.equal(again.data.replay, false);
      assert.equal(again.data.pointsCharged, PRICE_EMAIL);
      assert.equal(await pointsSpent(world.env, ws.workspaceId), PRICE_EMAIL);
      const askedAgain = world.smtp.sessions.filter((s) => s.host === "127.0.0.4")
        .map((s) => [s.mailFrom, ...s.rcpts]);
      // The same sender, the same probe, the same candidates in the same order, up to the one
      // accepted.
      const flat = askedAgain.flat().filter((x) => x !== askedAgain[0][0]);
      const before = asked[0].slice(1);
      assert.equal(askedAgain[0][0], asked[0][0]);
      assert.deepEqual(flat, before.slice(0, flat.length));
      assert.equal(flat.at(-1), "grace.hopper@slowgrey.test");

      const replay = await find(request, "grey-key");
      assert.equal(replay.data.replay, true);
      assert.equal(await pointsSpent(world.env, ws.workspaceId), PRICE_EMAIL);
    } finally {
      await world.close();
    }
  },
);

Deno.test(
  "client: find with waitForGreylisting calls again after retryAfterSeconds, billed once",
  DB_TEST,
  async () => {
    const world = await startWorld({
      dns: {
        "slowgrey.test": { mx: [{ preference: 10, exchange: "mx4.example.test" }] },
        "mx4.example.test": { a: ["127.0.0.4"] },
      },
      mailHosts: {
        "127.0.0.4": {
          mailboxes: {
            "grace.hopper@slowgrey.test": { greylistMs: 4000 },
            "alan.turing@slowgrey.test": { greylistMs: 4000 },
          },
          otherRecipients: { greylistMs: 4000, then: "reject" },
        },
      },
      env: { VERIFY_GREYLIST_DELAY_SECONDS: "5" },
    });
    try {
      const ws = await createTestWorkspace(world.env, 1000);
      const calls: string[] = [];
      const client = createContactDataClient({
        baseUrl: "http://service.test",
        apiKey: ws.apiKey,
        fetch: (input, init) => {
          const request = new Request(input, init);
          calls.push(request.headers.get("idempotency-key") ?? "");
          return Promise.resolve(world.env.app.request(request));
        },
      });
      // A bound shorter than the server's delay: the greylisted answer comes back as it is.
      const impatient = await client.find(
        { name: "Grace Hopper", company: "slowgrey.test" },
        { waitForGreylisting: true, maxGreylistWaitMs: 1_000 },
      );
      assert.equal(impatient.reason, "verification-unavailable");
      assert.equal(impatient.retryAfterSeconds, 5);
      assert.equal(calls.length, 1);

      calls.length = 0;
      const answer = await client.find(
        { name: "Alan Turing", company: "slowgrey.test" },
        { waitForGreylisting: true, maxGreylistWaitMs: 10_000, idempotencyKey: "wait-key" },
      );
      assert.equal(answer.found, true);
      assert.equal(answer.email, "alan.turing@slowgrey.test");
      assert.deepEqual(calls, ["wait-key", "wait-key"], "greylisted, then found, one key");
      assert.equal(await pointsSpent(world.env, ws.workspaceId), PRICE_EMAIL);
    } finally {
      await world.close();
    }
  },
);

Deno.test("remote verifier: retryAfterSeconds reaches the caller", async () => {
  const engine: EmailVerifier = {
    verify: () =>
      Promise.resolve({
        kind: "unavailable",
        why: "greylisted",
        evidence: null,
        retryAfterSeconds: 123,
      }),
  };
  const handle = createVerifierHandler({ verifier: engine, secret: "remote-secret" });
  const remote = createRemoteVerifier({
    url: "http://verifier.test",
    secret: "remote-secret",
    timeoutMs: 2_000,
    fetch: (input, init) => handle(new Request(input, init)),
  });
  const outcome = await remote.verify({
    domain: "example.test",
    candidates: ["ada@example.test"],
  });
  assert.equal(outcome.kind === "unavailable" && outcome.why, "greylisted");
  assert.equal(outcome.kind === "unavailable" && outcome.retryAfterSeconds, 123);
});
