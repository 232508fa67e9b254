/**
 * The Hono application: middleware, every route, the error vocabulary, 404 and 405.
 * Built from a DomainContext; performs no I/O until a request arrives.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { DomainContext } from "../domain/context.ts";
import { ServiceError } from "../domain/errors.ts";
import type { AppEnv } from "./app_env.ts";
import { errorResponse, toServiceError } from "./errors.ts";
import { jsonContentType } from "./middleware/json_content_type.ts";
import { limitBody } from "./middleware/limit_body.ts";
import { requestContext } from "./middleware/request_context.ts";
import { buildOpenApiDocument } from "./openapi_document.ts";
import { mountHealth } from "./health.ts";
import { mountPoints } from "./v1/points.ts";
import { mountNameParse } from "./v1/name_parse.ts";
import { mountNameParseBatch } from "./v1/name_parse_batch.ts";
import { mountFind } from "./v1/find.ts";
import { mountNetworkSearch } from "./v1/network_search.ts";
import { mountEnrichEmail } from "./v1/enrich_email.ts";
import { mountVerifyEmail } from "./v1/verify_email.ts";
import { mountDomainSearch } from "./v1/domain_search.ts";
import { mountDomainSearchCount } from "./v1/domain_search_count.ts";
import { mountLeadSearchStart } from "./v1/lead_search.ts";
import { mountLeadSearchRun } from "./v1/lead_search_run.ts";
import { mountLeadSearchCancel } from "./v1/lead_search_cancel.ts";
import { mountBulkJobCreate } from "./v1/bulk_jobs.ts";
import { mountBulkJobRead } from "./v1/bulk_job.ts";
import { mountBulkJobResults } from "./v1/bulk_job_results.ts";
import { mountBulkJobCancel } from "./v1/bulk_job_cancel.ts";
import { mountWebhooks } from "./v1/webhooks.ts";
import { mountPointsLedger } from "./v1/points_ledger.ts";
import { mountAuditLog } from "./v1/audit_log.ts";
import { mountDocs } from "./docs.ts";
import { mountOpenApi } from "./v1/openapi.ts";
import { MCP_PATH, mountMcp } from "./mcp/mount_mcp.ts";
import { validationMessage } from "./validation_message.ts";
import { mountWebApp } from "./app/mount_web_app.tsx";
import { type MetricsEndpoint, mountMetrics } from "./metrics.ts";
import { createReadiness, type Readiness } from "../domain/health/readiness.ts";

export interface AppOptions {
  logRequests?: boolean;
  /** `GET /metrics` and the per-request series; absent: no route (404). */
  metrics?: MetricsEndpoint;
  /** A span per request (tracing on). */
  tracing?: boolean;
  /** What `/readyz` answers from; default: ready at once (tests). */
  readiness?: Readiness;
  /** Mounts more routes before the 404/405 fallbacks (used by tests to inject faults). */
  extraRoutes?: (app: OpenAPIHono<AppEnv>) => void;
}

export const METHOD_NOT_ALLOWED_MESSAGE = "Method not allowed";
/** Far above the largest valid request (100 names of 256 characters). */
export const MAX_BODY_BYTES = 1024 * 1024;
/** A bulk job's body: 10,000 rows of a few hundred characters at the most. */
export const MAX_BULK_BODY_BYTES = 8 * 1024 * 1024;
const BULK_JOBS_PATH = "/api/v1/bulk/jobs";

export function createApp(ctx: DomainContext, options: AppOptions = {}): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        throw new ServiceError("validation_error", validationMessage(result.error));
      }
    },
  });

  const metrics = options.metrics?.metrics;
  app.use(
    "*",
    requestContext(ctx.logger, {
      log: options.logRequests ?? true,
      recordRequest: metrics && ((...request) => metrics.httpRequest(...request)),
      tracing: options.tracing,
    }),
  );
  const oneMegabyte = limitBody(MAX_BODY_BYTES, "The request body must be at most 1 MB");
  const bulkLimit = limitBody(MAX_BULK_BODY_BYTES, "A bulk job's body must be at most 8 MB");
  app.use(
    "/api/*",
    (c, next) => c.req.path === BULK_JOBS_PATH ? bulkLimit(c, next) : oneMegabyte(c, next),
  );
  app.use("/api/*", jsonContentType());
  app.use(MCP_PATH, limitBody(MAX_BODY_BYTES, "The request body must be at most 1 MB"));

  mountHealth(app, ctx, options.readiness ?? createReadiness("ready"));
  if (options.metrics) mountMetrics(app, options.metrics);
  mountPoints(app, ctx);
  mountNameParse(app, ctx);
  mountNameParseBatch(app, ctx);
  mountFind(app, ctx);
  mountNetworkSearch(app, ctx);
  mountEnrichEmail(app, ctx);
  mountVerifyEmail(app, ctx);
  mountDomainSearch(app, ctx);
  mountDomainSearchCount(app, ctx);
  mountLeadSearchStart(app, ctx);
  mountLeadSearchRun(app, ctx);
  mountLeadSearchCancel(app, ctx);
  mountBulkJobCreate(app, ctx);
  mountBulkJobRead(app, ctx);
  mountBulkJobResults(app, ctx);
  mountBulkJobCancel(app, ctx);
  mountWebhooks(app, ctx);
  mountPointsLedger(app, ctx);
  mountAuditLog(app, ctx);
  mountDocs(app, ctx);

  let document: Record<string, unknown> | undefined;
  /** The OpenAPI document of every route, built once at first use. */
  const openApiDocument = () => document ??= buildOpenApiDocument(app, ctx.prices);
  mountOpenApi(app, openApiDocument);
  mountMcp(app, ctx, { openApiDocument });

  // Read lazily at request time, so it sees every route mounted below too.
  const allowedMethods = methodTable(app);
  mountWebApp(app, ctx, { openApiDocument, allowedMethods });
  options.extraRoutes?.(app);

  app.notFound((c) => {
    const allowed = allowedMethods(new URL(c.req.url).pathname);
    if (allowed.length > 0) {
      return errorResponse(
        c,
        new ServiceError("method_not_allowed", METHOD_NOT_ALLOWED_MESSAGE, {
          headers: { Allow: allowed.join(", ") },
        }),
      );
    }
    return errorResponse(c, new ServiceError("not_found", "No such endpoint"));
  });
  app.onError((error, c) =>
    errorResponse(c, toServiceError(error, ctx.logger, c.get("requestId")))
  );
  return app;
}

/**
 * For a path, the methods some route answers on it (empty when no route has the path). The match
 * is exact, as Hono's router is: `/api/v1/points/` is no route (404), or its 405's `Allow` would
 * name methods that the same path then refuses again.
 */
function methodTable(app: OpenAPIHono<AppEnv>): (path: string) => string[] {
  let routes: { pattern: RegExp; method: string }[] | undefined;
  return (path) => {
    routes ??= app.routes
      .filter((route) => route.method !== "ALL" && !route.path.includes("*"))
      .map((route) => ({
        method: route.method,
        pattern: new RegExp(
          "^" + route.path.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/:[^/]+/g, "[^/]+") +
            "$",
        ),
      }));
    const methods = new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method));
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods].sort();
  };
}
