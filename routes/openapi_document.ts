/**
 * `GET /api/v1/openapi.json`: the OpenAPI 3.1 document generated from the route schemas, with
 * each billable operation's current cost: the route declares which prices it charges, the
 * points come from the same price table the ledger charges.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { PriceTable } from "../domain/config/config.ts";
import type { AppEnv } from "./app_env.ts";
import type { DeclaredCost } from "./billed_route.ts";

const DESCRIPTION = `Contact-data service: name parsing, verified work emails, profile search,
email enrichment and lead search. Every operation except this document needs
\`Authorization: Bearer svc_sk_…\` (a workspace API key). Answers are \`{ "data": … }\`,
failures \`{ "error": { "code", "message", "retryAfterSeconds"? } }\`; branch on \`code\`.
Every answer carries \`X-Request-Id\` and the \`RateLimit-*\` headers of its budget.
Each billable operation states its cost in points under \`x-cost\`.`;

export function buildOpenApiDocument(
  app: OpenAPIHono<AppEnv>,
  prices: PriceTable,
): Record<string, unknown> {
  app.openAPIRegistry.registerComponent("securitySchemes", "apiKey", {
    type: "http",
    scheme: "bearer",
    description: "A workspace API key: `svc_sk_` followed by 48 lower-case hex characters",
  });
  const document = app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: { title: "Contact-data service API", version: "v1", description: DESCRIPTION },
  }) as unknown as { paths?: Record<string, Record<string, Record<string, unknown>>> };

  for (const methods of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(methods)) {
      // Each billed route declares its own cost (billed_route.ts); the rest are free.
      const costs = (operation["x-cost"] ?? []) as DeclaredCost[];
      operation["x-cost"] = costs.map((cost) => ({
        points: prices[cost.price],
        per: cost.per,
        priceName: cost.price,
      }));
      if (costs.length === 0) continue;
      const costText = costs.map((cost) => `${prices[cost.price]} points per ${cost.per}`)
        .join("; ");
      operation.description = `${operation.description ?? ""}\n\nCost: ${costText}.`.trim();
    }
  }
  return document as Record<string, unknown>;
}
