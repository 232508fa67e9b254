/**
 * `deno task bench:leads`: lead search on a directory of BENCH_LEADS_PEOPLE demo people (default
 * 1,000,000). Prints
 *   1. how long `admin demo --people N` took (run as its own process, the README's way);
 *   2. the p50/p95 time of the directory query one run page makes (the runner's paged search, called
 *      directly on the database) for several realistic filter combinations, each walked page by
 *      page as a run walks it (cursor after the previous page's last id) — first as loaded (a new
 *      Postgres database has no statistics until ANALYZE), then after ANALYZE when there were none;
 *   3. leads delivered per second: runs of count 1000 started over HTTP against the real service
 *      (`main.ts` as its own process; its lead-search runner — a Worker on Postgres, inline on
 *      PGlite — delivers them) and polled until completed;
 *   4. the p50/p95 time of a results page (`GET /api/v1/lead-search/runs/{id}?page=N`, over HTTP,
 *      one request at a time, random runs and pages).
 *
 * Postgres when DATABASE_URL is set, else embedded PGlite under a temporary DATA_DIR.
 * BENCH_LEADS_SKIP_DEMO=1 reuses a directory already loaded (the load is then not timed).
 * Figures only; nothing here asserts a time.
 */
import { openDatabase, type Sql } from "../domain/stores/database.ts";
import { createPagedDirectorySearch } from "../domain/lead_search/search_directory_page.ts";
import type { LeadFilters } from "../domain/lead_search/lead_search_run.ts";
import { BENCH_API_KEY, startServiceProcess } from "./service_process.ts";

const PEOPLE = Number(Deno.env.get("BENCH_LEADS_PEOPLE") ?? 1_000_000);
const RUNS = Number(Deno.env.get("BENCH_LEADS_RUNS") ?? 3);
const PAGE_REQUESTS = Number(Deno.env.get("BENCH_LEADS_PAGE_REQUESTS") ?? 1000);
const SEARCH_PAGES = Number(Deno.env.get("BENCH_LEADS_SEARCH_PAGES") ?? 40);
const SKIP_DEMO = Deno.env.get("BENCH_LEADS_SKIP_DEMO") === "1";
const databaseUrl = Deno.env.get("DATABASE_URL") ?? null;

/** Filter combinations a user would send; each is walked as a run of 1000 leads walks it. */
const SEARCHES: { label: string; filters: LeadFilters }[] = [
  { label: "jobTitle", filters: { jobTitle: ["Data Scientist"] } },
  { label: "jobTitle (rare: a chief)", filters: { jobTitle: ["Chief Data Officer"] } },
  { label: "location (city)", filters: { location: ["Berlin"] } },
  { label: "location (city, country)", filters: { location: ["Paris, France", "Lyon"] } },
  { label: "location (none match)", filters: { location: ["Atlantis"] } },
  { label: "industry+headcount", filters: { industry: ["Software"], headcount: ["51-200"] } },
  { label: "seniority+keywords", filters: { seniority: ["vp"], keywords: ["rust", "sql"] } },
  { label: "company", filters: { company: ["Acme"] } },
  {
    label: "title+location+seniority",
    filters: { jobTitle: ["engineer"], location: ["Osaka"], seniority: ["senior"] },
  },
];

const dataDir = databaseUrl ? null : await Deno.makeTempDir({ prefix: "bench-leads-" });
const baseEnv: Record<string, string> = dataDir ? { DATA_DIR: dataDir } : {};

function quantiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] ?? 0 };
}
const ms = (x: number) => `${x.toFixed(1)} ms`.padStart(10);

