/**
 * The DNS + SMTP verification engine against real protocol fakes on loopback: a dns2 server
 * for MX/A answers and smtp-server listeners on 127.0.0.1 and 127.0.0.2 (one port). Timeouts
 * are small (300 ms per reply, 200 ms greylist wait) so the whole file runs in a few seconds.
 */
import assert from "node:assert/strict";
import { loadConfig, type VerifyConfig } from "../domain/config/config.ts";
import type { VerificationOutcome } from "../domain/verify/email_verifier.ts";
import { createSmtpVerifier, type SmtpSessionEvent } from "../domain/verify/smtp_verifier.ts";
import { catchAllKey, mailHostsKey } from "../domain/verify/verification_cache.ts";
import { createDnsResolver } from "../domain/providers/dns/create_dns_resolver.ts";
import { connectTcp, type SmtpConnect } from "../domain/providers/smtp/smtp_client.ts";
import { FakeClock } from "../domain/shared/clock.ts";
import { type FakeDns, type FakeZone, startFakeDns } from "./fakes/dns_server.ts";
import {
  FAKE_TLS_CA_FILE,
  type FakeSmtp,
  type FakeSmtpOptions,
  startFakeSmtp,
} from "./fakes/smtp_server.ts";

const OPEN = { sanitizeOps: false, sanitizeResources: false };

/** example.test → mx1 (127.0.0.1, preference 10), mx2 (127.0.0.2, preference 20). */
const ZONE: FakeZone = {
  "example.test": {
    mx: [
      { preference: 10, exchange: "mx1.example.test" },
      { preference: 20, exchange: "mx2.example.test" },
    ],
  },
  "mx1.example.test": { a: ["127.0.0.1"] },
  "mx2.example.test": { a: ["127.0.0.2"] },
};

interface Rig {
  dns: FakeDns;
  smtp: FakeSmtp;
  kv: Deno.Kv;
  config: VerifyConfig;
  clock: FakeClock;
  sessions: SmtpSessionEvent[];
  /** The most SMTP connections open at once. */
  mostOpen(): number;
  verify(candidates: string[], domain?: string): Promise<VerificationOutcome>;
  close(): Promise<void>;
}

/** For the tests of timeouts: a reply or DNS answer waited for 0.3 s at most. */
const SHORT_TIMEOUT = { VERIFY_TIMEOUT_SECONDS: "0.3" };

async function rig(
  options: {
    zone?: FakeZone;
    smtp?: FakeSmtpOptions;
    env?: Record<string, string>;
    connect?: SmtpConnect;
  } = {},
): Promise<Rig> {
  const dns = await startFakeDns(options.zone ?? ZONE);
  const smtp = await startFakeSmtp({ hosts: ["127.0.0.1", "127.0.0.2"], ...options.smtp });
  const config = loadConfig({
    VERIFY_DNS_SERVER: dns.address,
    VERIFY_SMTP_PORT: String(smtp.port),
    VERIFY_HELO_NAME: "verifier.test",
    VERIFY_MAIL_FROM: "probe@verifier.test",
    // Long enough for a TLS handshake on a loaded CI machine (a slower one falls back to a second,
    // plain-text session and changes the session counts); the tests of timeouts set 0.3 s.
    VERIFY_TIMEOUT_SECONDS: "2",
    VERIFY_LOOKUP_SECONDS: "5",
    VERIFY_GREYLIST_RETRY_SECONDS: "0.2",
    VERIFY_CACHE_SECONDS: "3600",
    VERIFY_TLS_CA_FILE: FAKE_TLS_CA_FILE,
    // The fake mail hosts listen on 127.0.0.x.
    VERIFY_ALLOW_PRIVATE_ADDRESSES: "true",
    ...options.env,
  }).verify;
  const kv = await Deno.openKv(":memory:");
  const clock = new FakeClock();
  const sessions: SmtpSessionEvent[] = [];
  let open = 0;
  let mostOpen = 0;
  const connect: SmtpConnect = options.connect ?? (async (target) => {
    const socket = await connectTcp(target);
    mostOpen = Math.max(mostOpen, ++open);
    socket.once("close", () => open--);
    return socket;
  });
  const dns_ = await createDnsResolver({
    nameServer: config.dnsServer,
    timeoutMs: config.commandTimeoutMs,
  });
  assert.equal(dns_.client, "wire");
  const verifier = createSmtpVerifier({
    dns: dns_.resolver,
    kv,
    config,
    clock,
    connect,
    onSession: (event) => sessions.push(event),
  });
  return {
    dns,
    smtp,
    kv,
    config,
    clock,
    sessions,
    mostOpen: () => mostOpen,
    verify: (candidates, domain = "example.test") => verifier.verify({ domain, candidates }),
    async close() {
      kv.close();
      await smtp.close();
      await dns.close();
    },
  };
}

function rcptsOf(r: Rig, host?: string): string[] {
  return r.smtp.rcpts.filter((rcpt) => !host || rcpt.host === host).map((rcpt) => rcpt.address);
}

function isProbe(address: string): boolean {
  return /^[a-z0-9]{20}@example\.test$/.test(address);
}

