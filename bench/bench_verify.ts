/**
 * `deno task bench:verify`: verifying addresses against the real Postfix world of
 * `tests/real_mail/` (Debian's Postfix, postgrey and dnsmasq on 127.0.0.x; needs root and installs
 * the packages when missing), with the service as its own process (`main.ts`, the README's way):
 *
 * 1. one bulk job of `BENCH_VERIFY_ROWS` addresses (default 10,000) over `BENCH_VERIFY_DOMAINS`
 *    domains (default 100, each its own MX name on the plain host; every third address a mailbox
 *    Postfix knows), started through the API and run by the service's own bulk runner:
 *    addresses/s, and from Postfix's own log SMTP sessions and RCPTs per address, QUITs, DATA
 *    (must be 0) and error-limit hits (must be 0); the verdicts checked against the mailboxes;
 * 2. `BENCH_VERIFY_SINGLE` other addresses (default 2,000) as single `POST /api/v1/verify` calls,
 *    32 at a time;
 * 3. `deep-email-validator` (npm), a verifier users pick, on `BENCH_VERIFY_COMPARE` of those
 *    addresses (default 300), in a child process allowed to reach nothing but the world's DNS
 *    server (bench/deep_email_validator_child.ts): its verdicts beside ours and the time each
 *    took, with its SMTP check on, and with its offline checks alone.
 */
import {
  ensureRealMailSoftware,
  readPostfixSessions,
  REAL_DNS_SERVER,
  REAL_HELO_NAME,
  REAL_SMTP_PORT,
  startRealMailWorld,
} from "../tests/real_mail/real_mail_world.ts";
import { BENCH_API_KEY, closedLoop, perSecond, startServiceProcess } from "./service_process.ts";

const ROWS = Number(Deno.env.get("BENCH_VERIFY_ROWS") ?? 10_000);
const DOMAINS = Number(Deno.env.get("BENCH_VERIFY_DOMAINS") ?? 100);
const SINGLE = Number(Deno.env.get("BENCH_VERIFY_SINGLE") ?? 2_000);
const COMPARE = Math.min(SINGLE, Number(Deno.env.get("BENCH_VERIFY_COMPARE") ?? 300));

const missing = await ensureRealMailSoftware();
if (missing) {
  console.log(`bench:verify skipped: ${missing}`);
  Deno.exit(0);
}

const domains = Array.from({ length: DOMAINS }, (_, d) => `vbench${d}.test`);
/** `count` addresses spread over the domains; every third is a mailbox Postfix knows. */
function addresses(prefix: string, count: number): { emails: string[]; known: Set<string> } {
  const emails: string[] = [];
  const known = new Set<string>();
  for (let i = 0; i < count; i++) {
    const email = `${prefix}${Math.floor(i / DOMAINS)}@${domains[i % DOMAINS]}`;
    emails.push(email);
    if (i % 3 === 0) known.add(email);
  }
  return { emails, known };
}
const bulk = addresses("person", ROWS);
const single = addresses("single", SINGLE);

const world = await startRealMailWorld({
  greylistSeconds: 2,
  mailboxes: [...bulk.known, ...single.known],
  benchDomains: domains,
});
const service = await startServiceProcess({
  RATE_LIMIT_FIND: "1000000000/60",
  RATE_LIMIT_BULK: "1000/60",
  VERIFY_DNS_SERVER: REAL_DNS_SERVER,
  VERIFY_SMTP_PORT: String(REAL_SMTP_PORT),
  VERIFY_HELO_NAME: REAL_HELO_NAME,
  VERIFY_ALLOW_PRIVATE_ADDRESSES: "true",
  COMPANY_RESOLVER: "none",
}, { freshDatabase: true });
const auth = { Authorization: `Bearer ${BENCH_API_KEY}` };

function perAddress(value: number, count: number): string {
  return (value / Math.max(1, count)).toFixed(3);
}