async function loadDemo(): Promise<string> {
  if (SKIP_DEMO) return "skipped (BENCH_LEADS_SKIP_DEMO=1)";
  const env = { ...Deno.env.toObject(), ...baseEnv };
  const started = performance.now();
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      "--unstable-kv",
      new URL("../admin.ts", import.meta.url).pathname,
      "demo",
      "--people",
      String(PEOPLE),
    ],
    env,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  const seconds = (performance.now() - started) / 1000;
  if (!output.success) throw new Error("admin demo failed");
  const answer = JSON.parse(new TextDecoder().decode(output.stdout));
  return `${seconds.toFixed(1)} s (${
    Math.round(PEOPLE / seconds)
  } people/s; created ${answer.created}, updated ${answer.updated}, unchanged ${answer.unchanged})`;
}

async function hasStatistics(sql: Sql): Promise<boolean> {
  const [row] = await sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM pg_stats WHERE tablename = 'people'`;
  return row.n > 0;
}

/** Each combination walked page by page (25 a page, cursor after the last id), a fresh chain. */
async function benchSearches(sql: Sql, label: string) {
  console.log(`\nfiltered search page (the runner's paged search, 25 leads, ${label}):`);
  console.log(
    `  ${"filters".padEnd(28)} ${"pages".padStart(5)} ${"leads".padStart(6)} ${
      "first".padStart(10)
    } ${"p50".padStart(10)} ${"p95".padStart(10)} ${"max".padStart(10)}`,
  );
  const all: number[] = [];
  for (const { label, filters } of SEARCHES) {
    const chainId = `run_bench${crypto.randomUUID().replaceAll("-", "")}`;
    // As a run does: one paged search walks the pages (it keeps a selective search's matches).
    const search = createPagedDirectorySearch();
    let after: string | null = null;
    const times: number[] = [];
    let leads = 0;
    for (let page = 0; page < SEARCH_PAGES; page++) {
      const t0 = performance.now();
      const found = await search({ db: { sql } }, { filters, chainId, after, limit: 25 });
      times.push(performance.now() - t0);
      leads += found.length;
      if (found.length < 25) break;
      after = found[found.length - 1].personId;
    }
    all.push(...times);
    const q = quantiles(times);
    console.log(
      `  ${label.padEnd(28)} ${String(q.n).padStart(5)} ${String(leads).padStart(6)} ${
        ms(times[0])
      } ${ms(q.p50)} ${ms(q.p95)} ${ms(q.max)}`,
    );
  }
  const q = quantiles(all);
  console.log(
    `  ${"all pages".padEnd(28)} ${String(q.n).padStart(5)} ${"".padStart(6)} ${"".padStart(10)} ${
      ms(q.p50)
    } ${ms(q.p95)} ${ms(q.max)}`,
  );
}

console.log(
  `bench:leads  ${PEOPLE} demo people, database ${databaseUrl ? "postgres" : "pglite"}`,
);
console.log(`admin demo --people ${PEOPLE}: ${await loadDemo()}`);

// The directory queries, straight on the database (PGlite: before the service owns it).
{
  const db = await openDatabase({
    url: databaseUrl,
    pgliteDir: dataDir ? `${dataDir}/pglite` : undefined,
    poolSize: 1,
  });
  try {
    const [{ n }] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM people`;
    console.log(`directory: ${n} people`);
    const stats = await hasStatistics(db.sql);
    await benchSearches(db.sql, stats ? "with statistics" : "as loaded, no statistics");
    if (!stats) {
      const t0 = performance.now();
      await db.sql`ANALYZE`;
      console.log(`\nANALYZE: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      await benchSearches(db.sql, "after ANALYZE");
    }
  } finally {
    await db.close();
  }
}