Deno.test("engine: a valid mailbox, asked after a rejected one, on one session", OPEN, async () => {
  const r = await rig({ smtp: { behaviour: { mailboxes: { "ada@example.test": "accept" } } } });
  try {
    const outcome = await r.verify(["bob@example.test", "ada@example.test", "eve@example.test"]);
    assert.equal(outcome.kind, "valid");
    assert.ok(outcome.kind === "valid");
    assert.equal(outcome.address, "ada@example.test");
    assert.equal(outcome.evidence.mxHost, "mx1.example.test");
    assert.equal(outcome.evidence.smtpCode, 250);
    assert.equal(outcome.evidence.checkedAt, new Date(r.clock.now()).toISOString());
    // One session, on the preferred host: the probe, then the candidates up to the first accept.
    assert.equal(r.smtp.connections(), 1);
    assert.equal(r.sessions.length, 1);
    assert.deepEqual(r.sessions[0], {
      domain: "example.test",
      mxHost: "mx1.example.test",
      address: "127.0.0.1",
    });
    const asked = rcptsOf(r);
    assert.equal(asked.length, 3);
    assert.ok(isProbe(asked[0]));
    assert.deepEqual(asked.slice(1), ["bob@example.test", "ada@example.test"]);
    assert.equal(r.smtp.sessions[0].helo, "verifier.test");
    assert.equal(r.smtp.sessions[0].mailFrom, "probe@verifier.test");
  } finally {
    await r.close();
  }
});

Deno.test("engine: every candidate rejected (550 5.1.1)", OPEN, async () => {
  const r = await rig();
  try {
    const outcome = await r.verify(["bob@example.test", "eve@example.test"]);
    assert.equal(outcome.kind, "rejected");
    assert.ok(outcome.kind === "rejected");
    assert.equal(outcome.evidence.smtpCode, 550);
    assert.equal(outcome.evidence.enhancedStatus, "5.1.1");
    assert.equal(r.smtp.connections(), 1);
    assert.equal(rcptsOf(r).length, 3);
  } finally {
    await r.close();
  }
});

Deno.test("engine: catch-all, then answered from the KV cache with no session", OPEN, async () => {
  const r = await rig({ smtp: { behaviour: { catchAll: true } } });
  try {
    const first = await r.verify(["ada@example.test"]);
    assert.equal(first.kind, "catch-all");
    assert.ok(first.kind === "catch-all");
    assert.equal(first.evidence.smtpCode, 250);
    // Only the probe was asked: a 250 for a real candidate says nothing on a catch-all.
    assert.equal(rcptsOf(r).length, 1);
    assert.ok(isProbe(rcptsOf(r)[0]));
    const cached = await r.kv.get<{ catchAll: boolean; expiresAt: number }>(
      catchAllKey("example.test"),
    );
    assert.equal(cached.value?.catchAll, true);
    assert.equal(cached.value?.expiresAt, r.clock.now() + 3600_000);

    const second = await r.verify(["bob@example.test"]);
    assert.deepEqual(second, first);
    assert.equal(r.smtp.connections(), 1);
    assert.equal(r.sessions.length, 1);

    // Past expiresAt the cache is not believed (whatever KV still holds).
    r.clock.advance(3600_001);
    const third = await r.verify(["bob@example.test"]);
    assert.equal(third.kind, "catch-all");
    assert.equal(r.smtp.connections(), 2);
  } finally {
    await r.close();
  }
});

Deno.test(
  "engine: a known non-catch-all domain skips the probe and the MX query",
  OPEN,
  async () => {
    const r = await rig({ smtp: { behaviour: { mailboxes: { "ada@example.test": "accept" } } } });
    try {
      assert.equal((await r.verify(["bob@example.test"])).kind, "rejected");
      const mxQueries = () => r.dns.queries.filter((q) => q.type === "MX").length;
      assert.equal(mxQueries(), 1);
      const hosts = await r.kv.get<{ hosts: string[] }>(mailHostsKey("example.test"));
      assert.deepEqual(hosts.value?.hosts, ["mx1.example.test", "mx2.example.test"]);
      r.smtp.reset();
      const outcome = await r.verify(["ada@example.test"]);
      assert.equal(outcome.kind, "valid");
      assert.deepEqual(rcptsOf(r), ["ada@example.test"]);
      assert.equal(mxQueries(), 1);
    } finally {
      await r.close();
    }
  },
);

Deno.test("engine: greylisted once, accepted on the retry in a new session", OPEN, async () => {
  const r = await rig({
    smtp: { behaviour: { mailboxes: { "ada@example.test": { greylist: 1 } } } },
  });
  try {
    const started = performance.now();
    const outcome = await r.verify(["ada@example.test"]);
    assert.equal(outcome.kind, "valid");
    assert.ok(performance.now() - started >= 190, "waited greylistRetryMs before the retry");
    // The retry is a new session: the server's error count starts again.
    assert.equal(r.smtp.connections(), 2);
    assert.deepEqual(rcptsOf(r).slice(1), ["ada@example.test", "ada@example.test"]);
    assert.deepEqual(r.smtp.rcpts.slice(1).map((rcpt) => rcpt.code), [451, 250]);
  } finally {
    await r.close();
  }
});

