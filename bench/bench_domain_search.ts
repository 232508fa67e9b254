/**
 * `deno task bench:domain-search`: domain search and its count on a directory of
 * BENCH_DS_PEOPLE demo people (default 1,000,000; about 47,000 at each of the 20 demo companies
 * with a domain). Prints
 *   1. how long `admin demo --people N` took (skipped with BENCH_DS_SKIP_DEMO=1, reusing a
 *      directory already loaded);
 *   2. over HTTP against the real service (`main.ts` as its own process), one request at a time:
 *      the p50/p95 of a domain-search page (25 and 100 people, walked page by page with the
 *      cursor, with and without department/seniority/title filters, at random demo domains) and
 *      of the free count (`GET /api/v1/domain-search/count`), first as loaded (a new Postgres
 *      database has no statistics and no visibility map until it is vacuumed; only
 *      BENCH_DS_AS_LOADED_REQUESTS requests each, as they take seconds), then after
 *      VACUUM (ANALYZE), as autovacuum leaves a loaded table.
 *
 * BENCH_DS_COPY_TO=N: when the directory holds fewer than N people (a load cut short: `admin
 * demo` does about 1,000 people a second on a quiet machine), copies them in SQL until it holds N,
 * each copy with its own id, profile URL and address (`jane.doe7@…`: the same pattern), so the
 * companies, titles, seniorities and share of verified addresses stay the demo's.
 *
 * Postgres when DATABASE_URL is set, else embedded PGlite under a temporary DATA_DIR.
 * Figures only; nothing here asserts a time.
 */
import { openDatabase, type Sql } from "../domain/stores/database.ts";
import { DEMO_COMPANIES } from "../domain/directory/demo_people.ts";
import { BENCH_API_KEY, startServiceProcess } from "./service_process.ts";

const PEOPLE = Number(Deno.env.get("BENCH_DS_PEOPLE") ?? 1_000_000);
const REQUESTS = Number(Deno.env.get("BENCH_DS_REQUESTS") ?? 200);
const SKIP_DEMO = Deno.env.get("BENCH_DS_SKIP_DEMO") === "1";
const COPY_TO = Number(Deno.env.get("BENCH_DS_COPY_TO") ?? 0);
const AS_LOADED_REQUESTS = Number(Deno.env.get("BENCH_DS_AS_LOADED_REQUESTS") ?? 10);
const databaseUrl = Deno.env.get("DATABASE_URL") ?? null;

const DOMAINS = DEMO_COMPANIES.flatMap((c) => (c.domain ? [c.domain] : []));

/** What a user asks: a domain alone, or narrowed by department, seniority, title words. */
const SEARCHES: { label: string; body: Record<string, unknown> }[] = [
  { label: "domain, 25 a page", body: { limit: 25 } },
  { label: "domain, 100 a page", body: { limit: 100 } },
  { label: "department", body: { department: ["engineering"], limit: 25 } },
  { label: "department+seniority", body: { department: ["sales"], seniority: ["vp"] } },
  { label: "title words", body: { title: "data scientist", limit: 25 } },
];
/** Pages walked per search and domain (cursor after cursor). */
const PAGES = 5;

const dataDir = databaseUrl ? null : await Deno.makeTempDir({ prefix: "bench-ds-" });
const baseEnv: Record<string, string> = dataDir ? { DATA_DIR: dataDir } : {};

function quantiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] ?? 0 };
}
const ms = (x: number) => `${x.toFixed(1)} ms`.padStart(10);

async function loadDemo(): Promise<string> {
  if (SKIP_DEMO) return "skipped (BENCH_DS_SKIP_DEMO=1)";
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
    env: { ...Deno.env.toObject(), ...baseEnv },
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!output.success) throw new Error("admin demo failed");
  return `${((performance.now() - started) / 1000).toFixed(1)} s`;
}

async function withDatabase<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
  const db = await openDatabase({
    url: databaseUrl,
    pgliteDir: dataDir ? `${dataDir}/pglite` : undefined,
    poolSize: 1,
  });
  try {
    return await work(db.sql);
  } finally {
    await db.close();
  }
}

