/**
 * The service as its own process (started the README's way, `main.ts`), for benchmarks whose fake
 * providers run in the benchmark's process; and a closed-loop client that sends a different body
 * per request. Used by bench:find and bench:lookups.
 */
import { ServiceChild } from "../tests/service_child.ts";
import { createThrowawayDatabase } from "../tests/throwaway_database.ts";
import { BENCH_CONCURRENCY } from "./http_support.ts";

export const BENCH_API_KEY = `svc_sk_${"ab".repeat(24)}`;

/**
 * What `deno task start` (deno.json) sets beside `deno run`: its leading environment assignments
 * (`MALLOC_ARENA_MAX=2`) and its `--v8-flags=…`, so the service under test runs as the README
 * starts it (its memory depends on both).
 */
export function startTaskSettings(): { env: Record<string, string>; args: string[] } {
  const config = JSON.parse(
    Deno.readTextFileSync(new URL("../deno.json", import.meta.url)),
  ) as { tasks: Record<string, string> };
  const words = config.tasks.start.split(/\s+/);
  const env: Record<string, string> = {};
  for (const word of words) {
    const assignment = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(word);
    if (!assignment) break;
    env[assignment[1]] = assignment[2];
  }
  return { env, args: words.filter((word) => word.startsWith("--v8-flags=")) };
}

export async function startServiceProcess(
  env: Record<string, string>,
  options: { freshDatabase?: boolean; port?: number } = {},
) {
  const dataDir = await Deno.makeTempDir({ prefix: "svc-bench-" });
  const port = options.port ?? 18_000 + Math.floor(Math.random() * 2000);
  const startTask = startTaskSettings();
  const serviceEnv: Record<string, string> = {
    ...startTask.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    LOG_REQUESTS: "false",
    SVC_BOOTSTRAP_KEY: BENCH_API_KEY,
    SVC_BOOTSTRAP_POINTS: "1000000000",
    ...env,
  };
  const databaseUrl = Deno.env.get("DATABASE_URL");
  const fresh = databaseUrl && options.freshDatabase
    ? await createThrowawayDatabase(databaseUrl, "bench_")
    : null;
  if (databaseUrl) serviceEnv.DATABASE_URL = fresh?.url ?? databaseUrl;
  const child = new ServiceChild("bench", serviceEnv, {
    clearEnv: false,
    show: Boolean(Deno.env.get("BENCH_DEBUG")),
    command: {
      cmd: Deno.execPath(),
      args: ["run", "-A", "--unstable-kv", "--unstable-cron", ...startTask.args, "main.ts"],
    },
  });
  const base = `http://127.0.0.1:${port}`;
  await child.waitHealthy(base, 30_000);
  return {
    base,
    /** The service process itself (for its resident memory and CPU time). */
    pid: child.pid,
    databaseKind: databaseUrl ? "postgres" : "pglite",
    stop: async () => {
      child.signal("SIGTERM");
      // The service exits within its stop grace; one that does not (seen once, under load, with
      // OTEL_DENO: Deno's exit kept waiting) is ended, so no caller waits on it for ever.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const exited = await Promise.race([
        child.status.then(() => true),
        new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), 30_000)),
      ]);
      clearTimeout(timer);
      if (!exited) child.killGroup();
      await child.status;
      await fresh?.drop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    },
  };
}

export interface LoopResult {
  requests: number;
  seconds: number;
  statuses: Record<string, number>;
  /** What each answer said: `found`, a reason, `cached`, an error code … */
  outcomes: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
}

/**
 * POSTs `next()`'s body to `url` from BENCH_CONCURRENCY loops until `seconds` pass or `next`
 * returns null; `outcomeOf` names each answer.
 */
export async function closedLoop(
  url: string,
  next: () => string | null,
  outcomeOf: (body: { data?: Record<string, unknown>; error?: { code: string } }) => string,
  seconds: number,
  concurrency = BENCH_CONCURRENCY,
): Promise<LoopResult> {
  const statuses: Record<string, number> = {};
  const outcomes: Record<string, number> = {};
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < deadline) {
      const body = next();
      if (body === null) return;
      const t0 = performance.now();
      const res = await fetch(url, {
        method: "POST",
        headers: { Authorization: `Bearer ${BENCH_API_KEY}`, "Content-Type": "application/json" },
        body,
        signal: AbortSignal.timeout(60_000),
      });
      const answer = await res.json();
      latencies.push(performance.now() - t0);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      const outcome = outcomeOf(answer);
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
  }));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round((latencies[Math.floor(q * (latencies.length - 1))] ?? 0) * 100) / 100;
  return {
    requests: latencies.length,
    seconds: Math.round(elapsed * 100) / 100,
    statuses,
    outcomes,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
  };
}

export function perSecond(result: LoopResult): number {
  return Math.round(result.requests / Math.max(0.001, result.seconds));
}
