import type { OpenAPIHono } from "@hono/zod-openapi";
import type { DomainContext } from "../../domain/context.ts";
import { enrichEmail } from "../../domain/enrich/enrich_email.ts";
import type { AppEnv } from "../app_env.ts";
import { billedRoute } from "../billed_route.ts";
import { EnrichAnswerSchema, EnrichBodySchema } from "./enrich_email_schemas.ts";

export function mountEnrichEmail(app: OpenAPIHono<AppEnv>, ctx: DomainContext): void {
  const route = billedRoute(ctx, {
    path: "/api/v1/enrich/email",
    operationId: "enrichEmail",
    tags: ["Lookups"],
    summary: "Turn an email address into a contact profile",
    description:
      "Every source, in this order: the service's own records; then Gravatar and GitHub; then, when these state a profile or a name at a company, the professional-network cross-reference. Each field comes from the first source that stated it; `sources` says which source stated which field, and when. What they stated is written to the service's record of the address, which then answers alone for ENRICH_MAX_AGE_DAYS. Addresses and domains on the workspace's do-not-contact list are refused before any work, a replay under an Idempotency-Key too (an address listed since its first answer is answered `do-not-contact`, free). If any source the enrichment needs cannot answer, nothing is delivered and nothing is billed. Counts against the workspace's `enrich` rate-limit budget (the one budget the web app's enrich tool will share).",
    budget: "enrich",
    cost: [{ price: "enrich", per: "completed enrichment (found or not, or from our records)" }],
    idempotencyKey: "optional",
    body: EnrichBodySchema,
    answer: { schema: EnrichAnswerSchema, description: "The enrichment's outcome" },
  });
  app.openapi(route, async (c) => {
    const data = await enrichEmail(ctx, {
      workspaceId: c.get("auth").workspaceId,
      idempotencyKey: c.req.valid("header")["idempotency-key"],
      email: c.req.valid("json").email,
    });
    return c.json({ data }, 200);
  });
}
