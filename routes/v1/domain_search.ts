import type { OpenAPIHono } from "@hono/zod-openapi";
import type { DomainContext } from "../../domain/context.ts";
import { searchDomain } from "../../domain/domain_search/search_domain.ts";
import type { AppEnv } from "../app_env.ts";
import { billedRoute } from "../billed_route.ts";
import { DomainSearchAnswerSchema, DomainSearchBodySchema } from "./domain_search_schemas.ts";

export function mountDomainSearch(app: OpenAPIHono<AppEnv>, ctx: DomainContext): void {
  const route = billedRoute(ctx, {
    path: "/api/v1/domain-search",
    operationId: "domainSearch",
    tags: ["Lookups"],
    summary: "A company's mail pattern and the people the service knows there",
    description:
      "The company (a `domain`, or a `company` name or website resolved as find's `company` mode resolves it), its mail (MX hosts, provider, catch-all verdict as the verification engine last learned them), the address format learned from the verified addresses at the domain, and a page of the people the service's own records hold there (no outside source is asked for people), each with an address only when one was verified within VERIFIED_EMAIL_MAX_AGE_DAYS. Page with `cursor` (the previous answer's `nextCursor`), at most 100 people a page. A page that delivers at least one verified address is billed once; a page without one, the pattern alone and every refusal are free. A workspace that cannot pay for a page with addresses gets it without them (`insufficient-credits`, free). People on the workspace's do-not-contact list are neither shown nor counted; a listed domain is refused. Counts against the `domain_search` rate-limit budget.",
    budget: "domain_search",
    cost: [{ price: "domainSearch", per: "page that delivers at least one verified email" }],
    idempotencyKey: "optional",
    body: DomainSearchBodySchema,
    answer: { schema: DomainSearchAnswerSchema, description: "The domain search's page" },
  });
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const domain = body.domain?.trim();
    const data = await searchDomain(ctx, {
      workspaceId: c.get("auth").workspaceId,
      idempotencyKey: c.req.valid("header")["idempotency-key"],
      target: domain ? { domain } : { company: body.company!.trim() },
      department: body.department,
      seniority: body.seniority,
      title: body.title,
      limit: body.limit,
      cursor: body.cursor,
    });
    return c.json({ data }, 200);
  });
}
