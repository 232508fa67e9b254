/**
 * Composition root: config → stores → model → ports → app → HTTP server, and a graceful stop.
 *
 * `deno run -A main.ts` starts the service with no other flag (deno.json enables the unstable
 * KV, cron and raw-import APIs), as Deno Deploy runs it. Run as the main module, this file
 * registers the cron jobs during its top-level evaluation, before anything is served (Deploy
 * finds crons there); their handlers use the service once `startService` has built it. Every
 * file the service reads (migrations, model weights, assets) is found relative to its module.
 * Nothing here runs on import.
 */
import { detectDeployment, loadConfig } from "./domain/config/config.ts";
import { buildContext } from "./domain/build_context.ts";
import { buildPorts } from "./domain/build_ports.ts";
import { logRemoteVerifierCheck } from "./domain/verify/mod.ts";
import { openDatabase } from "./domain/stores/database.ts";
import { migrate } from "./domain/stores/migrate.ts";
import { openKv } from "./domain/stores/kv.ts";
import { loadOrCreateSecret } from "./domain/stores/server_secret.ts";
import { checkServerSecret } from "./domain/stores/secret_check.ts";
import { systemClock } from "./domain/shared/clock.ts";
import { jsonLogger, type Logger } from "./domain/shared/logger.ts";
import { ensureBootstrapWorkspace } from "./domain/workspaces/ensure_bootstrap_workspace.ts";
import { loadServiceNameModel } from "./server/load_service_name_model.ts";
import { createApp, MAX_BODY_BYTES } from "./routes/app.ts";
import { serveHttp } from "./server/http_server.ts";
import { createReadiness } from "./domain/health/readiness.ts";
import { countActiveRuns } from "./domain/lead_search/count_active_runs.ts";
import { countActiveJobs } from "./domain/bulk/count_active_jobs.ts";
import { createPrometheusTelemetry } from "./domain/observability/prometheus_telemetry.ts";
import { combineTelemetry, type Telemetry } from "./domain/observability/telemetry.ts";
import { createTraceTelemetry } from "./domain/observability/trace_telemetry.ts";
import { startTracing, type Tracing } from "./domain/observability/tracing.ts";
import { findLaunchers, type Launcher, stopOnSignals } from "./server/process_lifecycle.ts";
import { type CronJobs, registerCronJobs } from "./workers/cron_job.ts";
import { startBulkJobRunner } from "./workers/bulk_job_runner.ts";
import { startWebhookDispatcher, WEBHOOK_CRON_JOB } from "./workers/webhook_dispatcher.ts";
import { sealWebhookSecrets } from "./domain/webhooks/seal_webhook_secrets.ts";
import { IDEMPOTENCY_SWEEP_JOB } from "./workers/idempotency_sweeper.ts";
import { BULK_RESULTS_SWEEP_JOB } from "./workers/bulk_results_sweeper.ts";
import { EMBEDDED_DATABASE_MAINTENANCE_JOB } from "./workers/embedded_database_maintenance.ts";
import {
  LEAD_SEARCH_CRON_JOB,
  type LeadSearchRunner,
  startLeadSearchRunner,
  startLeadSearchWorker,
} from "./workers/lead_search_runner.ts";

/** Every background job of the service, on Deno.cron. */
export const SERVICE_CRON_JOBS = [
  IDEMPOTENCY_SWEEP_JOB,
  BULK_RESULTS_SWEEP_JOB,
  LEAD_SEARCH_CRON_JOB,
  EMBEDDED_DATABASE_MAINTENANCE_JOB,
  WEBHOOK_CRON_JOB,
] as const;

export interface StartServiceOptions {
  /** Background work: the cron jobs and the lead-search runner (default true). */
  workers?: boolean;
  /** The lead-search runner on its own (tests start it explicitly); follows `workers` by default. */
  leadSearchRunner?: boolean;
  /**
   * Cron jobs registered already (main.ts, at the top level); otherwise, with `workers`, they
   * are registered here.
   */
  cronJobs?: CronJobs;
}

