/**
 * `deno task bench:find`: find lookups per second, and SMTP sessions opened per lookup, in three
 * runs:
 *
 * 1. against the test suite's fakes, `BENCH_DOMAINS` domains (target: 1 session per lookup);
 * 2. 32 concurrent lookups at one domain whose mail host answers each RCPT in 20 ms: the most
 *    sessions that host ever had open at once (the cap, `VERIFY_MAX_SESSIONS_PER_HOST`, is 2);
 * 3. against real Postfix on 127.0.0.21 (`tests/real_mail/`), when this runs as root with the
 *    Debian packages (installed if missing): lookups/s, sessions and RCPTs per lookup from
 *    Postfix's own log, and the most sessions open at once as `ss` sees them.
 *
 * The fakes (a DNS server and an SMTP server on 127.0.0.1, the test suite's own) run in this
 * process; the service runs as its own process, started the README's way (`main.ts`) with
 * `VERIFY_DNS_SERVER` and `VERIFY_SMTP_PORT` pointing at them. Every request asks for a different
 * person (so the directory, which learns each verified address, never answers in SMTP's place),
 * spread over `BENCH_DOMAINS` domains; each verified address is a `first.last` mailbox.
 */
import { startFakeDns } from "../tests/fakes/dns_server.ts";
import { startFakeSmtp } from "../tests/fakes/smtp_server.ts";
import {
  ensureRealMailSoftware,
  readPostfixSessions,
  REAL_DNS_SERVER,
  REAL_HELO_NAME,
  REAL_HOSTS,
  REAL_SMTP_PORT,
  startRealMailWorld,
} from "../tests/real_mail/real_mail_world.ts";
import { GIVEN, SURNAMES } from "./bench_names.ts";
import { BENCH_CONCURRENCY, BENCH_SECONDS } from "./http_support.ts";
import { closedLoop, perSecond, startServiceProcess } from "./service_process.ts";

const DOMAINS = Number(Deno.env.get("BENCH_DOMAINS") ?? 50);

const domains = Array.from({ length: DOMAINS }, (_, i) => `bench${i}.test`);
const people = GIVEN.flatMap((given) => SURNAMES.map((surname) => ({ given, surname })));
const zone: Record<string, { mx?: { preference: number; exchange: string }[]; a?: string[] }> = {
  "mx.bench.test": { a: ["127.0.0.1"] },
  // One domain whose host is slow enough for concurrent lookups to overlap.
  "one.test": { mx: [{ preference: 10, exchange: "mx.one.test" }] },
  "mx.one.test": { a: ["127.0.0.2"] },
};
// Each domain its own MX host name (all on 127.0.0.1): the per-host session cap is per name.
for (const domain of domains) {
  zone[domain] = { mx: [{ preference: 10, exchange: `mx.${domain}` }] };
  zone[`mx.${domain}`] = { a: ["127.0.0.1"] };
}
const mailboxes: Record<string, "accept"> = {};
for (const domain of domains) {
  for (const { given, surname } of people) {
    mailboxes[`${given}.${surname}@${domain}`.toLowerCase()] = "accept";
  }
}

const slow = { delayMs: 20, then: "accept" as const };
const dns = await startFakeDns(zone);
const smtp = await startFakeSmtp({
  hosts: ["127.0.0.1", "127.0.0.2"],
  behaviour: { mailboxes, starttls: false },
  hostBehaviour: {
    "127.0.0.2": {
      starttls: false,
      mailboxes: Object.fromEntries(
        people.map(({ given, surname }) => [`${given}.${surname}@one.test`.toLowerCase(), slow]),
      ),
      otherRecipients: { delayMs: 20, then: "reject" },
    },
  },
});
const service = await startServiceProcess({
  RATE_LIMIT_FIND: "1000000000/60",
  VERIFY_DNS_SERVER: dns.address,
  VERIFY_SMTP_PORT: String(smtp.port),
  VERIFY_HELO_NAME: "bench.test",
  // The fake mail host listens on 127.0.0.1.
  VERIFY_ALLOW_PRIVATE_ADDRESSES: "true",
  COMPANY_RESOLVER: "none",
});

let next = 0;
/** A lookup nobody asked before: person and domain advance together; null when all were asked. */
function nextBody(): string | null {
  const i = next++;
  if (i >= people.length * DOMAINS) return null;
  const person = people[Math.floor(i / DOMAINS) % people.length];
  const domain = domains[i % DOMAINS];
  return JSON.stringify({ name: `${person.given} ${person.surname}`, company: domain });
}

let nextAtOne = 0;
/** A new person at one.test each time. */
function nextAtOneDomain(): string | null {
  const person = people[nextAtOne++];
  return person
    ? JSON.stringify({ name: `${person.given} ${person.surname}`, company: "one.test" })
    : null;
}

const outcomeOf = (body: { data?: Record<string, unknown>; error?: { code: string } }) =>
  body.data ? (body.data.found ? "found" : String(body.data.reason)) : String(body.error?.code);