try {
  console.log(
    `bench:verify  real Postfix 3.7 + dnsmasq on 127.0.0.x, ${DOMAINS} domains, database ${service.databaseKind}`,
  );

  // 1. One bulk job.
  let mark = await world.mark();
  const t0 = performance.now();
  const created = await fetch(`${service.base}/api/v1/bulk/jobs`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json", "Idempotency-Key": "bench-verify" },
    body: JSON.stringify({ operation: "verify", rows: bulk.emails.map((email) => ({ email })) }),
  });
  if (!created.ok) throw new Error(`bulk job refused: ${created.status} ${await created.text()}`);
  const jobId = (await created.json()).data.job.id as string;
  let job: { status: string; counts: { done: number; charged: number; found: number } };
  while (true) {
    job = (await (await fetch(`${service.base}/api/v1/bulk/jobs/${jobId}`, { headers: auth }))
      .json()).data;
    if (["completed", "cancelled", "failed"].includes(job.status)) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const seconds = (performance.now() - t0) / 1000;
  let postfix = readPostfixSessions(await world.logSince(mark));
  const results = (await (await fetch(`${service.base}/api/v1/bulk/jobs/${jobId}/results`, {
    headers: auth,
  })).text()).trim().split("\n").map((line) => JSON.parse(line));
  const statuses: Record<string, number> = {};
  let wrong = 0;
  for (const row of results) {
    const status = row.answer?.status ?? row.state;
    statuses[status] = (statuses[status] ?? 0) + 1;
    const expected = bulk.known.has(row.input.email) ? "valid" : "invalid";
    if (status !== expected) wrong++;
  }
  console.log(
    `bulk job of ${ROWS} addresses: ${job.status} in ${seconds.toFixed(1)} s = ${
      (ROWS / seconds).toFixed(1)
    } addresses/s; statuses ${
      JSON.stringify(statuses)
    }; ${wrong} verdicts differ from the mailboxes; charged ${job.counts.charged} points`,
  );
  console.log(
    `  Postfix's log: ${postfix.sessions} sessions, ${postfix.rcpts} RCPTs = ${
      perAddress(postfix.sessions, ROWS)
    } sessions and ${
      perAddress(postfix.rcpts, ROWS)
    } RCPTs per address; QUIT ${postfix.quits}, DATA/BDAT ${postfix.dataCommands}, error-limit hits ${postfix.errorLimitHits}, TLS failures ${postfix.tlsFailures}`,
  );

  // 2. Single calls, 32 at a time, addresses not asked before (the domains' caches are warm).
  mark = await world.mark();
  let next = 0;
  const ours = new Map<string, string>();
  const run = await closedLoop(
    `${service.base}/api/v1/verify`,
    () => {
      const email = single.emails[next++];
      return email ? JSON.stringify({ email }) : null;
    },
    (body) => {
      const data = body.data as { email?: string; status?: string } | undefined;
      if (data?.email && data.status) ours.set(data.email, data.status);
      return data?.status ?? body.error?.code ?? "?";
    },
    3600,
    32,
  );
  postfix = readPostfixSessions(await world.logSince(mark));
  console.log(
    `single calls, 32 concurrent: ${run.requests} addresses in ${run.seconds} s = ${
      perSecond(run)
    } addresses/s  p50 ${run.p50Ms} ms  p99 ${run.p99Ms} ms  statuses ${
      JSON.stringify(run.outcomes)
    }`,
  );
  console.log(
    `  Postfix's log: ${postfix.sessions} sessions, ${postfix.rcpts} RCPTs = ${
      perAddress(postfix.sessions, run.requests)
    } sessions and ${
      perAddress(postfix.rcpts, run.requests)
    } RCPTs per address; QUIT ${postfix.quits}, DATA/BDAT ${postfix.dataCommands}, error-limit hits ${postfix.errorLimitHits}`,
  );

  // 3. deep-email-validator on the first COMPARE of the same addresses.
  const sample = single.emails.slice(0, COMPARE);
  for (const smtp of [true, false]) {
    mark = await world.mark();
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--config",
        new URL("../deno.dev.json", import.meta.url).pathname,
        `--allow-net=${REAL_DNS_SERVER}`,
        "--allow-env",
        "--allow-read",
        // node:dns reads the interfaces to choose its default servers: information, no traffic.
        "--allow-sys=networkInterfaces",
        new URL("./deep_email_validator_child.ts", import.meta.url).pathname,
      ],
      env: { DEV_DNS_SERVER: REAL_DNS_SERVER, SMTP: String(smtp) },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(sample.join("\n") + "\n"));
    await writer.close();
    const out = await child.output();
    const err = new TextDecoder().decode(out.stderr);
    const elapsed = Number(/elapsed (\d+) ms/.exec(err)?.[1] ?? NaN);
    const lines = new TextDecoder().decode(out.stdout).trim().split("\n").filter(Boolean)
      .map((line) => JSON.parse(line));
    const side: Record<string, number> = {};
    const why: Record<string, number> = {};
    let agree = 0;
    for (const line of lines) {
      const theirs = line.valid === true ? "valid" : line.valid === false ? "invalid" : "error";
      const key = `ours ${ours.get(line.email) ?? "?"} / theirs ${theirs}`;
      side[key] = (side[key] ?? 0) + 1;
      if (line.level) {
        const reason = `${line.level}: ${
          String(line.why).replace(/\S+@\S+/g, "<address>").replace(/\bmx\.\S+/g, "<MX host>")
        }`;
        why[reason] = (why[reason] ?? 0) + 1;
      }
      const truth = single.known.has(line.email) ? "valid" : "invalid";
      if (theirs === truth) agree++;
    }
    const after = readPostfixSessions(await world.logSince(mark));
    console.log(
      `deep-email-validator 0.1.27, SMTP check ${
        smtp ? "on" : "off"
      }, ${lines.length} addresses, 32 at a time: ${elapsed.toFixed(0)} ms = ${
        (lines.length / (elapsed / 1000)).toFixed(1)
      } addresses/s; right ${agree} of ${lines.length}; Postfix sessions ${after.sessions}`,
    );
    console.log(`  side by side: ${JSON.stringify(side)}`);
    console.log(`  its reasons: ${JSON.stringify(why)}`);
    if (!out.success) console.log(`  child exited ${out.code}: ${err.slice(0, 500)}`);
  }
  const oursRight = single.emails.slice(0, COMPARE).filter((email) =>
    ours.get(email) === (single.known.has(email) ? "valid" : "invalid")
  ).length;
  console.log(`this service on the same ${COMPARE}: right ${oursRight} of ${COMPARE}`);
} finally {
  await service.stop();
  await world.stop();
}
