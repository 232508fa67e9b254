/** Shared pieces of the HTTP benchmarks: a bare Hono baseline, a running service, the load runner. */
import { Hono } from "hono";
import { startService } from "../main.ts";
import { silentLogger } from "../domain/shared/logger.ts";
import { createWorkspace } from "../domain/workspaces/create_workspace.ts";

export const BENCH_SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? 5);
export const BENCH_CONCURRENCY = Number(Deno.env.get("BENCH_CONCURRENCY") ?? 32);

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  statuses: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
}

export async function runLoad(
  url: string,
  options: { headers?: Record<string, string>; method?: string; body?: string } = {},
): Promise<LoadResult> {
  const args = [
    "run",
    "-A",
    new URL("./load.ts", import.meta.url).pathname,
    url,
    String(BENCH_SECONDS),
    String(BENCH_CONCURRENCY),
    JSON.stringify(options.headers ?? {}),
    options.method ?? "GET",
    ...(options.body ? [options.body] : []),
  ];
  const output = await new Deno.Command(Deno.execPath(), { args, stderr: "inherit" }).output();
  if (!output.success) throw new Error("load generator failed");
  return JSON.parse(new TextDecoder().decode(output.stdout).trim().split("\n").pop()!);
}

/** The baseline: a bare Hono route answering a small JSON object, in this same process. */
export function startBareHono() {
  const app = new Hono();
  app.get("/bare", (c) => c.json({ data: { available: 1, reserved: 0, granted: 1 } }));
  app.post("/bare", (c) => c.json({ data: { given: "Ada", surname: "Lovelace" } }));
  return Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, app.fetch);
}

/** The real service (embedded PGlite under a temp DATA_DIR, or DATABASE_URL), budgets wide open. */
export async function startBenchService(extraEnv: Record<string, string> = {}) {
  const dataDir = await Deno.makeTempDir({ prefix: "svc-bench-" });
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_REQUESTS: "false",
    RATE_LIMIT_ACCOUNT: "1000000000/60",
    RATE_LIMIT_NAME_PARSE: "1000000000/60",
    RATE_LIMIT_NAME_PARSE_BATCH: "1000000000/60",
    ...extraEnv,
  };
  const databaseUrl = Deno.env.get("DATABASE_URL");
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const service = await startService(env, silentLogger, { workers: false });
  const workspace = await createWorkspace(service.ctx, {
    name: `bench-${crypto.randomUUID().slice(0, 8)}`,
    points: 1_000_000_000,
  });
  return {
    url: `http://127.0.0.1:${service.server.addr.port}`,
    apiKey: workspace.apiKey,
    databaseKind: service.ctx.db.kind,
    stop: async () => {
      await service.stop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    },
  };
}

export function printRow(label: string, result: LoadResult, baseline?: LoadResult) {
  const ratio = baseline ? `  ${(100 * result.rps / baseline.rps).toFixed(1)}% of bare` : "";
  console.log(
    `${label.padEnd(34)} ${
      String(result.rps).padStart(7)
    } req/s  p50 ${result.p50Ms} ms  p99 ${result.p99Ms} ms  statuses ${
      JSON.stringify(result.statuses)
    }${ratio}`,
  );
}
