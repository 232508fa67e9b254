import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { readPoints } from "../../domain/billing/read_points.ts";
import type { DomainContext } from "../../domain/context.ts";
import type { AppEnv } from "../app_env.ts";
import { keyedAndLimited } from "../guard.ts";
import {
  API_KEY_SECURITY,
  BalanceSchema,
  COMMON_ERROR_RESPONSES,
  INCOMPLETE_RESPONSE,
} from "../schemas.ts";

const PricesSchema = z.object({
  nameParse: z.number().int().openapi({ description: "Per answered name (single or batch row)" }),
  findEmail: z.number().int().openapi({
    description:
      "Per completed find in `email`/`network` mode, and the email part of `company` mode",
  }),
  findCompany: z.number().int().openapi({
    description: "The company-lookup part of `company` mode",
  }),
  networkSearch: z.number().int().openapi({ description: "Per completed network search" }),
  enrich: z.number().int().openapi({ description: "Per completed email enrichment" }),
  lead: z.number().int().openapi({ description: "Per delivered lead" }),
  verify: z.number().int().openapi({
    description: "Per address verified to a verdict (`valid`, `invalid` or `catch-all`)",
  }),
  domainSearch: z.number().int().openapi({
    description: "Per domain-search page that delivers at least one verified email",
  }),
}).openapi("Prices");

const PointsSchema = BalanceSchema.extend({
  prices: PricesSchema.openapi({ description: "Points per billable unit, as the ledger charges" }),
}).openapi("Points");

export function mountPoints(app: OpenAPIHono<AppEnv>, ctx: DomainContext): void {
  const route = createRoute({
    method: "get",
    path: "/api/v1/points",
    operationId: "getPoints",
    tags: ["Account"],
    summary: "Read the workspace's points",
    description:
      "The workspace balance (`available`, `reserved`, `granted`) beside the current price table. Free.",
    security: API_KEY_SECURITY,
    middleware: keyedAndLimited(ctx, "account"),
    responses: {
      200: {
        description: "Balance and prices",
        content: { "application/json": { schema: z.object({ data: PointsSchema }) } },
      },
      503: INCOMPLETE_RESPONSE,
      ...COMMON_ERROR_RESPONSES,
    },
  });
  app.openapi(route, async (c) => {
    const data = await readPoints(ctx, { workspaceId: c.get("auth").workspaceId });
    return c.json({ data }, 200);
  });
}