// Runs over HTTP against the real service.
const service = await startServiceProcess({
  ...baseEnv,
  RATE_LIMIT_ACCOUNT: "1000000000/60",
  RATE_LIMIT_LEAD_SEARCH: "1000000000/60",
  LEAD_SEARCH_POLL_MS: "50",
});
const headers = { Authorization: `Bearer ${BENCH_API_KEY}`, "Content-Type": "application/json" };
try {
  const runner = databaseUrl ? "worker" : "inline";
  console.log(
    `\nruns of 1000 leads over HTTP (service process, ${runner} runner, polled every 50 ms):`,
  );
  const runIds: string[] = [];
  const pagesOfRun = new Map<string, number>();
  let previous: string | null = null;
  const runFilters: LeadFilters[] = [
    { seniority: ["senior"] },
    { location: ["Berlin"] },
    { industry: ["Software"], headcount: ["51-200"] },
    { jobTitle: ["manager"] },
    { keywords: ["python"] },
  ];
  for (let i = 0; i < RUNS; i++) {
    // The last run continues the one before it (leads of the chain are never delivered twice).
    const continuing = i === RUNS - 1 && previous !== null && RUNS > 1;
    const filters = continuing
      ? runFilters[(i - 1) % runFilters.length]
      : runFilters[i % runFilters.length];
    const t0 = performance.now();
    const res = await fetch(`${service.base}/api/v1/lead-search`, {
      method: "POST",
      headers: { ...headers, "Idempotency-Key": crypto.randomUUID() },
      body: JSON.stringify({
        filters,
        count: 1000,
        ...(continuing ? { continueFromRunId: previous } : {}),
      }),
    });
    const started = await res.json();
    if (!started.data?.run) throw new Error(`start failed: ${JSON.stringify(started)}`);
    const runId: string = started.data.run.id;
    let firstLeadAt: number | null = null;
    let run;
    while (true) {
      const poll = await fetch(`${service.base}/api/v1/lead-search/runs/${runId}`, { headers });
      run = (await poll.json()).data;
      if (firstLeadAt === null && run.deliveredCount > 0) firstLeadAt = performance.now();
      if (!["queued", "processing", "cancelling"].includes(run.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const seconds = (performance.now() - t0) / 1000;
    const delivering = firstLeadAt === null ? seconds : (performance.now() - firstLeadAt) / 1000;
    console.log(
      `  ${JSON.stringify(filters).padEnd(50)}${
        continuing ? " (continues)" : ""
      } ${run.status} ${run.deliveredCount} leads in ${seconds.toFixed(2)} s = ${
        Math.round(run.deliveredCount / seconds)
      } leads/s start to completed (${
        Math.round(run.deliveredCount / Math.max(0.001, delivering))
      } leads/s after the first page), ${run.creditsCharged} credits`,
    );
    runIds.push(runId);
    if (run.deliveredCount > 0) pagesOfRun.set(runId, Math.ceil(run.deliveredCount / 25));
    previous = runId;
  }

  // Results pages: random run, random page, one request at a time.
  const withLeads = [...pagesOfRun.keys()];
  const totalPages = [...pagesOfRun.values()].reduce((a, b) => a + b, 0);
  const times: number[] = [];
  for (let i = 0; i < PAGE_REQUESTS && withLeads.length > 0; i++) {
    const runId = withLeads[Math.floor(Math.random() * withLeads.length)];
    const page = 1 + Math.floor(Math.random() * pagesOfRun.get(runId)!);
    const t0 = performance.now();
    const res = await fetch(`${service.base}/api/v1/lead-search/runs/${runId}?page=${page}`, {
      headers,
    });
    const body = await res.json();
    times.push(performance.now() - t0);
    if (!res.ok || body.data.results.length === 0) {
      throw new Error(`page ${page} of ${runId} empty`);
    }
  }
  const q = quantiles(times);
  console.log(
    `\nresults page GET runs/{id}?page=N over HTTP: ${q.n} requests over ${withLeads.length} runs, ${totalPages} pages  p50 ${
      q.p50.toFixed(1)
    } ms  p95 ${q.p95.toFixed(1)} ms  max ${q.max.toFixed(1)} ms`,
  );
} finally {
  await service.stop();
  if (dataDir) await Deno.remove(dataDir, { recursive: true }).catch(() => {});
}
