/**
 * Test harness: a fresh database per call (a new database on the Postgres named by
 * TEST_DATABASE_URL, or an in-memory PGlite when it is unset), a KV, a fake clock and a captured log,
 * wired through the same buildContext/createApp as main.ts.
 */
import { createThrowawayDatabase } from "./throwaway_database.ts";
import assert from "node:assert/strict";
import {
  type Config,
  DEFAULT_PRICES,
  DEFAULT_RATE_LIMITS,
  loadConfig,
} from "../domain/config/config.ts";
import { buildPorts } from "../domain/build_ports.ts";
import { buildContext } from "../domain/build_context.ts";
import type { DomainContext, Ports, PrivacySettings } from "../domain/context.ts";
import { type Database, openDatabase } from "../domain/stores/database.ts";
import { migrate } from "../domain/stores/migrate.ts";
import { openKv } from "../domain/stores/kv.ts";
import { FakeClock } from "../domain/shared/clock.ts";
import { memoryLogger } from "../domain/shared/logger.ts";
import { DEFAULT_PROFILE_NETWORK, type ProfileNetwork } from "../domain/shared/profile_network.ts";
import { createWorkspace } from "../domain/workspaces/create_workspace.ts";
import { type AppOptions, createApp } from "../routes/app.ts";
import type { Telemetry } from "../domain/observability/telemetry.ts";
import type { NameModel } from "../model/types.ts";
import type { WebhookSettings } from "../domain/webhooks/webhook_settings.ts";

/** Ports for tests that reach no outside service: each answers that it is unavailable. */
export const OFFLINE_PORTS: Ports = {
  verifier: {
    verify: () =>
      Promise.resolve({ kind: "unavailable", why: "hosts-down", evidence: null } as const),
  },
  companyResolver: {
    resolve: () => Promise.resolve({ kind: "unavailable", message: "offline" } as const),
  },
  webSearch: null,
  reverseLookups: [],
};

/** Budgets no test run reaches: for tests that send many requests and are not about limits. */
export const UNLIMITED_RATE_LIMITS = Object.fromEntries(
  Object.keys(DEFAULT_RATE_LIMITS).map((budget) => [budget, { limit: 100_000, windowSeconds: 60 }]),
) as typeof DEFAULT_RATE_LIMITS;

export const TEST_SECRET = "test-secret-0123456789abcdef0123456789abcdef";

/** A throwaway database; `drop()` removes it (Postgres) or closes it (PGlite). */
export async function openTestDatabase(): Promise<
  Database & { url: string | null; drop(): Promise<void> }
> {
  const baseUrl = Deno.env.get("TEST_DATABASE_URL");
  if (!baseUrl) {
    const db = await openDatabase({ url: null, pgliteDir: "memory://" });
    return Object.assign(db, { url: null, drop: () => db.close() });
  }
  // TEST_DATABASE_PREFIX: where several checkouts share one Postgres, each its own names.
  const throwaway = await createThrowawayDatabase(
    baseUrl,
    Deno.env.get("TEST_DATABASE_PREFIX") ?? "svc_test_",
  );
  const db = await openDatabase({ url: throwaway.url });
  return Object.assign(db, {
    url: throwaway.url,
    drop: async () => {
      await db.close();
      await throwaway.drop();
    },
  });
}

export interface TestEnvOptions {
  config?: Partial<
    Pick<Config, "prices" | "rateLimits" | "authCacheSeconds" | "searchCacheSeconds">
  >;
  /** Share a database (e.g. two app instances); otherwise a fresh one is made. */
  db?: Database;
  kvPath?: string;
  clock?: FakeClock;
  nameModel?: NameModel | null;
  app?: AppOptions;
  /** Outside services; by default every one answers that it is unavailable (no network). */
  ports?: Partial<Ports>;
  verifiedEmailMaxAgeDays?: number;
  /** The profile network (default: the service's default, the real one). */
  network?: ProfileNetwork;
  enrichMaxAgeDays?: number;
  /** Days a bulk job's rows are kept after it ends (default 30, as the service's). */
  bulkResultsRetentionDays?: number;
  webhooks?: WebhookSettings;
  /** Seconds a verify verdict is answered from KV (default 3600, the service's default). */
  verifyCacheSeconds?: number;
  /** The public opt-out page's settings (none by default: no link can be made). */
  privacy?: PrivacySettings;
  /** Where the work is reported (metrics tests); none by default. */
  telemetry?: Telemetry;
}

export interface TestEnv {
  ctx: DomainContext;
  app: ReturnType<typeof createApp>;
  db: Database;
  kv: Deno.Kv;
  clock: FakeClock;
  logLines: string[];
  close(): Promise<void>;
}

