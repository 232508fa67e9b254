/**
 * The remote verifier (`deno task verifier`): the DNS + SMTP verification engine behind
 * `POST /verify`, for a host whose outbound port 25 is open, asked by services that cannot
 * reach port 25 themselves (`VERIFIER_URL` + `VERIFIER_SECRET` on their side).
 *
 * Environment: `VERIFIER_SECRET` (required: the bearer secret callers send), `VERIFIER_PORT`
 * (default 8788), `HOST`, `KV_PATH`/`DATA_DIR` (the engine's MX and catch-all cache) and every
 * `VERIFY_*` setting of the engine. `VERIFIER_URL` is ignored here (it configures callers).
 * One JSON log line per request: method, path, status, duration; never a body or an address.
 */
import { loadVerifierServerConfig } from "./domain/config/config.ts";
import { createVerifierHandler } from "./domain/verify/mod.ts";
import { createLocalVerifier } from "./domain/build_ports.ts";
import { openKv } from "./domain/stores/kv.ts";
import { jsonLogger, type Logger } from "./domain/shared/logger.ts";

const KNOWN_PATHS = new Set(["/verify", "/healthz"]);

export async function startVerifier(env: Record<string, string | undefined>, logger: Logger) {
  const { port, secret, config } = loadVerifierServerConfig(env);
  const kv = await openKv(config.kvPath);
  // The same engine as the service's own (DNS client choice, connect timeout, CA file).
  // The probe address derives from the verifier's own secret: stable across calls, not guessable.
  const verifier = await createLocalVerifier(config.verify, { kv, logger, secret });
  const handle = createVerifierHandler({ verifier, secret });

  const server = Deno.serve({
    port,
    hostname: config.hostname,
    onListen: ({ hostname, port }) => logger.info("verifier listening", { hostname, port }),
  }, async (req) => {
    const started = performance.now();
    let status = 500;
    try {
      const response = await handle(req);
      status = response.status;
      return response;
    } catch (error) {
      logger.error("verifier request failed", { kind: (error as Error)?.name ?? "unknown" });
      return new Response(
        JSON.stringify({ error: { code: "internal_error", message: "Verification failed" } }),
        { status: 500, headers: { "Content-Type": "application/json" } },
      );
    } finally {
      const path = new URL(req.url).pathname;
      logger.info("request", {
        method: req.method,
        // Only known paths: an unknown one could carry anything, an address included.
        path: KNOWN_PATHS.has(path) ? path : "(other)",
        status,
        durationMs: Math.round(performance.now() - started),
      });
    }
  });

  let stopping: Promise<void> | undefined;
  const stop = () =>
    stopping ??= (async () => {
      logger.info("verifier stopping");
      await server.shutdown();
      kv.close();
    })();
  return { server, stop };
}

if (import.meta.main) {
  const logger = jsonLogger();
  try {
    const verifier = await startVerifier(Deno.env.toObject(), logger);
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      Deno.addSignalListener(signal, () => verifier.stop().then(() => Deno.exit(0)));
    }
  } catch (error) {
    logger.error("verifier failed to start", { error: (error as Error).message });
    Deno.exit(1);
  }
}