Deno.test(
  "engine: greylisting keyed on the recipient: the retry asks the same probe address",
  OPEN,
  async () => {
    // Every address is greylisted once, as postgrey does per (client, sender, recipient); then
    // the unknown ones are refused. A new random probe on the retry would be greylisted again.
    const r = await rig({
      smtp: {
        behaviour: {
          mailboxes: { "ada@example.test": { greylist: 1 } },
          otherRecipients: { greylist: 1, then: "reject" },
        },
      },
    });
    try {
      const outcome = await r.verify(["bob@example.test", "ada@example.test"]);
      assert.equal(outcome.kind === "valid" && outcome.address, "ada@example.test");
      const asked = rcptsOf(r);
      // First pass: every recipient once (all 451); the retry: the same ones, in the same order.
      assert.equal(asked.length, 6);
      assert.ok(isProbe(asked[0]));
      assert.deepEqual(asked.slice(3), asked.slice(0, 3));
      assert.deepEqual(r.smtp.rcpts.map((rcpt) => rcpt.code), [451, 451, 451, 550, 550, 250]);
      assert.equal(r.smtp.connections(), 2);
    } finally {
      await r.close();
    }
  },
);

Deno.test("engine: greylisted on the retry too → unavailable greylisted", OPEN, async () => {
  const r = await rig({ smtp: { behaviour: { mailboxes: { "ada@example.test": "greylist" } } } });
  try {
    const outcome = await r.verify(["ada@example.test", "bob@example.test"]);
    assert.equal(outcome.kind, "unavailable");
    assert.ok(outcome.kind === "unavailable");
    assert.equal(outcome.why, "greylisted");
    assert.equal(outcome.evidence?.smtpCode, 451);
    assert.equal(outcome.evidence?.enhancedStatus, "4.7.1");
    // Not read as rejected, and bob's rejection decides nothing while ada is unknown: order
    // decides. The first pass asked both; the retry only what got the 4xx.
    assert.deepEqual(rcptsOf(r).slice(1), [
      "ada@example.test",
      "bob@example.test",
      "ada@example.test",
    ]);
    assert.equal(r.smtp.connections(), 2);
  } finally {
    await r.close();
  }
});

Deno.test(
  "engine: a greylist wait the lookup's deadline would cut short is not begun",
  OPEN,
  async () => {
    const r = await rig({
      smtp: { behaviour: { mailboxes: { "ada@example.test": "greylist" } } },
      env: { VERIFY_GREYLIST_RETRY_SECONDS: "10", VERIFY_LOOKUP_SECONDS: "2" },
    });
    try {
      const started = performance.now();
      const outcome = await r.verify(["ada@example.test"]);
      assert.equal(outcome.kind === "unavailable" && outcome.why, "greylisted");
      assert.ok(performance.now() - started < 1500);
      assert.equal(r.smtp.connections(), 1);
    } finally {
      await r.close();
    }
  },
);

Deno.test(
  "engine: a rejected sender at RCPT is unavailable, ends the session, caches nothing",
  OPEN,
  async () => {
    // Postfix's reject_unknown_sender_domain / check_sender_access answer at RCPT time.
    const senderRejected = {
      code: 550,
      message: "5.1.8 <probe@verifier.test>: Sender address rejected: Domain not found",
    };
    const r = await rig({ smtp: { behaviour: { otherRecipients: senderRejected } } });
    try {
      const candidates = ["ada@example.test", "bob@example.test", "eve@example.test"];
      const outcome = await r.verify(candidates);
      assert.equal(outcome.kind, "unavailable");
      assert.ok(outcome.kind === "unavailable");
      assert.equal(outcome.why, "sender-rejected");
      assert.equal(outcome.evidence?.enhancedStatus, "5.1.8");
      // The probe got it: nothing more was asked.
      assert.equal(r.smtp.rcpts.length, 1);
      assert.equal(r.smtp.connections(), 1);
      assert.equal((await r.kv.get(["verify", "catch_all", "example.test"])).value, null);
      // The next lookup asks again (and probes again).
      await r.verify(candidates);
      assert.equal(r.smtp.connections(), 2);
    } finally {
      await r.close();
    }
  },
);

Deno.test("engine: every reply about our sender or client is unavailable", OPEN, async () => {
  const replies = [
    { code: 550, message: "5.1.7 Invalid sender address syntax" },
    {
      code: 553,
      message: "5.1.8 <probe@verifier.test>: Sender address rejected: Domain not found",
    },
    {
      code: 450,
      message: "4.1.8 <probe@verifier.test>: Sender address rejected: Domain not found",
    },
    { code: 550, message: "5.7.1 <probe@verifier.test>: Sender address rejected: Access denied" },
    { code: 450, message: "4.7.1 Client host rejected: cannot find your hostname" },
    {
      code: 504,
      message: "5.5.2 <verifier>: Helo command rejected: need fully-qualified hostname",
    },
  ];
  for (const reply of replies) {
    const r = await rig({ smtp: { behaviour: { otherRecipients: reply } } });
    try {
      const outcome = await r.verify(["ada@example.test", "bob@example.test"]);
      assert.equal(outcome.kind, "unavailable", reply.message);
      assert.equal(r.smtp.rcpts.length, 1, reply.message);
      assert.equal(r.smtp.connections(), 1, reply.message);
    } finally {
      await r.close();
    }
  }
  // MAIL FROM itself refused.
  const r = await rig({
    smtp: { behaviour: { mailFrom: { code: 550, message: "5.1.0 Sender rejected" } } },
  });
  try {
    const outcome = await r.verify(["ada@example.test"]);
    assert.equal(outcome.kind === "unavailable" && outcome.why, "sender-rejected");
    assert.equal(r.smtp.rcpts.length, 0);
  } finally {
    await r.close();
  }
});

