import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { DomainContext } from "../domain/context.ts";
import { checkHealth } from "../domain/health/check_health.ts";
import { checkReadiness, type Readiness } from "../domain/health/readiness.ts";
import type { AppEnv } from "./app_env.ts";
import { UNREADABLE_REQUEST_RESPONSE } from "./v1/openapi.ts";

const HealthSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  database: z.object({ status: z.enum(["ok", "down"]), kind: z.enum(["postgres", "pglite"]) }),
  kv: z.object({ status: z.enum(["ok", "down"]) }),
  nameModel: z.object({ status: z.enum(["loaded", "absent"]), version: z.string().nullable() }),
}).openapi("Health");

const ReadySchema = z.object({
  status: z.enum(["ready", "starting", "stopping", "database-unreachable"]),
}).openapi("Readiness");

export function mountHealth(
  app: OpenAPIHono<AppEnv>,
  ctx: DomainContext,
  readiness: Readiness,
): void {
  const route = createRoute({
    method: "get",
    path: "/healthz",
    operationId: "getHealth",
    tags: ["Operations"],
    summary: "Store status",
    description: "No key needed. 200 when the database and KV answer, 503 otherwise.",
    security: [],
    responses: {
      200: {
        description: "All stores answer",
        content: { "application/json": { schema: HealthSchema } },
      },
      503: {
        description: "A store is down",
        content: { "application/json": { schema: HealthSchema } },
      },
      ...UNREADABLE_REQUEST_RESPONSE,
    },
  });
  app.openapi(route, async (c) => {
    const health = await checkHealth(ctx);
    return c.json(health, health.status === "ok" ? 200 : 503);
  });

  const ready = createRoute({
    method: "get",
    path: "/readyz",
    operationId: "getReadiness",
    tags: ["Operations"],
    summary: "Readiness for traffic",
    description:
      "No key needed. For load balancers: 200 when this instance serves requests, 503 while it " +
      "starts, while it stops (requests in progress still finish) or when it cannot reach its database.",
    security: [],
    responses: {
      200: {
        description: "Ready",
        content: { "application/json": { schema: ReadySchema } },
      },
      503: {
        description: "Starting, stopping, or the database is unreachable",
        content: { "application/json": { schema: ReadySchema } },
      },
      ...UNREADABLE_REQUEST_RESPONSE,
    },
  });
  app.openapi(ready, async (c) => {
    const answer = await checkReadiness(ctx, readiness);
    return c.json({ status: answer.status }, answer.ready ? 200 : 503);
  });
}
