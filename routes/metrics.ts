/**
 * `GET /metrics` in the Prometheus text format, for a scraper holding `METRICS_TOKEN` (sent as
 * `Authorization: Bearer <token>`). Without a token configured the route does not exist (404):
 * the series tell how the service is used, so they are never public by default.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { timingSafeEqual } from "node:crypto";
import { ServiceError } from "../domain/errors.ts";
import type { PrometheusTelemetry } from "../domain/observability/prometheus_telemetry.ts";
import type { AppEnv } from "./app_env.ts";

export interface MetricsEndpoint {
  token: string;
  metrics: PrometheusTelemetry;
}

export const METRICS_UNAUTHENTICATED_MESSAGE =
  "GET /metrics needs Authorization: Bearer <METRICS_TOKEN>";

export function mountMetrics(app: OpenAPIHono<AppEnv>, endpoint: MetricsEndpoint): void {
  const expected = new TextEncoder().encode(`Bearer ${endpoint.token}`);
  app.get("/metrics", async (c) => {
    const sent = new TextEncoder().encode(c.req.header("authorization") ?? "");
    if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) {
      throw new ServiceError("unauthenticated", METRICS_UNAUTHENTICATED_MESSAGE, {
        headers: { "WWW-Authenticate": 'Bearer realm="metrics"' },
      });
    }
    return c.body(await endpoint.metrics.render(), 200, {
      "Content-Type": endpoint.metrics.contentType,
      "Cache-Control": "no-store",
    });
  });
}