Deno.test(
  "engine: at most VERIFY_MAX_RCPT_PER_SESSION recipients a session, in order",
  OPEN,
  async () => {
    const r = await rig({
      smtp: { behaviour: { mailboxes: { "c7@example.test": "accept" } } },
      env: { VERIFY_MAX_RCPT_PER_SESSION: "3" },
    });
    try {
      const candidates = Array.from({ length: 8 }, (_, i) => `c${i}@example.test`);
      const outcome = await r.verify(candidates);
      assert.equal(outcome.kind === "valid" && outcome.address, "c7@example.test");
      // probe + c0 c1 | c2 c3 c4 | c5 c6 c7
      assert.equal(r.smtp.connections(), 3);
      const perSession = r.smtp.sessions.map((session) => session.rcpts.length);
      assert.deepEqual(perSession, [3, 3, 3]);
      assert.deepEqual(rcptsOf(r).slice(1), candidates);
    } finally {
      await r.close();
    }
  },
);

Deno.test(
  "engine: at most VERIFY_MAX_SESSIONS_PER_HOST sessions at one host across lookups",
  OPEN,
  async () => {
    const r = await rig({
      smtp: {
        behaviour: {
          mailboxes: Object.fromEntries(
            Array.from({ length: 8 }, (_, i) => [`p${i}@example.test`, {
              delayMs: 40,
              then: "accept" as const,
            }]),
          ),
        },
      },
      env: { VERIFY_MAX_SESSIONS_PER_HOST: "2", VERIFY_CACHE_SECONDS: "0" },
    });
    try {
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, (_, i) => r.verify([`p${i}@example.test`])),
      );
      assert.ok(outcomes.every((outcome) => outcome.kind === "valid"));
      assert.equal(r.smtp.connections(), 8);
      assert.equal(r.mostOpen(), 2, "two at a time, never more");
    } finally {
      await r.close();
    }
  },
);

Deno.test("engine: a 5.7.1 policy block is unavailable policy, never rejected", OPEN, async () => {
  const r = await rig({ smtp: { behaviour: { mailboxes: { "ada@example.test": "policy" } } } });
  try {
    const outcome = await r.verify(["ada@example.test"]);
    assert.equal(outcome.kind, "unavailable");
    assert.ok(outcome.kind === "unavailable");
    assert.equal(outcome.why, "policy");
    assert.equal(outcome.evidence?.smtpCode, 554);
    assert.equal(outcome.evidence?.enhancedStatus, "5.7.1");
  } finally {
    await r.close();
  }
});

Deno.test("engine: a 550 naming a block list (no enhanced code) is policy", OPEN, async () => {
  const r = await rig({
    smtp: {
      behaviour: {
        otherRecipients: { code: 550, message: "Rejected: your IP is listed by Spamhaus" },
      },
    },
  });
  try {
    const outcome = await r.verify(["ada@example.test"]);
    assert.equal(outcome.kind === "unavailable" && outcome.why, "policy");
    // The probe got the block: no candidate was asked.
    assert.equal(rcptsOf(r).length, 1);
  } finally {
    await r.close();
  }
});

Deno.test("engine: a sender refused at MAIL FROM is policy", OPEN, async () => {
  const r = await rig({ smtp: { behaviour: { mailFrom: "policy" } } });
  try {
    const outcome = await r.verify(["ada@example.test"]);
    assert.equal(outcome.kind === "unavailable" && outcome.why, "policy");
    assert.equal(rcptsOf(r).length, 0);
  } finally {
    await r.close();
  }
});

Deno.test("engine: MX order by preference, DNS order kept on ties", OPEN, async () => {
  const r = await rig({
    zone: {
      ...ZONE,
      "example.test": {
        mx: [
          { preference: 20, exchange: "mx1.example.test" },
          { preference: 10, exchange: "mx2.example.test" },
          { preference: 20, exchange: "mx3.example.test" },
        ],
      },
    },
    smtp: { behaviour: { mailboxes: { "ada@example.test": "accept" } } },
  });
  try {
    const outcome = await r.verify(["ada@example.test"]);
    assert.equal(outcome.kind === "valid" && outcome.evidence.mxHost, "mx2.example.test");
    assert.equal(r.smtp.connections("127.0.0.1"), 0);
    const hosts = await r.kv.get<{ hosts: string[] }>(mailHostsKey("example.test"));
    assert.deepEqual(hosts.value?.hosts, [
      "mx2.example.test",
      "mx1.example.test",
      "mx3.example.test",
    ]);
  } finally {
    await r.close();
  }
});

