import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { Logger } from "../../domain/shared/logger.ts";
import type { AppEnv } from "../app_env.ts";

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * Gives every request an id (a caller's well-formed `X-Request-Id` is kept), echoes it on the
 * response, and writes one structured log line per request: method, route pattern, status,
 * duration, workspace and request id. Never a body, a name, an email or a key.
 */
export function requestContext(
  logger: Logger,
  options: { log: boolean },
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    c.set("requestId", requestId);
    try {
      await next();
    } finally {
      c.res.headers.set("X-Request-Id", requestId);
      if (options.log) {
        const route = routePath(c, -1);
        logger.info("request", {
          requestId,
          method: c.req.method,
          route: route === "*" || route === "/*" ? "(unmatched)" : route,
          status: c.res.status,
          durationMs: Math.round((performance.now() - started) * 100) / 100,
          workspaceId: c.get("auth")?.workspaceId ?? null,
        });
      }
    }
  };
}
