/**
 * `deno task bench:find`: find lookups per second against local fakes, and SMTP sessions opened
 * per lookup (the target is exactly 1 per domain).
 *
 * The fakes (a DNS server and an SMTP server on 127.0.0.1, the test suite's own) run in this
 * process; the service runs as its own process, started the README's way (`main.ts`) with
 * `VERIFY_DNS_SERVER` and `VERIFY_SMTP_PORT` pointing at them. Every request asks for a different
 * person (so the directory, which learns each verified address, never answers in SMTP's place),
 * spread over `BENCH_DOMAINS` domains; each verified address is a `first.last` mailbox.
 */
import { startFakeDns } from "../tests/fakes/dns_server.ts";
import { startFakeSmtp } from "../tests/fakes/smtp_server.ts";
import { BENCH_CONCURRENCY, BENCH_SECONDS } from "./http_support.ts";
import { closedLoop, perSecond, startServiceProcess } from "./service_process.ts";

const DOMAINS = Number(Deno.env.get("BENCH_DOMAINS") ?? 50);
const GIVEN = [
  "Amara",
  "Bruno",
  "Chiara",
  "Dmitri",
  "Elena",
  "Farid",
  "Greta",
  "Hugo",
  "Ines",
  "Jonas",
  "Kavya",
  "Lars",
  "Mina",
  "Nikolai",
  "Olga",
  "Pablo",
  "Quinn",
  "Rosa",
  "Stefan",
  "Talia",
  "Umar",
  "Vera",
  "Wiktor",
  "Xenia",
  "Yusuf",
  "Zofia",
  "Anton",
  "Beatriz",
  "Cyril",
  "Dalia",
];
const SURNAMES = [
  "Abbott",
  "Brennan",
  "Castillo",
  "Dalton",
  "Eriksen",
  "Fischer",
  "Galloway",
  "Hartmann",
  "Ivanova",
  "Jensen",
  "Keller",
  "Lindqvist",
  "Moreau",
  "Novak",
  "Okafor",
  "Petrov",
  "Quiroga",
  "Rasmussen",
  "Schneider",
  "Thornton",
  "Ulrich",
  "Valdez",
  "Whitaker",
  "Yamamoto",
  "Zeller",
  "Albers",
  "Barros",
  "Conti",
  "Duarte",
  "Engel",
];

const domains = Array.from({ length: DOMAINS }, (_, i) => `bench${i}.test`);
const people = GIVEN.flatMap((given) => SURNAMES.map((surname) => ({ given, surname })));
const zone: Record<string, { mx?: { preference: number; exchange: string }[]; a?: string[] }> = {
  "mx.bench.test": { a: ["127.0.0.1"] },
};
for (const domain of domains) {
  zone[domain] = { mx: [{ preference: 10, exchange: "mx.bench.test" }] };
}
const mailboxes: Record<string, "accept"> = {};
for (const domain of domains) {
  for (const { given, surname } of people) {
    mailboxes[`${given}.${surname}@${domain}`.toLowerCase()] = "accept";
  }
}

const dns = await startFakeDns(zone);
const smtp = await startFakeSmtp({ behaviour: { mailboxes, starttls: false } });
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
} finally {
  await service.stop();
  await smtp.close();
  await dns.close();
}
