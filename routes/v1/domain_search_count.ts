import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { DomainContext } from "../../domain/context.ts";
import { countDomainPeople } from "../../domain/domain_search/count_domain_people.ts";
import type { AppEnv } from "../app_env.ts";
import { keyedAndLimited } from "../guard.ts";
import { API_KEY_SECURITY, COMMON_ERROR_RESPONSES, errorContent } from "../schemas.ts";
import { DomainCountAnswerSchema, DomainCountQuerySchema } from "./domain_search_schemas.ts";

export function mountDomainSearchCount(app: OpenAPIHono<AppEnv>, ctx: DomainContext): void {
  const route = createRoute({
    method: "get",
    path: "/api/v1/domain-search/count",
    operationId: "domainCount",
    tags: ["Lookups"],
    summary: "How many people and verified addresses the service holds at a domain",
    description:
      "Free: how many people the service's own records hold at the domain's company, and how many of them have an address verified within VERIFIED_EMAIL_MAX_AGE_DAYS, in all, by department and by seniority. Names nobody and delivers no address. People on the workspace's do-not-contact list are not counted; a listed domain counts nobody (`do-not-contact`). Counts against the `domain_count` rate-limit budget.",
    security: API_KEY_SECURITY,
    middleware: keyedAndLimited(ctx, "domain_count"),
    request: { query: DomainCountQuerySchema },
    responses: {
      200: {
        description: "The counts",
        content: {
          "application/json": { schema: z.object({ data: DomainCountAnswerSchema }) },
        },
      },
      400: errorContent("`validation_error`: `domain` is missing, blank or too long"),
      ...COMMON_ERROR_RESPONSES,
    },
  });
  app.openapi(route, async (c) => {
    const data = await countDomainPeople(ctx, {
      workspaceId: c.get("auth").workspaceId,
      domain: c.req.valid("query").domain.trim(),
    });
    return c.json({ data }, 200);
  });
}