Deno.test("engine: first MX refuses connections, the second answers", OPEN, async () => {
  const r = await rig({
    zone: { ...ZONE, "mx1.example.test": { a: ["127.0.0.3"] } }, // nothing listens there
    smtp: { behaviour: { mailboxes: { "ada@example.test": "accept" } } },
  });
  try {
    const outcome = await r.verify(["ada@example.test"]);
    assert.equal(outcome.kind, "valid");
    assert.equal(outcome.kind === "valid" && outcome.evidence.mxHost, "mx2.example.test");
    assert.equal(r.smtp.connections("127.0.0.2"), 1);
    assert.equal(r.sessions.length, 1);
  } finally {
    await r.close();
  }
});

Deno.test("engine: 421 at the greeting of the first MX, the second answers", OPEN, async () => {
  const r = await rig({
    smtp: {
      behaviour: { mailboxes: { "ada@example.test": "accept" } },
      hostBehaviour: { "127.0.0.1": { greeting: "421" } },
    },
  });
  try {
    const outcome = await r.verify(["ada@example.test"]);
    assert.equal(outcome.kind === "valid" && outcome.evidence.mxHost, "mx2.example.test");
    assert.equal(r.smtp.connections("127.0.0.1"), 1);
    assert.equal(r.smtp.connections("127.0.0.2"), 1);
  } finally {
    await r.close();
  }
});

Deno.test("engine: dropped mid-dialogue → next host; all dropped → hosts-down", OPEN, async () => {
  const r = await rig({
    smtp: {
      behaviour: { mailboxes: { "ada@example.test": "accept" } },
      hostBehaviour: { "127.0.0.1": { mailboxes: { "ada@example.test": "drop" } } },
    },
  });
  try {
    const outcome = await r.verify(["ada@example.test"]);
    assert.equal(outcome.kind === "valid" && outcome.evidence.mxHost, "mx2.example.test");

    r.smtp.setBehaviour({ otherRecipients: "drop" }, "127.0.0.2");
    r.smtp.setBehaviour({ otherRecipients: "drop" }, "127.0.0.1");
    r.smtp.reset();
    const down = await r.verify(["bob@example.test"], "example.test");
    assert.equal(down.kind, "unavailable");
    assert.ok(down.kind === "unavailable");
    assert.equal(down.why, "hosts-down");
    assert.equal(down.evidence?.mxHost, "mx2.example.test");
    assert.equal(r.smtp.connections("127.0.0.1"), 1);
    assert.equal(r.smtp.connections("127.0.0.2"), 1);
  } finally {
    await r.close();
  }
});

Deno.test("engine: a 421 mid-session moves to the next host", OPEN, async () => {
  const r = await rig({
    smtp: {
      behaviour: { mailboxes: { "ada@example.test": "accept" } },
      hostBehaviour: { "127.0.0.1": { mailboxes: { "ada@example.test": "421" } } },
    },
  });
  try {
    const outcome = await r.verify(["ada@example.test"]);
    assert.equal(outcome.kind === "valid" && outcome.evidence.mxHost, "mx2.example.test");
  } finally {
    await r.close();
  }
});

Deno.test(
  "engine: a server slower than the command timeout → unavailable timeout",
  OPEN,
  async () => {
    const r = await rig({
      zone: {
        "example.test": { mx: [{ preference: 10, exchange: "mx1.example.test" }] },
        "mx1.example.test": { a: ["127.0.0.1"] },
      },
      smtp: { behaviour: { otherRecipients: { delayMs: 2000, then: "accept" } } },
      env: SHORT_TIMEOUT,
    });
    try {
      const started = performance.now();
      const outcome = await r.verify(["ada@example.test"]);
      assert.equal(outcome.kind, "unavailable");
      assert.ok(outcome.kind === "unavailable");
      assert.equal(outcome.why, "timeout");
      assert.equal(outcome.evidence?.mxHost, "mx1.example.test");
      assert.ok(performance.now() - started < 1500);
    } finally {
      await r.close();
    }
  },
);

Deno.test("engine: a greeting slower than the timeout moves to the next host", OPEN, async () => {
  const r = await rig({
    smtp: {
      behaviour: { mailboxes: { "ada@example.test": "accept" } },
      hostBehaviour: { "127.0.0.1": { greeting: { delayMs: 2000 } } },
    },
    env: SHORT_TIMEOUT,
  });
  try {
    const outcome = await r.verify(["ada@example.test"]);
    assert.equal(outcome.kind === "valid" && outcome.evidence.mxHost, "mx2.example.test");
    assert.deepEqual(r.sessions.map((event) => event.mxHost), [
      "mx1.example.test",
      "mx2.example.test",
    ]);
  } finally {
    await r.close();
  }
});

Deno.test("engine: the whole lookup is bounded by lookupTimeoutMs", OPEN, async () => {
  // Each candidate takes 250 ms (within the 300 ms reply timeout): three outlast the 0.5 s bound.
  const slow = { delayMs: 250, then: "reject" as const };
  const r = await rig({
    smtp: {
      behaviour: {
        mailboxes: { "ada@example.test": slow, "bob@example.test": slow, "cy@example.test": slow },
      },
    },
    env: { ...SHORT_TIMEOUT, VERIFY_LOOKUP_SECONDS: "0.5" },
  });
  try {
    const started = performance.now();
    const outcome = await r.verify(["ada@example.test", "bob@example.test", "cy@example.test"]);
    const elapsed = performance.now() - started;
    assert.deepEqual(outcome.kind === "unavailable" && outcome.why, "timeout");
    assert.equal(outcome.kind === "unavailable" && outcome.evidence?.mxHost, "mx1.example.test");
    assert.ok(elapsed >= 450 && elapsed < 1500, `took ${elapsed} ms`);
  } finally {
    await r.close();
  }
});