export async function createTestEnv(options: TestEnvOptions = {}): Promise<TestEnv> {
  const ownDb = options.db ? null : await openTestDatabase();
  const db = options.db ?? ownDb!;
  await migrate(db.sql);
  const kv = await openKv(options.kvPath ?? ":memory:");
  const clock = options.clock ?? new FakeClock(Date.now());
  const logger = memoryLogger();
  const ctx = buildContext({
    config: {
      prices: options.config?.prices ?? DEFAULT_PRICES,
      rateLimits: options.config?.rateLimits ?? DEFAULT_RATE_LIMITS,
      authCacheSeconds: options.config?.authCacheSeconds ?? 0,
      searchCacheSeconds: options.config?.searchCacheSeconds ?? 3600,
    },
    db,
    kv,
    clock,
    logger,
    secret: TEST_SECRET,
    nameModel: options.nameModel ?? null,
    ports: { ...OFFLINE_PORTS, ...options.ports },
    telemetry: options.telemetry,
    settings: {
      verifiedEmailMaxAgeDays: options.verifiedEmailMaxAgeDays ?? 90,
      network: options.network ?? DEFAULT_PROFILE_NETWORK,
      enrichMaxAgeDays: options.enrichMaxAgeDays ?? 30,
      bulkResultsRetentionDays: options.bulkResultsRetentionDays ?? 30,
      webhooks: options.webhooks,
      verifyCacheSeconds: options.verifyCacheSeconds ?? 3600,
      privacy: options.privacy,
    },
  });
  const app = createApp(ctx, options.app);
  return {
    ctx,
    app,
    db,
    kv,
    clock,
    logLines: logger.lines,
    close: async () => {
      kv.close();
      await ownDb?.drop();
    },
  };
}

/**
 * The app as main.ts builds it from environment variables: the real adapters of `buildPorts`
 * (pointed at fakes by the variables), the profile network and the enrich and find settings of
 * the loaded configuration; `options` as for `createTestEnv`.
 */
export async function createConfiguredTestEnv(
  vars: Record<string, string>,
  options: TestEnvOptions = {},
): Promise<TestEnv & { config: Config }> {
  const config = loadConfig(vars);
  const clock = options.clock ?? new FakeClock(Date.now());
  const portsKv = await openKv(":memory:");
  const ports = await buildPorts(config, { kv: portsKv, clock });
  const env = await createTestEnv({
    network: config.network,
    enrichMaxAgeDays: config.enrichMaxAgeDays,
    bulkResultsRetentionDays: config.bulkResultsRetentionDays,
    verifiedEmailMaxAgeDays: config.verify.verifiedEmailMaxAgeDays,
    verifyCacheSeconds: config.verify.cacheSeconds,
    privacy: {
      publicUrl: config.privacy.publicUrl,
      contact: config.privacy.contact,
      linkHours: config.privacy.linkHours,
    },
    ...options,
    clock,
    ports: { ...ports, ...options.ports },
  });
  return {
    ...env,
    config,
    close: async () => {
      await env.close();
      portsKv.close();
    },
  };
}

export async function createTestWorkspace(
  env: { db: Database },
  points = 1000,
  name = `ws-${crypto.randomUUID().slice(0, 8)}`,
) {
  return await createWorkspace(env, { name, points });
}

export function bearer(apiKey: string, extra: Record<string, string> = {}): HeadersInit {
  return { Authorization: `Bearer ${apiKey}`, ...extra };
}

/**
 * A caller of one lookup route (find, network search, enrich) as a client posts to it: JSON body,
 * an optional Idempotency-Key; answers the status, `data`, `error` and the raw text.
 */
export function lookupCaller(env: { app: TestEnv["app"] }, apiKey: string, path: string) {
  return async (body: unknown, key?: string) => {
    const res = await env.app.request(path, {
      method: "POST",
      headers: bearer(apiKey, {
        "Content-Type": "application/json",
        ...(key ? { "Idempotency-Key": key } : {}),
      }),
      body: JSON.stringify(body),
    });
    const text = await res.text();
    const json = JSON.parse(text);
    // The request id is checked here once; suites compare the rest of the error whole.
    const error: typeof json.error = json.error ? withoutRequestId(json).error : undefined;
    return { status: res.status, data: json.data, error, text };
  };
}

/** Deno.test options for tests holding databases, sockets and KV across awaits. */
export const DB_TEST = { sanitizeOps: false, sanitizeResources: false } as const;

/** How many billable units the ledger's charge postings of a workspace pay for. */
export async function countCharges(env: { db: Database }, workspaceId: string): Promise<number> {
  const [row] = await env.db.sql<{ n: number }[]>`
    SELECT coalesce(sum(units), 0)::int AS n FROM ledger_entries
     WHERE workspace_id = ${workspaceId} AND kind = 'charge'`;
  return row.n;
}

/**
 * The real service (main.ts) on a temp DATA_DIR, on port 0, with its own database when
 * TEST_DATABASE_URL is set. `stop()` also removes what it made.
 */
export async function startTestService(
  logger: import("../domain/shared/logger.ts").Logger,
  extraEnv: Record<string, string> = {},
) {
  const { startService } = await import("../main.ts");
  const dataDir = await Deno.makeTempDir();
  const pg = Deno.env.get("TEST_DATABASE_URL") ? await openTestDatabase() : null;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    ...extraEnv,
  };
  if (pg?.url) env.DATABASE_URL = pg.url;
  const service = await startService(env, logger, { workers: false });
  return {
    service,
    env,
    dataDir,
    usesPostgres: pg !== null,
    base: `http://127.0.0.1:${service.server.addr.port}`,
    /** Stops the service; `keepDataDir` leaves DATA_DIR for inspection (call `cleanup` after). */
    stop: async (options: { keepDataDir?: boolean } = {}) => {
      await service.stop();
      if (!options.keepDataDir) await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    },
    cleanup: async () => {
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
      await pg?.drop();
    },
  };
}

/**
 * An error envelope without its `requestId`, once checked to be there: for comparing the rest
 * whole. The id itself is asserted where requests ids are tested.
 */
export function withoutRequestId(body: { error: Record<string, unknown> }) {
  const { requestId, ...error } = body.error;
  assert.equal(typeof requestId, "string", "error bodies carry the request id");
  return { ...body, error };
}
