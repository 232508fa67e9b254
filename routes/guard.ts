import type { MiddlewareHandler } from "hono";
import type { RateLimitBudget } from "../domain/config/config.ts";
import type { DomainContext } from "../domain/context.ts";
import type { AppEnv } from "./app_env.ts";
import { rateLimit } from "./middleware/rate_limit.ts";
import { requireApiKey } from "./middleware/require_api_key.ts";

/** The middleware of every keyed operation: the key first, then its rate-limit budget. */
export function keyedAndLimited(
  ctx: DomainContext,
  budget: RateLimitBudget,
): MiddlewareHandler<AppEnv>[] {
  return [requireApiKey(ctx.authenticate), rateLimit(ctx.rateLimiter, budget, ctx.telemetry)];
}