Deno.test("engine: STARTTLS verified with the configured CA", OPEN, async () => {
  const r = await rig({ smtp: { behaviour: { mailboxes: { "ada@example.test": "accept" } } } });
  try {
    const outcome = await r.verify(["ada@example.test"]);
    assert.equal(outcome.kind, "valid");
    assert.equal(r.smtp.sessions.length, 1);
    assert.equal(r.smtp.sessions[0].secure, true);
    assert.ok(r.smtp.rcpts.every((rcpt) => rcpt.secure));
    assert.ok(outcome.kind === "valid");
    assert.equal(outcome.evidence.encrypted, true);
    assert.equal(outcome.evidence.certificateVerified, true);
  } finally {
    await r.close();
  }
});

Deno.test(
  "engine: a certificate we cannot verify still encrypts, in one session (opportunistic TLS)",
  OPEN,
  async () => {
    // No VERIFY_TLS_CA_FILE: the fake's certificate chains to no trusted root.
    const r = await rig({
      smtp: { behaviour: { mailboxes: { "ada@example.test": "accept" } } },
      env: { VERIFY_TLS_CA_FILE: "" },
    });
    try {
      const outcome = await r.verify(["ada@example.test"]);
      assert.ok(outcome.kind === "valid");
      assert.equal(outcome.evidence.mxHost, "mx1.example.test");
      assert.equal(outcome.evidence.encrypted, true);
      assert.equal(outcome.evidence.certificateVerified, false);
      assert.equal(r.smtp.connections("127.0.0.1"), 1);
      assert.equal(r.sessions.length, 1);
      assert.ok(r.smtp.rcpts.length > 0 && r.smtp.rcpts.every((rcpt) => rcpt.secure));
    } finally {
      await r.close();
    }
  },
);

Deno.test("engine: no STARTTLS offered → plaintext session", OPEN, async () => {
  const r = await rig({
    smtp: { behaviour: { starttls: false, mailboxes: { "ada@example.test": "accept" } } },
  });
  try {
    assert.equal((await r.verify(["ada@example.test"])).kind, "valid");
    assert.equal(r.smtp.sessions[0].secure, false);
    assert.equal(r.smtp.connections(), 1);
  } finally {
    await r.close();
  }
});

Deno.test("engine: null MX, NXDOMAIN and no mail host are unusable domains", OPEN, async () => {
  const r = await rig({
    zone: {
      ...ZONE,
      "nullmx.test": { mx: [{ preference: 0, exchange: "." }] },
      "textonly.test": { txt: ["v=spf1 -all"] },
    },
  });
  try {
    assert.deepEqual(await r.verify(["a@nullmx.test"], "nullmx.test"), {
      kind: "unusable-domain",
      why: "null-mx",
    });
    assert.deepEqual(await r.verify(["a@missing.test"], "missing.test"), {
      kind: "unusable-domain",
      why: "nxdomain",
    });
    assert.deepEqual(await r.verify(["a@textonly.test"], "textonly.test"), {
      kind: "unusable-domain",
      why: "no-mail-host",
    });
    assert.equal(r.smtp.connections(), 0);
  } finally {
    await r.close();
  }
});

Deno.test("engine: no MX → the domain's own A record (RFC 5321 §5.1)", OPEN, async () => {
  const r = await rig({
    zone: { "direct.example.test": { a: ["127.0.0.2"] } },
    smtp: { behaviour: { mailboxes: { "ada@direct.example.test": "accept" } } },
  });
  try {
    const outcome = await r.verify(["ada@direct.example.test"], "direct.example.test");
    assert.equal(outcome.kind, "valid");
    assert.equal(outcome.kind === "valid" && outcome.evidence.mxHost, "direct.example.test");
    assert.equal(r.smtp.connections("127.0.0.2"), 1);
    assert.equal(r.smtp.sessions[0].secure, true);
  } finally {
    await r.close();
  }
});

Deno.test("engine: a resolver that does not answer → unavailable dns-error", OPEN, async () => {
  const r = await rig({ zone: { "slowdns.test": { silent: true } }, env: SHORT_TIMEOUT });
  try {
    const started = performance.now();
    const outcome = await r.verify(["a@slowdns.test"], "slowdns.test");
    assert.deepEqual(outcome, { kind: "unavailable", why: "dns-error", evidence: null });
    assert.ok(performance.now() - started < 1500);
  } finally {
    await r.close();
  }
});

Deno.test("engine: every DNS query goes to the configured server", OPEN, async () => {
  const r = await rig({ smtp: { behaviour: { mailboxes: { "ada@example.test": "accept" } } } });
  try {
    await r.verify(["ada@example.test"]);
    assert.deepEqual(
      r.dns.queries.filter((q) => q.type !== "AAAA"),
      [
        { name: "example.test", type: "MX", transport: "udp" },
        { name: "mx1.example.test", type: "A", transport: "udp" },
      ],
    );
  } finally {
    await r.close();
  }
});

