/**
 * `deno task bench:parse`: billed name parsing over HTTP beside a bare Hono route, in one run.
 *
 * The service runs as its own process, started the README's way (`deno run -A` with the V8 flags
 * of `deno task start`, `main.ts`; on a new database of DATABASE_URL's Postgres server when set,
 * else embedded PGlite under a temp DATA_DIR), with the rate-limit budgets wide open (the limiter
 * still runs). The bare Hono route runs in this process, the load generator (`bench/load.ts`) in
 * a third, all on the same machine.
 *
 * Prints, per run: req/s, latency and the service's CPU time per request (or per name), then the
 * service's resident memory idle after start and at its peak under load, and the ratio of
 * billed single to bare; last, the same as a markdown table for the README.
 * - bare: POST /bare on a plain Hono app (answers a small JSON object);
 * - single: POST /api/v1/name/parse without an Idempotency-Key (key, rate limit, clean + model,
 *   charge committed before the answer), in requests/s;
 * - single keyed: the same with a fresh Idempotency-Key per request (claim, charge, done);
 * - batch: POST /api/v1/name/parse/batch, 100 distinct names and a fresh key per request, names/s.
 *
 * Then the cost of metrics: a second service with `METRICS_TOKEN` set (every request counted and
 * timed, the charge timed and counted, /metrics scraped once a second as Prometheus would) beside
 * the first, the billed single alternated between them (off, on, off, on) so that the machine's
 * drift hits both alike; reported as req/s and service CPU per request, and the difference.
 */
import { BENCH_CONCURRENCY, BENCH_SECONDS, type LoadResult, runLoad } from "./http_support.ts";
import { startBareHono } from "./http_support.ts";
import { BENCH_API_KEY, startServiceProcess } from "./service_process.ts";
import { readProcessMemory, sampleRss } from "./rss.ts";
import { GOLDEN } from "../model/golden_cases.ts";

/**
 * 100 distinct names for the batch body (the project's own golden cases, none from the dev set):
 * the model's word memo lives for one call only, so repeats within a batch would flatter it.
 */
const BATCH_NAMES = [...new Set(GOLDEN.map((c) => c.words))].slice(0, 100);
if (BATCH_NAMES.length !== 100) throw new Error("the batch benchmark needs 100 distinct names");

/** CPU seconds (user + system) of a process so far, from /proc; null elsewhere. */
function cpuSeconds(pid: number): number | null {
  try {
    const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // clock ticks at USER_HZ 100
  } catch {
    return null;
  }
}

interface Row {
  label: string;
  result: LoadResult;
  /** Units per request (names per batch). */
  units: number;
  /** Service CPU per unit, µs (null without /proc or for the bare route). */
  cpuUs: number | null;
}

const bare = startBareHono();
const service = await startServiceProcess({
  RATE_LIMIT_ACCOUNT: "1000000000/60",
  RATE_LIMIT_NAME_PARSE: "1000000000/60",
  RATE_LIMIT_NAME_PARSE_BATCH: "1000000000/60",
}, { freshDatabase: true });
const rows: Row[] = [];
let idle: Awaited<ReturnType<typeof readProcessMemory>> = null;
let peakUnderLoad: number | null = null;
let after: Awaited<ReturnType<typeof readProcessMemory>> = null;
try {
  // Idle: a moment after /healthz answered, before any load.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  idle = await readProcessMemory(service.pid);
  const headers = { Authorization: `Bearer ${BENCH_API_KEY}`, "Content-Type": "application/json" };
  const single = JSON.stringify({ name: "Dr. Grace Brewster Hopper" });
  const batchBody = JSON.stringify({ names: BATCH_NAMES });
  const measure = async (
    label: string,
    url: string,
    options: { headers: Record<string, string>; method: string; body: string },
    units = 1,
    pid: number | null = service.pid,
  ) => {
    const before = pid === null ? null : cpuSeconds(pid);
    const result = await runLoad(url, options);
    const spent = pid === null || before === null ? null : cpuSeconds(pid)! - before;
    const cpuUs = spent === null ? null : Math.round(1e6 * spent / (result.requests * units));
    const row = { label, result, units, cpuUs };
    rows.push(row);
    printRow(row, rows[0]);
    return row;
  };

  console.log(
    `bench:parse  ${BENCH_SECONDS}s per run, ${BENCH_CONCURRENCY} connections, database ${service.databaseKind}, ` +
      `service idle RSS ${idle?.rssMb ?? "?"} MB`,
  );
  const sampler = sampleRss(service.pid);
  // Warm-up (JIT, the model's first calls, connections), not reported.
  await runLoad(`${service.base}/api/v1/name/parse`, { headers, method: "POST", body: single });
  await runLoad(`${service.base}/api/v1/name/parse/batch`, {
    headers: { ...headers, "Idempotency-Key": "{uuid}" },
    method: "POST",
    body: batchBody,
  });
  await measure(
    "bare Hono POST /bare",
    `http://127.0.0.1:${bare.addr.port}/bare`,
    { headers, method: "POST", body: single },
    1,
    null,
  );
  await measure("single POST /api/v1/name/parse", `${service.base}/api/v1/name/parse`, {
    headers,
    method: "POST",
    body: single,
  });
  await measure("single with Idempotency-Key", `${service.base}/api/v1/name/parse`, {
    headers: { ...headers, "Idempotency-Key": "{uuid}" },
    method: "POST",
    body: single,
  });
  await measure("batch x100 POST .../parse/batch", `${service.base}/api/v1/name/parse/batch`, {
    headers: { ...headers, "Idempotency-Key": "{uuid}" },
    method: "POST",
    body: batchBody,
  }, 100);
  peakUnderLoad = await sampler.stop();
  after = await readProcessMemory(service.pid);
} finally {
  await bare.shutdown();
}

