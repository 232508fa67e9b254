/**
 * `deno task bench:bulk`: a find job of `BENCH_ROWS` rows (default 10,000) over `BENCH_DOMAINS`
 * domains (default 200), each a distinct person, against the test suite's fake DNS and SMTP on
 * 127.0.0.1, answered by the bulk runner in this process (the service's own verbs on an embedded
 * or `TEST_DATABASE_URL` database). Prints rows/s, SMTP sessions per domain and per row, and
 * checks the books: the rows' costs equal the job's settlements.
 */
import { runBulkJob } from "../domain/bulk/run_bulk_job.ts";
import { bearer, createTestWorkspace } from "../tests/harness.ts";
import { startWorld } from "../tests/find_world.ts";
import { GIVEN as ALL_GIVEN, SURNAMES as ALL_SURNAMES } from "./bench_names.ts";

const ROWS = Number(Deno.env.get("BENCH_ROWS") ?? 10_000);
const DOMAINS = Number(Deno.env.get("BENCH_DOMAINS") ?? 200);
const GIVEN = ALL_GIVEN.slice(0, 10);
const SURNAMES = ALL_SURNAMES.slice(0, 8);

const domains = Array.from({ length: DOMAINS }, (_, d) => `bulk${d}.test`);
const rows = Array.from({ length: ROWS }, (_, i) => {
  const given = GIVEN[i % GIVEN.length];
  const surname = `${SURNAMES[Math.floor(i / GIVEN.length) % SURNAMES.length]}${
    Math.floor(i / (GIVEN.length * SURNAMES.length)) || ""
  }`.replace(/\d+/, (n) => "x".repeat(Number(n) % 7 + 1));
  return { name: `${given} ${surname}`, company: domains[i % DOMAINS] };
});
const world = await startWorld({
  dns: {
    ...Object.fromEntries(domains.map((domain) => [domain, {
      mx: [{ preference: 10, exchange: "mx1.example.test" }],
    }])),
  },
  accept: rows.filter((_, i) => i % 4 === 0).map((row) =>
    `${row.name.toLowerCase().replace(" ", ".")}@${row.company}`
  ),
});
try {
  const { env } = world;
  const ws = await createTestWorkspace(env, ROWS * 20);
  const created = await env.app.request("/api/v1/bulk/jobs", {
    method: "POST",
    headers: bearer(ws.apiKey, { "content-type": "application/json", "idempotency-key": "bench" }),
    body: JSON.stringify({ operation: "find", rows }),
  });
  const { data } = await created.json();
  if (created.status !== 200) throw new Error(JSON.stringify(data));
  const started = performance.now();
  const outcome = await runBulkJob(env.ctx, { jobId: data.job.id });
  const seconds = (performance.now() - started) / 1000;
  const job = (await (await env.app.request(`/api/v1/bulk/jobs/${data.job.id}`, {
    headers: bearer(ws.apiKey),
  })).json()).data;
  const [books] = await env.db.sql<{ cost: number; settled: number }[]>`
    SELECT (SELECT coalesce(sum(cost), 0)::int FROM bulk_job_rows WHERE job_id = ${job.id}) AS cost,
           (SELECT coalesce(sum(amount), 0)::int FROM ledger_entries
             WHERE workspace_id = ${ws.workspaceId} AND kind = 'settle') AS settled`;
  const perDomain = new Map<string, number>();
  for (const session of world.smtp.sessions) {
    const domain = session.rcpts[0]?.split("@")[1] ?? "?";
    perDomain.set(domain, (perDomain.get(domain) ?? 0) + 1);
  }
  const counts = [...perDomain.values()];
  console.log(JSON.stringify(
    {
      rows: job.counts.rows,
      status: outcome.kind === "finished" ? outcome.status : outcome.kind,
      seconds: Number(seconds.toFixed(1)),
      rowsPerSecond: Number((job.counts.done / seconds).toFixed(1)),
      found: job.counts.found,
      charged: job.counts.charged,
      settledEqualsRowCosts: books.cost === books.settled && books.cost === job.counts.charged,
      smtpSessions: world.smtp.sessions.length,
      sessionsPerRow: Number((world.smtp.sessions.length / job.counts.done).toFixed(2)),
      sessionsPerDomain: {
        mean: Number((counts.reduce((a, b) => a + b, 0) / counts.length).toFixed(1)),
        max: Math.max(...counts),
      },
      rcptsPerSession: Number((world.smtp.rcpts.length / world.smtp.sessions.length).toFixed(2)),
    },
    null,
    2,
  ));
} finally {
  await world.close();
}