Deno.test("engine: a malformed request is a caller's bug (RangeError)", OPEN, async () => {
  const r = await rig();
  try {
    await assert.rejects(() => r.verify([]), RangeError);
    await assert.rejects(() => r.verify(["a@other.test"]), RangeError);
    await assert.rejects(() => r.verify(["a\r\nRSET@example.test"]), RangeError);
    await assert.rejects(() => r.verify(["a@x.test"], "bad domain"), RangeError);
    assert.equal(r.smtp.connections(), 0);
  } finally {
    await r.close();
  }
});

Deno.test("engine: SERVFAIL or REFUSED for the domain → unavailable dns-error", OPEN, async () => {
  const r = await rig({
    zone: { ...ZONE, "servfail.test": { servfail: true }, "refused.test": { refused: true } },
  });
  try {
    for (const domain of ["servfail.test", "refused.test"]) {
      assert.deepEqual(await r.verify([`a@${domain}`], domain), {
        kind: "unavailable",
        why: "dns-error",
        evidence: null,
      });
      // Not cached as the domain's mail hosts: the next lookup asks DNS again.
      assert.equal((await r.kv.get(mailHostsKey(domain))).value, null);
    }
    assert.equal(r.smtp.connections(), 0);
  } finally {
    await r.close();
  }
});

Deno.test("engine: a DNS answer slower than Deno's ~2 s is waited for", OPEN, async () => {
  const r = await rig({
    zone: {
      "slow.example.test": {
        mx: [{ preference: 10, exchange: "mx1.example.test" }],
        delayMs: 1100,
      },
      "mx1.example.test": { a: ["127.0.0.1"], delayMs: 1100 },
    },
    smtp: { behaviour: { mailboxes: { "ada@slow.example.test": "accept" } } },
    env: { VERIFY_TIMEOUT_SECONDS: "3" },
  });
  try {
    const started = performance.now();
    const outcome = await r.verify(["ada@slow.example.test"], "slow.example.test");
    assert.equal(outcome.kind, "valid", JSON.stringify(outcome));
    assert.ok(performance.now() - started >= 2000);
  } finally {
    await r.close();
  }
});

Deno.test(
  "engine: MX hosts that do not exist → unusable; unresolvable → dns-error",
  OPEN,
  async () => {
    const r = await rig({
      zone: {
        ...ZONE,
        // Every MX host is NXDOMAIN or has no address.
        "ghost.test": {
          mx: [
            { preference: 10, exchange: "mx.nowhere.test" },
            { preference: 20, exchange: "mx.noaddress.test" },
          ],
        },
        "mx.noaddress.test": { txt: ["no address here"] },
        // The one MX host's name cannot be resolved now.
        "flaky.test": { mx: [{ preference: 10, exchange: "mx.flaky.test" }] },
        "mx.flaky.test": { servfail: true },
        // One host missing, the other refuses connections: the domain exists, its host is down.
        "half.test": {
          mx: [
            { preference: 10, exchange: "mx.nowhere.test" },
            { preference: 20, exchange: "mx.closed.test" },
          ],
        },
        "mx.closed.test": { a: ["127.0.0.9"] }, // nothing listens there
      },
    });
    try {
      assert.deepEqual(await r.verify(["a@ghost.test"], "ghost.test"), {
        kind: "unusable-domain",
        why: "no-mail-host",
      });
      assert.deepEqual(await r.verify(["a@flaky.test"], "flaky.test"), {
        kind: "unavailable",
        why: "dns-error",
        evidence: null,
        mailHosts: ["mx.flaky.test"],
      });
      const half = await r.verify(["a@half.test"], "half.test");
      assert.equal(half.kind, "unavailable");
      assert.equal(half.kind === "unavailable" && half.why, "hosts-down");
      assert.equal(r.smtp.connections("127.0.0.1"), 0);
    } finally {
      await r.close();
    }
  },
);

Deno.test("engine: non-global mail host addresses are never dialled by default", OPEN, async () => {
  const dialled: string[] = [];
  const refusingConnect: SmtpConnect = (options) => {
    // Only records what would be dialled: nothing leaves the machine.
    dialled.push(options.hostname);
    return Promise.reject(new Deno.errors.ConnectionRefused("refused by the test"));
  };
  const internal = [
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "192.0.2.1",
  ];
  const r = await rig({
    zone: {
      "internal.test": {
        mx: [
          { preference: 10, exchange: "mx.v4.test" },
          { preference: 20, exchange: "mx.v6.test" },
        ],
      },
      "mx.v4.test": { a: internal },
      "mx.v6.test": { aaaa: ["::1", "fe80::1", "fd00::1", "::", "ff02::1", "::ffff:a00:1"] },
      // No MX: the domain's own address, on loopback.
      "direct.test": { a: ["127.0.0.1"] },
      // One internal host, one global (refused by the test's connect): the global one is tried.
      "mixed.test": {
        mx: [
          { preference: 10, exchange: "mx.v4.test" },
          { preference: 20, exchange: "mx.public.test" },
        ],
      },
      "mx.public.test": { a: ["203.0.114.7"] },
    },
    env: { VERIFY_ALLOW_PRIVATE_ADDRESSES: "" },
    connect: refusingConnect,
  });
  try {
    assert.equal(r.config.allowPrivateAddresses, false);
    for (const domain of ["internal.test", "direct.test"]) {
      assert.deepEqual(await r.verify([`a@${domain}`], domain), {
        kind: "unusable-domain",
        why: "no-public-address",
      });
    }
    assert.deepEqual(dialled, []);
    const mixed = await r.verify(["a@mixed.test"], "mixed.test");
    assert.equal(mixed.kind, "unavailable");
    assert.equal(mixed.kind === "unavailable" && mixed.why, "hosts-down");
    assert.deepEqual(dialled, ["203.0.114.7"]);
    assert.equal(r.smtp.connections(), 0);
  } finally {
    await r.close();
  }
});