export async function startService(
  env: Record<string, string | undefined>,
  logger: Logger,
  options: StartServiceOptions = {},
) {
  const config = loadConfig(env);
  if (config.deployment) {
    logger.info("running on Deno Deploy", { deploymentId: config.deployment.id });
  }
  // `/readyz` answers 503 until the server is up and again from the moment it stops.
  const readiness = createReadiness();
  const tracing: Tracing | null = config.observability.tracing
    ? startTracing(env, config.observability.tracingProtocol)
    : null;
  // A port in use or an address not on this host is told before any store opens.
  if (!config.deployment && config.port !== 0) checkListenAddress(config);
  // The server owns the embedded database: another server on this DATA_DIR is refused at once.
  const db = await openDatabase({
    url: config.databaseUrl,
    pgliteDir: `${config.dataDir}/pglite`,
    role: "server",
  });
  const applied = await migrate(db.sql);
  logger.info("database ready", {
    kind: db.kind,
    location: db.location,
    migrationsApplied: applied.length,
  });
  const kv = await openKv(config.kvPath);
  logger.info("kv ready", {
    kind: config.kvPath === null
      ? "platform"
      : /^https?:\/\//.test(config.kvPath)
      ? "kv-connect"
      : config.kvPath === ":memory:"
      ? "memory"
      : "file",
  });
  const secret = config.secret ?? await loadOrCreateSecret(config.dataDir);
  // Instances on one database must share the secret: refuse to start on a different one.
  const secretCheck = await checkServerSecret(
    db.sql,
    secret,
    config.secret ? { kind: "env" } : { kind: "file", path: `${config.dataDir}/secret` },
  );
  logger.info("server secret checked", {
    source: config.secret ? "SVC_SECRET" : "DATA_DIR/secret",
    verifier: secretCheck,
  });
  const nameModel = await loadServiceNameModel(config.modelPath, logger);
  if (config.bootstrap) {
    const result = await ensureBootstrapWorkspace({ db }, {
      apiKey: config.bootstrap.key,
      points: config.bootstrap.points,
    });
    logger.info("bootstrap workspace ready", {
      workspaceId: result.workspaceId,
      created: result.created,
      granted: result.granted,
    });
    if (result.revokedKeyIds.length > 0) {
      // Ids only: no key material in the log.
      logger.warn("previous bootstrap key revoked", {
        workspaceId: result.workspaceId,
        keyIds: result.revokedKeyIds.join(","),
      });
    }
  }
  const { metricsToken, workspaceLabels } = config.observability;
  const metrics = metricsToken
    ? createPrometheusTelemetry({
      workspaceLabels,
      countRuns: () => countActiveRuns({ db }),
      countJobs: () => countActiveJobs({ db }),
    })
    : null;
  // Spans cost a no-op call each without a provider; on Deno Deploy its own provider takes them.
  const telemetry: Telemetry = combineTelemetry([
    ...(metrics ? [metrics] : []),
    ...(tracing || config.deployment ? [createTraceTelemetry()] : []),
  ]);
  logger.info("observability", {
    metrics: metrics ? "on" : "off",
    workspaceLabels: metrics ? workspaceLabels : undefined,
    tracing: tracing ? "otlp" : config.deployment ? "deno-deploy" : "off",
  });
  const ports = await buildPorts(config, {
    kv,
    clock: systemClock,
    logger,
    telemetry,
    secret,
    // Instances share a server Postgres: the per-host session limit is leased there. PGlite is
    // one process (DATA_DIR is locked): its own limit is the fleet's.
    sql: db.kind === "postgres" ? db.sql : undefined,
  });
  if (config.remoteVerifier) {
    // Not awaited: the verifier may start after the service; the check only warns.
    logRemoteVerifierCheck(config.remoteVerifier, logger).catch(() => {});
  }
  logger.info("lookups ready", {
    verifier: config.remoteVerifier ? "remote" : "smtp",
    smtpConnectTimeoutMs: config.remoteVerifier ? undefined : config.verify.connectTimeoutMs,
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
    telemetry,
    settings: {
      verifiedEmailMaxAgeDays: config.verify.verifiedEmailMaxAgeDays,
      network: config.network,
      enrichMaxAgeDays: config.enrichMaxAgeDays,
      bulkResultsRetentionDays: config.bulkResultsRetentionDays,
      webhooks: config.webhooks,
      verifyCacheSeconds: config.verify.cacheSeconds,
      privacy: {
        publicUrl: config.privacy.publicUrl,
        contact: config.privacy.contact,
        linkHours: config.privacy.linkHours,
      },
    },
  });
  // Endpoints an older instance registered hold their signing secret as is: sealed here.
  const webhookSecretsSealed = await sealWebhookSecrets(ctx);
  if (webhookSecretsSealed > 0) {
    logger.info("webhook secrets sealed", { endpoints: webhookSecretsSealed });
  }
  const app = createApp(ctx, {
    logRequests: config.logRequests,
    metrics: metrics && metricsToken ? { token: metricsToken, metrics } : undefined,
    tracing: tracing !== null || config.deployment !== null,
    readiness,
  });
  const workers = options.workers ?? true;
  const cronJobs = options.cronJobs ??
    (workers ? registerCronJobs(logger, SERVICE_CRON_JOBS) : null);
  cronJobs?.attach({ ctx, leadSearch: config.leadSearch });
  // The runner follows `workers` unless asked for on its own (tests start it explicitly).
  let leadSearchRunner: LeadSearchRunner | null = null;
  if ((options.leadSearchRunner ?? workers) && config.leadSearch.runner !== "off") {
    leadSearchRunner = config.leadSearch.runner === "worker"
      ? startLeadSearchWorker({
        database: db.target,
        pollMs: config.leadSearch.pollMs,
        leaseMs: config.leadSearch.leaseMs,
        pageDelayMs: config.leadSearch.pageDelayMs,
      })
      : startLeadSearchRunner(ctx, config.leadSearch);
    logger.info("lead-search runner started", {
      runner: config.leadSearch.runner,
      drivenFromCron: config.leadSearch.driveFromCron,
    });
  }
  // Bulk jobs and webhooks follow the lead-search runner's switch (tests start them explicitly).
  const mainThreadLoops =
    (options.leadSearchRunner ?? workers) && config.leadSearch.runner !== "off"
      ? [
        startBulkJobRunner(ctx, {
          pollMs: config.leadSearch.pollMs,
          leaseMs: config.bulkLeaseMs,
          pageDelayMs: config.bulkPageDelayMs,
          greylistMaxWaitMs: config.bulkGreylistMaxWaitMs,
        }),
        startWebhookDispatcher(ctx),
      ]
      : [];
  const stopLoops = () => Promise.all(mainThreadLoops.map((loop) => loop.stop()));
  let server: ReturnType<typeof serveHttp>;
  try {
    server = serveHttp({
      port: config.port,
      hostname: config.hostname,
      idleTimeoutMs: config.idleTimeoutMs,
      // On Deno Deploy the platform's proxy holds the client connections and may give Deno.serve
      // its listening address: serve exactly as Deno.serve does there.
      plain: config.deployment !== null,
      maxBufferedBodyBytes: MAX_BODY_BYTES,
      onListen: ({ hostname, port }) => logger.info("listening", { hostname, port }),
    }, app.fetch);
  } catch (error) {
    await Promise.all([leadSearchRunner?.stop(), cronJobs?.detach(), stopLoops()]);
    await db.close();
    kv.close();
    await tracing?.shutdown();
    throw listenError(config, error);
  }
  readiness.ready();
  logger.info("http server ready", {
    mode: server.mode,
    idleTimeoutMs: server.mode === "connections" ? config.idleTimeoutMs : null,
  });

  let stopping: Promise<void> | undefined;
  const stop = () =>
    stopping ??= (async () => {
      readiness.stopping();
      if (config.shutdownDrainMs > 0) {
        // `/readyz` now answers 503 while everything is still served: a load balancer that polls
        // it stops sending new requests before the port closes (docs/deployment.md).
        logger.info("draining", { drainMs: config.shutdownDrainMs });
        await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
      }
      logger.info("stopping");
      // Requests in progress finish (for up to STOP_GRACE_SECONDS) while the runner finishes
      // its page and hands its run back and running cron jobs stop; then the stores close.
      await Promise.all([
        server.shutdown(config.stopGraceMs),
        leadSearchRunner?.stop(),
        cronJobs?.detach(),
        stopLoops(),
      ]);
      await db.close();
      kv.close();
      await tracing?.shutdown();
      logger.info("stopped");
    })();
  return { server, stop, ctx, config, app, readiness };
}