const METRICS_TOKEN = "bench-metrics-token-0123456789";
const withMetrics = await startServiceProcess({
  RATE_LIMIT_ACCOUNT: "1000000000/60",
  RATE_LIMIT_NAME_PARSE: "1000000000/60",
  METRICS_TOKEN,
}, { freshDatabase: true });
const metricsRows: { on: boolean; rps: number; cpuUs: number | null }[] = [];
try {
  const headers = { Authorization: `Bearer ${BENCH_API_KEY}`, "Content-Type": "application/json" };
  const body = JSON.stringify({ name: "Dr. Grace Brewster Hopper" });
  await runLoad(`${withMetrics.base}/api/v1/name/parse`, { headers, method: "POST", body });
  // A scraper, as Prometheus runs one (every second here; 15 s or more in practice).
  const scraper = setInterval(() => {
    fetch(`${withMetrics.base}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })
      .then((res) => res.body?.cancel()).catch(() => {});
  }, 1000);
  try {
    for (const on of [false, true, false, true]) {
      const target = on ? withMetrics : service;
      const before = cpuSeconds(target.pid);
      const result = await runLoad(`${target.base}/api/v1/name/parse`, {
        headers,
        method: "POST",
        body,
      });
      const spent = before === null ? null : cpuSeconds(target.pid)! - before;
      metricsRows.push({
        on,
        rps: result.rps,
        cpuUs: spent === null ? null : Math.round(1e6 * spent / result.requests),
      });
    }
  } finally {
    clearInterval(scraper);
  }
} finally {
  await withMetrics.stop();
  await service.stop();
}
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const side = (on: boolean) => metricsRows.filter((row) => row.on === on);
const rpsOff = mean(side(false).map((row) => row.rps));
const rpsOn = mean(side(true).map((row) => row.rps));
const cpuOff = side(false).every((row) => row.cpuUs !== null)
  ? mean(side(false).map((row) => row.cpuUs!))
  : null;
const cpuOn = side(true).every((row) => row.cpuUs !== null)
  ? mean(side(true).map((row) => row.cpuUs!))
  : null;
console.log(
  `\nmetrics on the billed single (alternated, 2 runs each): off ${Math.round(rpsOff)} req/s, ` +
    `on ${Math.round(rpsOn)} req/s (${(100 * (rpsOff - rpsOn) / rpsOff).toFixed(1)} % fewer)` +
    (cpuOff !== null && cpuOn !== null
      ? `; service CPU ${Math.round(cpuOff)} → ${Math.round(cpuOn)} µs/request ` +
        `(${(100 * (cpuOn - cpuOff) / cpuOff).toFixed(1)} % more)`
      : ""),
);

const [bareRow, singleRow, keyedRow, batchRow] = rows;
const ratio = (row: Row) => `${(100 * row.result.rps / bareRow.result.rps).toFixed(1)}%`;
const peak = Math.max(peakUnderLoad ?? 0, after?.peakRssMb ?? 0) || null;
console.log(
  `service RSS: idle ${idle?.rssMb ?? "?"} MB, peak under load ${peak ?? "?"} MB, after load ${
    after?.rssMb ?? "?"
  } MB (peak including start ${after?.peakRssMb ?? "?"} MB)`,
);
console.log(
  `billed single / bare: ${ratio(singleRow)} (with Idempotency-Key ${ratio(keyedRow)});  ` +
    `batch: ${batchRow.result.rps * 100} names/s`,
);

// The README's table row(s) for this database, ready to paste.
const n = (value: number) => value.toLocaleString("en-US");
const cpu = (row: Row) => row.cpuUs === null ? "" : `, ${row.cpuUs} µs CPU`;
const database = service.databaseKind === "postgres" ? "Postgres" : "PGlite (embedded)";
const date = new Date().toISOString().slice(0, 10);
console.log("\nmarkdown:\n");
console.log(
  "| database | connections | bare Hono | billed single (no key) | single with key | batch x100 | service RSS idle / peak under load | date |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- | --- |");
console.log(
  `| ${database} | ${BENCH_CONCURRENCY} | ${n(bareRow.result.rps)} req/s | ${
    n(singleRow.result.rps)
  } req/s (**${ratio(singleRow)}**${cpu(singleRow)}) | ${n(keyedRow.result.rps)} req/s (${
    ratio(keyedRow)
  }${cpu(keyedRow)}) | **${n(batchRow.result.rps * 100)} names/s**${cpu(batchRow)}/name | ${
    idle?.rssMb ?? "?"
  } / ${peak ?? "?"} MB | ${date} |`,
);

function printRow(row: Row, baseline: Row) {
  const { result } = row;
  const perSecond = row.units === 1
    ? `${String(result.rps).padStart(7)} req/s`
    : `${String(result.rps * row.units).padStart(7)} names/s`;
  const cpuText = row.cpuUs === null
    ? ""
    : `  service CPU ${row.cpuUs} µs/${row.units === 1 ? "request" : "name"}`;
  const ratioText = row === baseline || row.units !== 1
    ? ""
    : `  ${(100 * result.rps / baseline.result.rps).toFixed(1)}% of bare`;
  console.log(
    `${row.label.padEnd(32)} ${perSecond}  p50 ${result.p50Ms} ms  p99 ${result.p99Ms} ms  ${
      JSON.stringify(result.statuses)
    }${cpuText}${ratioText}`,
  );
}
