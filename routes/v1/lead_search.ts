import type { OpenAPIHono } from "@hono/zod-openapi";
import type { DomainContext } from "../../domain/context.ts";
import { startLeadSearch } from "../../domain/lead_search/start_lead_search.ts";
import type { AppEnv } from "../app_env.ts";
import { billedRoute } from "../billed_route.ts";
import { errorContent, IN_PROGRESS_NOTE } from "../schemas.ts";
import { LeadSearchStartAnswerSchema, LeadSearchStartBodySchema } from "./lead_search_schemas.ts";

export function mountLeadSearchStart(app: OpenAPIHono<AppEnv>, ctx: DomainContext): void {
  const route = billedRoute(ctx, {
    path: "/api/v1/lead-search",
    operationId: "startLeadSearch",
    tags: ["Lead search"],
    summary: "Start a lead-search run",
    description:
      "Answers at once with the run (`queued`) and the balance after the worst case (`count` × lead price) was reserved; the run is processed in the background (poll it). Leads are charged as they are delivered, and what was not used is released when the run ends. A workspace that cannot cover the worst case is answered with no run and `reason` `insufficient-credits`. One run can be active per workspace. Send a fresh `Idempotency-Key` per run: a retry with the same key and body answers the same run, uncharged.",
    budget: "lead_search",
    cost: [{ price: "lead", per: "delivered lead (the worst case is reserved at start)" }],
    idempotencyKey: "optional",
    body: LeadSearchStartBodySchema,
    answer: { schema: LeadSearchStartAnswerSchema, description: "The queued run, or a refusal" },
    errors: {
      400: errorContent(
        "`validation_error` (filters, count, Content-Type or Idempotency-Key), or `invalid_continuation` (continueFromRunId names an unfinished, foreign or unknown run, or filters differ from its filters). Not billed",
      ),
      409: errorContent(
        `\`run_already_active\`, \`run_already_continued\`, \`idempotency_conflict\`, or ${IN_PROGRESS_NOTE}. Not billed`,
      ),
    },
  });
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const data = await startLeadSearch(ctx, {
      workspaceId: c.get("auth").workspaceId,
      idempotencyKey: c.req.valid("header")["idempotency-key"],
      filters: body.filters,
      count: body.count,
      continueFromRunId: body.continueFromRunId,
    });
    return c.json({ data }, 200);
  });
}