const url = `${service.base}/api/v1/find`;
try {
  console.log(
    `bench:find  ${BENCH_SECONDS}s, ${BENCH_CONCURRENCY} connections, ${DOMAINS} domains, database ${service.databaseKind}, fake DNS + SMTP on 127.0.0.1`,
  );
  // Warm-up: one lookup per domain fills the MX and catch-all caches, as a running service has.
  const warm = await closedLoop(url, nextBody, outcomeOf, Math.max(1, BENCH_SECONDS / 5));
  smtp.reset();
  const run = await closedLoop(url, nextBody, outcomeOf, BENCH_SECONDS);
  const sessions = smtp.connections();
  console.log(
    `warm-up: ${warm.requests} lookups   measured: ${run.requests} lookups in ${run.seconds} s = ${
      perSecond(run)
    } lookups/s  p50 ${run.p50Ms} ms  p99 ${run.p99Ms} ms`,
  );
  console.log(`statuses ${JSON.stringify(run.statuses)}  outcomes ${JSON.stringify(run.outcomes)}`);
  console.log(
    `SMTP sessions opened: ${sessions} for ${run.requests} lookups = ${
      (sessions / Math.max(1, run.requests)).toFixed(3)
    } per lookup (target: exactly 1 per domain per lookup)`,
  );

  smtp.reset();
  const one = await closedLoop(url, nextAtOneDomain, outcomeOf, BENCH_SECONDS, 32);
  console.log(
    `one domain, 32 concurrent lookups, 20 ms per RCPT: ${one.requests} lookups in ${one.seconds} s = ${
      perSecond(one)
    } lookups/s  p50 ${one.p50Ms} ms  p99 ${one.p99Ms} ms  outcomes ${
      JSON.stringify(one.outcomes)
    }`,
  );
  console.log(
    `  most sessions open at once at mx.one.test: ${
      smtp.mostOpen("127.0.0.2")
    } (VERIFY_MAX_SESSIONS_PER_HOST 2); sessions ${smtp.connections("127.0.0.2")}`,
  );
} finally {
  await service.stop();
  await smtp.close();
  await dns.close();
}

await benchRealPostfix();

/** Lookups of distinct people, all with mailboxes, at real Postfix (plain.test, one MX host). */
async function benchRealPostfix() {
  const missing = await ensureRealMailSoftware();
  if (missing) {
    console.log(`real Postfix run skipped: ${missing}`);
    return;
  }
  const known = people.map(({ given, surname }) => `${given}.${surname}@plain.test`.toLowerCase());
  const world = await startRealMailWorld({ greylistSeconds: 2, mailboxes: known });
  const real = await startServiceProcess({
    RATE_LIMIT_FIND: "1000000000/60",
    VERIFY_DNS_SERVER: REAL_DNS_SERVER,
    VERIFY_SMTP_PORT: String(REAL_SMTP_PORT),
    VERIFY_HELO_NAME: REAL_HELO_NAME,
    VERIFY_ALLOW_PRIVATE_ADDRESSES: "true",
    COMPANY_RESOLVER: "none",
  });
  let i = 0;
  const nextPerson = () => {
    const person = people[i++];
    return person
      ? JSON.stringify({ name: `${person.given} ${person.surname}`, company: "plain.test" })
      : null;
  };
  let most = 0;
  let sampling = true;
  const sampler = (async () => {
    const target = `${REAL_HOSTS.plain.address}:${REAL_SMTP_PORT}`;
    while (sampling) {
      const out = await new Deno.Command("ss", {
        args: ["-Htn", "state", "established", "dst", target],
        stdout: "piped",
      }).output();
      const lines = new TextDecoder().decode(out.stdout).split("\n").filter((l) => l.trim());
      most = Math.max(most, lines.length);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    const realUrl = `${real.base}/api/v1/find`;
    // Warm-up: the MX and catch-all caches, as a running service has them.
    await closedLoop(realUrl, nextPerson, outcomeOf, 1, 1);
    const mark = await world.mark();
    const run = await closedLoop(realUrl, nextPerson, outcomeOf, BENCH_SECONDS, 32);
    const postfix = readPostfixSessions(await world.logSince(mark));
    console.log(
      `real Postfix 3.7 (plain.test, one MX host), 32 concurrent lookups: ${run.requests} lookups in ${run.seconds} s = ${
        perSecond(run)
      } lookups/s  p50 ${run.p50Ms} ms  p99 ${run.p99Ms} ms  outcomes ${
        JSON.stringify(run.outcomes)
      }`,
    );
    console.log(
      `  Postfix's log: ${postfix.sessions} sessions, ${postfix.rcpts} RCPTs for ${run.requests} lookups = ${
        (postfix.sessions / Math.max(1, run.requests)).toFixed(3)
      } sessions and ${
        (postfix.rcpts / Math.max(1, run.requests)).toFixed(3)
      } RCPTs per lookup; QUIT ${postfix.quits}, DATA/BDAT ${postfix.dataCommands}; most sessions open at once (ss): ${most}`,
    );

    // People Postfix does not know: every candidate asked, 9 RCPTs a session at most.
    let j = 0;
    const nextUnknown = () => {
      const person = people[j++];
      return person
        ? JSON.stringify({ name: `${person.given} ${person.surname}`, company: "pattern.test" })
        : null;
    };
    await closedLoop(realUrl, nextUnknown, outcomeOf, 1, 1);
    const unknownMark = await world.mark();
    const unknown = await closedLoop(realUrl, nextUnknown, outcomeOf, BENCH_SECONDS, 32);
    const unknownLog = readPostfixSessions(await world.logSince(unknownMark));
    console.log(
      `real Postfix, people it does not know (pattern.test): ${unknown.requests} lookups in ${unknown.seconds} s = ${
        perSecond(unknown)
      } lookups/s  p50 ${unknown.p50Ms} ms  p99 ${unknown.p99Ms} ms  outcomes ${
        JSON.stringify(unknown.outcomes)
      }`,
    );
    console.log(
      `  Postfix's log: ${
        (unknownLog.sessions / Math.max(1, unknown.requests)).toFixed(3)
      } sessions and ${
        (unknownLog.rcpts / Math.max(1, unknown.requests)).toFixed(3)
      } RCPTs per lookup; "too many errors" hang-ups ${unknownLog.errorLimitHits}; most sessions open at once (ss): ${most}`,
    );
  } finally {
    sampling = false;
    await sampler;
    await real.stop();
    await world.stop();
  }
}