if (import.meta.main) {
  const logger = jsonLogger();
  // Registered now, during the module's evaluation and before the server starts.
  const cronJobs = registerCronJobs(logger, SERVICE_CRON_JOBS);
  // The launchers above this process (`npx`, `deno task`), seen before anything is served: a
  // signal to one of them during start-up is then noticed too (process_lifecycle.ts).
  const launchers: Launcher[] = Deno.build.os === "linux" && !detectDeployment(Deno.env.toObject())
    ? await findLaunchers()
    : [];
  let service: Awaited<ReturnType<typeof startService>>;
  try {
    service = await startService(Deno.env.toObject(), logger, { cronJobs });
  } catch (error) {
    logger.error("failed to start", { error: (error as Error).message });
    Deno.exit(1);
  }
  releaseStartupGarbage();
  await stopOnSignals(service.stop, logger, {
    // The drain, the grace for requests in progress, and a second for the runner, the pool and KV.
    deadlineMs: service.config.shutdownDrainMs + service.config.stopGraceMs + 1_000,
    watchLauncher: service.config.deployment === null,
    launchers,
  });
}

/** Binds `HOST`:`PORT` once and lets go: the error names both variables. */
function checkListenAddress(config: { hostname: string; port: number }): void {
  try {
    Deno.listen({ hostname: config.hostname, port: config.port }).close();
  } catch (error) {
    throw listenError(config, error);
  }
}

function listenError(config: { hostname: string; port: number }, error: unknown): Error {
  const cause = String((error as Error)?.message ?? error).split("\n")[0];
  return new Error(
    `cannot listen on HOST=${config.hostname} PORT=${config.port}: ${cause}` +
      (error instanceof Deno.errors.AddrInUse ? " (the port is in use: set PORT)" : ""),
  );
}

/**
 * One full garbage collection once the service is up, when `deno task start` exposed it
 * (`--expose-gc`): start-up leaves tens of MB of garbage (the database template unpacked, the
 * model's weights read and repacked, migrations) that V8 would otherwise keep resident until its
 * old generation next fills up (resident memory idle: docs/benchmarks.md, Memory).
 */
function releaseStartupGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
}
