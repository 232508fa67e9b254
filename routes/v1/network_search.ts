import type { OpenAPIHono } from "@hono/zod-openapi";
import type { DomainContext } from "../../domain/context.ts";
import { searchNetwork } from "../../domain/network_search/search_network.ts";
import type { AppEnv } from "../app_env.ts";
import { billedRoute } from "../billed_route.ts";
import { NetworkSearchAnswerSchema, NetworkSearchBodySchema } from "./network_search_schemas.ts";

export function mountNetworkSearch(app: OpenAPIHono<AppEnv>, ctx: DomainContext): void {
  const provider = ctx.webSearch
    ? `the web-search provider (${ctx.webSearch.name}: a site: query on the network's profile pages)`
    : "nothing else: no web-search provider is configured (NETWORK_SEARCH_PROVIDER, or a BRAVE_SEARCH_KEY or SERPAPI_KEY alone), so the directory alone answers";
  const route = billedRoute(ctx, {
    path: "/api/v1/network-search",
    operationId: "networkSearch",
    tags: ["Lookups"],
    summary: "Find a person's public professional-network profile",
    description:
      `The service's directory answers first, then ${provider}. Every outcome is a 200; zero matches on a completed search is an empty \`matches\` without a reason. Billed per completed search, matches or none (a cached answer too); a provider that cannot answer is not billed.`,
    budget: "network_search",
    cost: [{ price: "networkSearch", per: "completed search (matches or none)" }],
    idempotencyKey: "optional",
    body: NetworkSearchBodySchema,
    answer: { schema: NetworkSearchAnswerSchema, description: "The search's outcome" },
  });
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const data = await searchNetwork(ctx, {
      workspaceId: c.get("auth").workspaceId,
      idempotencyKey: c.req.valid("header")["idempotency-key"],
      search: { firstName: body.firstName, lastName: body.lastName, company: body.company || null },
    });
    return c.json({ data }, 200);
  });
}