Deno.test(
  "engine: a TLS handshake that fails outright is retried once in plaintext",
  OPEN,
  async () => {
    const r = await rig({
      zone: {
        ...ZONE,
        "brokentls.test": { mx: [{ preference: 10, exchange: "mx3.example.test" }] },
        "mx3.example.test": { a: ["127.0.0.3"] },
      },
      // The handshake waits for a reply that never comes: the timeout ends it.
      env: SHORT_TIMEOUT,
    });
    // A host that offers STARTTLS, says 220, then speaks no TLS at all.
    const listener = Deno.listen({ hostname: "127.0.0.3", port: r.smtp.port });
    let connections = 0;
    const serve = (async () => {
      for await (const conn of listener) {
        connections++;
        (async () => {
          const encoder = new TextEncoder();
          const send = (text: string) => conn.write(encoder.encode(text));
          await send("220 mx3.example.test ESMTP\r\n");
          let buffer = "";
          const chunk = new Uint8Array(4096);
          for (;;) {
            const n = await conn.read(chunk).catch(() => null);
            if (n === null) return;
            buffer += new TextDecoder().decode(chunk.subarray(0, n));
            let end;
            while ((end = buffer.indexOf("\r\n")) >= 0) {
              const line = buffer.slice(0, end).toUpperCase();
              buffer = buffer.slice(end + 2);
              if (line.startsWith("EHLO")) await send("250-mx3.example.test\r\n250 STARTTLS\r\n");
              else if (line === "STARTTLS") {
                await send("220 2.0.0 Ready\r\nthis is not a TLS record\r\n");
              } else if (line.startsWith("MAIL")) await send("250 2.1.0 Ok\r\n");
              else if (line.startsWith("RCPT TO:<ADA@")) await send("250 2.1.5 Ok\r\n");
              else if (line.startsWith("RCPT")) await send("550 5.1.1 User unknown\r\n");
              else if (line === "QUIT") {
                await send("221 Bye\r\n");
                return conn.close();
              }
            }
          }
        })().catch(() => {});
      }
    })().catch(() => {});
    try {
      const outcome = await r.verify(["ada@brokentls.test"], "brokentls.test");
      assert.ok(outcome.kind === "valid");
      assert.equal(outcome.evidence.encrypted, false);
      assert.equal(connections, 2);
    } finally {
      listener.close();
      await serve;
      await r.close();
    }
  },
);

Deno.test(
  "engine: several people at one domain share sessions: one probe, an address asked once",
  OPEN,
  async () => {
    const r = await rig({
      smtp: {
        behaviour: {
          mailboxes: { "ada@example.test": "accept", "bo.smith@example.test": "accept" },
        },
      },
      env: { VERIFY_MAX_RCPT_PER_SESSION: "5", VERIFY_CACHE_SECONDS: "0" },
    });
    try {
      const requests = [
        ["ada@example.test", "a.lovelace@example.test"],
        ["cy@example.test", "shared@example.test", "c.young@example.test"],
        ["shared@example.test", "bo.smith@example.test", "bsmith@example.test"],
      ].map((candidates) => ({ domain: "example.test", candidates }));
      const verifier = createSmtpVerifier({
        dns: (await createDnsResolver({ nameServer: r.config.dnsServer, timeoutMs: 300 })).resolver,
        kv: r.kv,
        config: r.config,
      });
      const outcomes = await verifier.verifyBatch!(requests);
      assert.deepEqual(outcomes.map((o) => o.kind), ["valid", "rejected", "valid"]);
      assert.equal(outcomes[0].kind === "valid" && outcomes[0].address, "ada@example.test");
      assert.equal(outcomes[2].kind === "valid" && outcomes[2].address, "bo.smith@example.test");
      const asked = rcptsOf(r);
      // probe, ada (accepted: a.lovelace spared), cy, shared, c.young | bo.smith (bsmith spared)
      assert.equal(asked.filter(isProbe).length, 1);
      assert.deepEqual(asked.slice(1), [
        "ada@example.test",
        "cy@example.test",
        "shared@example.test",
        "c.young@example.test",
        "bo.smith@example.test",
      ]);
      assert.deepEqual(r.smtp.sessions.map((session) => session.rcpts.length), [5, 1]);
      // Each outcome is what a lookup of its own answers.
      r.smtp.reset();
      for (const [i, request] of requests.entries()) {
        assert.deepEqual((await verifier.verify(request)).kind, outcomes[i].kind);
      }
    } finally {
      await r.close();
    }
  },
);
