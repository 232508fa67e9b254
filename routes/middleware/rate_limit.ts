import type { MiddlewareHandler } from "hono";
import type { RateLimitBudget } from "../../domain/config/config.ts";
import { ServiceError } from "../../domain/errors.ts";
import type { RateLimiter } from "../../domain/rate_limit/rate_limiter.ts";
import type { Telemetry } from "../../domain/observability/telemetry.ts";
import type { AppEnv } from "../app_env.ts";

export const RATE_LIMITED_MESSAGE = "Rate limit exceeded";

/**
 * Counts the request against its workspace's budget. Every answer carries the IETF draft
 * `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` and `RateLimit-Policy` headers;
 * a spent budget answers 429 `rate_limited` with `Retry-After`, before any billable work.
 */
export function rateLimit(
  limiter: RateLimiter,
  budget: RateLimitBudget,
  telemetry: Telemetry,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const decision = await limiter(budget, c.get("auth").workspaceId);
    const headers = {
      "RateLimit-Limit": String(decision.limit),
      "RateLimit-Remaining": String(decision.remaining),
      "RateLimit-Reset": String(decision.resetSeconds),
      "RateLimit-Policy": `${decision.limit};w=${decision.windowSeconds}`,
    };
    if (!decision.allowed) {
      telemetry.count({ kind: "rate_limited", budget, workspaceId: c.get("auth").workspaceId });
      throw new ServiceError("rate_limited", RATE_LIMITED_MESSAGE, {
        retryAfterSeconds: decision.resetSeconds,
        headers: { ...headers, "Retry-After": String(decision.resetSeconds) },
      });
    }
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };
}