async function benchHttp(label: string, requests: number) {
  const service = await startServiceProcess({
    ...baseEnv,
    RATE_LIMIT_ACCOUNT: "1000000000/60",
    RATE_LIMIT_DOMAIN_SEARCH: "1000000000/60",
    RATE_LIMIT_DOMAIN_COUNT: "1000000000/60",
    // No DNS from the benchmark (the demo's `.example` domains have none, and nothing leaves
    // this machine): with a remote verifier the mail part is answered as not known, so the
    // figures are the directory's. The verifier is never asked.
    VERIFIER_URL: "http://127.0.0.1:9/",
    VERIFIER_SECRET: "bench-verifier-secret-not-used",
    COMPANY_RESOLVER: "none",
    // One secret for every run on the same database (a service refuses another).
    SVC_SECRET: "bench-domain-search-secret-0123456789abcdef",
  });
  const headers = { Authorization: `Bearer ${BENCH_API_KEY}`, "Content-Type": "application/json" };
  try {
    // One untimed request first: the service's first billed call warms its charge path.
    await (await fetch(`${service.base}/api/v1/domain-search`, {
      method: "POST",
      headers,
      body: JSON.stringify({ domain: DOMAINS[0], limit: 1 }),
    })).body?.cancel();
    console.log(`\nover HTTP, one request at a time (${label}):`);
    console.log(
      `  ${"request".padEnd(26)} ${"n".padStart(5)} ${"first".padStart(10)} ${"p50".padStart(10)} ${
        "p95".padStart(10)
      } ${"max".padStart(10)}`,
    );
    const all: number[] = [];
    for (const { label, body } of SEARCHES) {
      const times: number[] = [];
      for (let i = 0; times.length < requests; i++) {
        const domain = DOMAINS[i % DOMAINS.length];
        let cursor: string | null = null;
        for (let page = 0; page < PAGES && times.length < requests; page++) {
          const t0 = performance.now();
          const res: Response = await fetch(`${service.base}/api/v1/domain-search`, {
            method: "POST",
            headers,
            body: JSON.stringify({ domain, ...body, ...(cursor ? { cursor } : {}) }),
          });
          const json: { data: { nextCursor: string | null } } = await res.json();
          times.push(performance.now() - t0);
          if (!res.ok) throw new Error(`domain search: ${JSON.stringify(json)}`);
          cursor = json.data.nextCursor;
          if (!cursor) break;
        }
      }
      all.push(...times);
      const q = quantiles(times);
      console.log(
        `  ${label.padEnd(26)} ${String(q.n).padStart(5)} ${ms(times[0])} ${ms(q.p50)} ${
          ms(q.p95)
        } ${ms(q.max)}`,
      );
    }
    const q = quantiles(all);
    console.log(
      `  ${"all search pages".padEnd(26)} ${String(q.n).padStart(5)} ${"".padStart(10)} ${
        ms(q.p50)
      } ${ms(q.p95)} ${ms(q.max)}`,
    );
    const counts: number[] = [];
    for (let i = 0; i < requests; i++) {
      const domain = DOMAINS[i % DOMAINS.length];
      const t0 = performance.now();
      const res = await fetch(`${service.base}/api/v1/domain-search/count?domain=${domain}`, {
        headers,
      });
      const json = await res.json();
      counts.push(performance.now() - t0);
      if (!res.ok) throw new Error(`count: ${JSON.stringify(json)}`);
    }
    const c = quantiles(counts);
    console.log(
      `  ${"count".padEnd(26)} ${String(c.n).padStart(5)} ${ms(counts[0])} ${ms(c.p50)} ${
        ms(c.p95)
      } ${ms(c.max)}`,
    );
  } finally {
    await service.stop();
  }
}

console.log(
  `bench:domain-search  ${PEOPLE} demo people, database ${databaseUrl ? "postgres" : "pglite"}`,
);
console.log(`admin demo --people ${PEOPLE}: ${await loadDemo()}`);
/** Copies the loaded people (and their addresses) until the directory holds `target`. */
async function copyTo(sql: Sql, target: number): Promise<string> {
  const [{ n }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM people`;
  if (n >= target) return `not needed (${n} people)`;
  const t0 = performance.now();
  const copies = Math.ceil(target / n) - 1;
  await sql.begin(async (tx) => {
    await tx`CREATE TEMP TABLE originals ON COMMIT DROP AS
               SELECT * FROM people WHERE id NOT LIKE 'per\_copy%'`;
    await tx`
      INSERT INTO people (id, full_name, given, surname, name_key, gs_key, title, seniority,
                          company_id, location, headline, network_url, keywords, channels,
                          dedupe_key, created_at, updated_at)
      SELECT 'per_copy' || k || '_' || substr(o.id, 5), o.full_name, o.given, o.surname,
             o.name_key, o.gs_key, o.title, o.seniority, o.company_id, o.location, o.headline,
             CASE WHEN o.network_url IS NULL THEN NULL ELSE o.network_url || '-' || k END,
             o.keywords, o.channels,
             CASE WHEN o.network_url IS NULL THEN o.dedupe_key || '#' || k
                  ELSE o.network_url || '-' || k END,
             o.created_at, o.updated_at
        FROM generate_series(1, ${copies}) k CROSS JOIN originals o
       ORDER BY k, o.id
       LIMIT ${target - n}`;
    await tx`
      INSERT INTO person_emails (person_id, address, status, verified_at, source)
      SELECT p.id, split_part(e.address, '@', 1) || replace(split_part(p.id, '_', 2), 'copy', '') ||
                   '@' || split_part(e.address, '@', 2),
             e.status, e.verified_at, e.source
        FROM people p
        JOIN person_emails e ON e.person_id = 'per_' || split_part(p.id, '_', 3)
       WHERE p.id LIKE 'per\_copy%'`;
  });
  const [{ m }] = await sql<{ m: number }[]>`SELECT count(*)::int AS m FROM people`;
  return `${n} → ${m} people in ${((performance.now() - t0) / 1000).toFixed(1)} s`;
}

if (COPY_TO > 0) {
  console.log(`copied in SQL: ${await withDatabase((sql) => copyTo(sql, COPY_TO))}`);
}
const stats = await withDatabase(async (sql) => {
  const [{ n }] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM people`;
  console.log(`directory: ${n} people`);
  const [row] = await sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM pg_stats WHERE tablename = 'people'`;
  return row.n > 0;
});
try {
  if (!stats) {
    // As loaded, a company's count reads its people from the table (no visibility map yet):
    // seconds a request, so only a few.
    await benchHttp("as loaded: no statistics, never vacuumed", AS_LOADED_REQUESTS);
    await withDatabase(async (sql) => {
      const t0 = performance.now();
      // What autovacuum does to a loaded table (and the embedded database's daily job): the
      // statistics, and the visibility map that lets the counts read the index alone.
      await sql`VACUUM (ANALYZE) people`;
      await sql`VACUUM (ANALYZE) person_emails`;
      await sql`ANALYZE`;
      console.log(`\nVACUUM (ANALYZE): ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    });
  }
  await benchHttp(stats ? "with statistics" : "after VACUUM (ANALYZE)", REQUESTS);
} finally {
  if (dataDir) await Deno.remove(dataDir, { recursive: true }).catch(() => {});
}
