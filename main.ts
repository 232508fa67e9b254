/**
 * Composition root: config → stores → model → ports → app → Deno.serve, and a graceful stop.
 * Nothing here runs on import except under `deno task start`.
 */
import { loadConfig } from "./domain/config/config.ts";
import { buildContext } from "./domain/build_context.ts";
import { buildPorts } from "./domain/build_ports.ts";
import { openDatabase } from "./domain/stores/database.ts";
import { migrate } from "./domain/stores/migrate.ts";
import { openKv } from "./domain/stores/kv.ts";
import { loadOrCreateSecret } from "./domain/stores/server_secret.ts";
import { systemClock } from "./domain/shared/clock.ts";
import { jsonLogger, type Logger } from "./domain/shared/logger.ts";
import { ensureBootstrapWorkspace } from "./domain/workspaces/ensure_bootstrap_workspace.ts";
import { loadServiceNameModel } from "./load_service_name_model.ts";
import { createApp } from "./routes/app.ts";
import { scheduleIdempotencySweeper } from "./workers/idempotency_sweeper.ts";
import { scheduleEmbeddedDatabaseMaintenance } from "./workers/embedded_database_maintenance.ts";
import {
  type LeadSearchRunner,
  scheduleLeaseSweeper,
  startLeadSearchRunner,
  startLeadSearchWorker,
} from "./workers/lead_search_runner.ts";

export async function startService(
  env: Record<string, string | undefined>,
  logger: Logger,
  options: { workers?: boolean; leadSearchRunner?: boolean } = {},
) {
  const config = loadConfig(env);
  const db = await openDatabase({ url: config.databaseUrl, pgliteDir: `${config.dataDir}/pglite` });
  const applied = await migrate(db.sql);
  logger.info("database ready", {
    kind: db.kind,
    location: db.location,
    migrationsApplied: applied.length,
  });
  const kv = await openKv(config.kvPath);
  const secret = config.secret ?? await loadOrCreateSecret(config.dataDir);
  const nameModel = await loadServiceNameModel(config.modelPath, logger);
  if (config.bootstrap) {
    const result = await ensureBootstrapWorkspace(db.sql, {
      apiKey: config.bootstrap.key,
      points: config.bootstrap.points,
    });
    logger.info("bootstrap workspace ready", {
      workspaceId: result.workspaceId,
      created: result.created,
      granted: result.granted,
    });
  }
  const ports = await buildPorts(config, { kv, clock: systemClock });
  logger.info("lookups ready", {
    verifier: config.remoteVerifier ? "remote" : "smtp",
    companyResolver: config.companyResolver.kind,
  });
  const ctx = buildContext({
    config,
    db,
    kv,
    clock: systemClock,
    logger,
    secret,
    nameModel,
    ports,
    settings: { verifiedEmailMaxAgeDays: config.verify.verifiedEmailMaxAgeDays },
  });
  const app = createApp(ctx, { logRequests: config.logRequests });
  if (options.workers ?? true) {
    scheduleIdempotencySweeper(ctx);
    scheduleEmbeddedDatabaseMaintenance(ctx);
    scheduleLeaseSweeper(ctx);
  }
  // The runner follows `workers` unless asked for on its own (tests start it explicitly).
  let leadSearchRunner: LeadSearchRunner | null = null;
  if ((options.leadSearchRunner ?? options.workers ?? true) && config.leadSearch.runner !== "off") {
    leadSearchRunner = config.leadSearch.runner === "worker"
      ? startLeadSearchWorker({ database: db.target, ...config.leadSearch })
      : startLeadSearchRunner(ctx, config.leadSearch);
    logger.info("lead-search runner started", { runner: config.leadSearch.runner });
  }
  const server = Deno.serve({
    port: config.port,
    hostname: config.hostname,
    onListen: ({ hostname, port }) => logger.info("listening", { hostname, port }),
  }, app.fetch);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    stopping ??= (async () => {
      logger.info("stopping");
      // The runner finishes its page and hands its run back before the database closes.
      await leadSearchRunner?.stop();
      await server.shutdown();
      await db.close();
      kv.close();
    })();
  return { server, stop, ctx };
}

if (import.meta.main) {
  const logger = jsonLogger();
  try {
    const service = await startService(Deno.env.toObject(), logger);
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      Deno.addSignalListener(signal, () => service.stop().then(() => Deno.exit(0)));
    }
  } catch (error) {
    logger.error("failed to start", { error: (error as Error).message });
    Deno.exit(1);
  }
}
