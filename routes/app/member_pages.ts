import type { MiddlewareHandler } from "hono";
import { every } from "hono/combine";
import type { DomainContext } from "../../domain/context.ts";
import { requireCsrf, requireMember } from "./require_member.tsx";
import type { WebEnv } from "./web_env.ts";

/**
 * The middleware of every signed-in page: a live session (else a redirect to sign-in), and on
 * POST the session's CSRF token. `web.get("/x", memberPage(ctx), handler)`.
 */
export function memberPage(ctx: DomainContext): MiddlewareHandler<WebEnv> {
  return every(requireMember(ctx), requireCsrf());
}
