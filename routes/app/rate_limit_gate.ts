/**
 * The app's rate-limit gate: a page action counts against the workspace's budget for the
 * operation, the very budget the API's route counts (the app and the API share each limit). A
 * spent budget sets 429 and `Retry-After` and gives the wait, in words, for the page's message;
 * null when admitted.
 */
import type { Context } from "hono";
import type { RateLimitBudget } from "../../domain/config/config.ts";
import type { DomainContext } from "../../domain/context.ts";
import type { WebEnv } from "./web_env.ts";

export async function rateLimitWait(
  c: Context<WebEnv>,
  ctx: DomainContext,
  budget: RateLimitBudget,
): Promise<string | null> {
  const decision = await ctx.rateLimiter(budget, c.get("member").workspaceId);
  if (decision.allowed) return null;
  c.header("Retry-After", String(decision.resetSeconds));
  c.status(429);
  return waitText(decision.resetSeconds);
}

function waitText(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  return `${Math.ceil(seconds / 60)} minutes`;
}
