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
const dataDir = await Deno.makeTempDir({ prefix: "svc-bench-find-" });
const apiKey = `svc_sk_${"ab".repeat(24)}`;
const port = 18_000 + Math.floor(Math.random() * 2000);
const serviceEnv: Record<string, string> = {
  DATA_DIR: dataDir,
  PORT: String(port),
  HOST: "127.0.0.1",
  LOG_REQUESTS: "false",
  SVC_BOOTSTRAP_KEY: apiKey,
  SVC_BOOTSTRAP_POINTS: "1000000000",
  RATE_LIMIT_FIND: "1000000000/60",
  VERIFY_DNS_SERVER: dns.address,
  VERIFY_SMTP_PORT: String(smtp.port),
  VERIFY_HELO_NAME: "bench.test",
  COMPANY_RESOLVER: "none",
};
const databaseUrl = Deno.env.get("DATABASE_URL");
if (databaseUrl) serviceEnv.DATABASE_URL = databaseUrl;
const service = new Deno.Command(Deno.execPath(), {
  args: [
    "run",
    "-A",
    "--unstable-kv",
    "--unstable-cron",
    new URL("../main.ts", import.meta.url).pathname,
  ],
  env: serviceEnv,
  stdout: Deno.env.get("BENCH_DEBUG") ? "inherit" : "null",
  stderr: "inherit",
}).spawn();
const url = `http://127.0.0.1:${port}/api/v1/find`;

async function waitForService() {
  for (let i = 0; i < 300; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      await res.body?.cancel();
      if (res.ok) return;
    } catch { /* not up yet */ }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the service did not start");
}

let next = 0;
/** A lookup nobody asked before: person and domain advance together. */
function nextBody(): string {
  const i = next++;
  const person = people[Math.floor(i / DOMAINS) % people.length];
  const domain = domains[i % DOMAINS];
  return JSON.stringify({ name: `${person.given} ${person.surname}`, company: domain });
}

async function load(seconds: number) {
  const statuses: Record<string, number> = {};
  const outcomes: Record<string, number> = {};
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(Array.from({ length: BENCH_CONCURRENCY }, async () => {
    while (performance.now() < deadline && next < people.length * DOMAINS) {
      const t0 = performance.now();
      const res = await fetch(url, {
        method: "POST",
        headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
        body: nextBody(),
        signal: AbortSignal.timeout(60_000),
      });
      if (Deno.env.get("BENCH_DEBUG")) console.error(res.status, latencies.length);
      const body = await res.json();
      latencies.push(performance.now() - t0);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      const outcome = body.data ? (body.data.found ? "found" : body.data.reason) : body.error?.code;
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
  }));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(latencies[Math.floor(q * (latencies.length - 1))] * 100) / 100;
  return { lookups: latencies.length, elapsed, statuses, outcomes, p50: at(0.5), p99: at(0.99) };
}

try {
  await waitForService();
  console.log(
    `bench:find  ${BENCH_SECONDS}s, ${BENCH_CONCURRENCY} connections, ${DOMAINS} domains, database ${
      databaseUrl ? "postgres" : "pglite"
    }, fake DNS + SMTP on 127.0.0.1`,
  );
  // Warm-up: one lookup per domain fills the MX and catch-all caches, as a running service has.
  const warm = await load(Math.max(1, BENCH_SECONDS / 5));
  smtp.reset();
  const run = await load(BENCH_SECONDS);
  const sessions = smtp.connections();
  console.log(
    `warm-up: ${warm.lookups} lookups   measured: ${run.lookups} lookups in ${
      run.elapsed.toFixed(2)
    } s = ${Math.round(run.lookups / run.elapsed)} lookups/s  p50 ${run.p50} ms  p99 ${run.p99} ms`,
  );
  console.log(`statuses ${JSON.stringify(run.statuses)}  outcomes ${JSON.stringify(run.outcomes)}`);
  console.log(
    `SMTP sessions opened: ${sessions} for ${run.lookups} lookups = ${
      (sessions / Math.max(1, run.lookups)).toFixed(3)
    } per lookup (target: exactly 1 per domain per lookup)`,
  );
} finally {
  service.kill("SIGTERM");
  await service.status;
  await smtp.close();
  await dns.close();
  await Deno.remove(dataDir, { recursive: true }).catch(() => {});
}
