import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { propagation, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { Logger } from "../../domain/shared/logger.ts";
import { withLogFields } from "../../domain/shared/log_context.ts";
import {
  activeContext,
  getServiceTracer,
  withActiveContext,
} from "../../domain/observability/tracing.ts";
import type { AppEnv } from "../app_env.ts";

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

export interface RequestContextOptions {
  log: boolean;
  /** Counts each answer by route template, method and status, and times it. */
  recordRequest?: (route: string, method: string, status: number, seconds: number) => void;
  /** A server span per request, named by its route template (tracing on). */
  tracing?: boolean;
}

const HEADERS_GETTER = {
  get: (headers: Headers, key: string) => headers.get(key) ?? undefined,
  keys: (headers: Headers) => [...headers.keys()],
};

/**
 * Gives every request an id (a caller's well-formed `X-Request-Id` is kept), echoes it on the
 * response, adds it to every log line written while the request runs, and writes one structured
 * log line per request: method, route template, status, duration, workspace and request id.
 * Never a body, a name, an email or a key. With metrics and tracing, the same route template
 * names the request's series and span: a raw path could hold a run id, and a query string anything.
 */
export function requestContext(
  logger: Logger,
  options: RequestContextOptions,
): MiddlewareHandler<AppEnv> {
  const tracer = options.tracing ? getServiceTracer() : null;
  return (c, next) => {
    const started = performance.now();
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    c.set("requestId", requestId);

    const handle = async (span: Span | null) => {
      try {
        await next();
      } finally {
        c.res.headers.set("X-Request-Id", requestId);
        const matched = routePath(c, -1);
        const route = matched === "*" || matched === "/*" ? "(unmatched)" : matched;
        const status = c.res.status;
        const seconds = (performance.now() - started) / 1000;
        options.recordRequest?.(route, c.req.method, status, seconds);
        if (span) {
          span.updateName(`${c.req.method} ${route}`);
          span.setAttributes({ "http.route": route, "http.response.status_code": status });
          if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        }
        if (options.log) {
          logger.info("request", {
            requestId,
            method: c.req.method,
            route,
            status,
            durationMs: Math.round(seconds * 100_000) / 100,
            workspaceId: c.get("auth")?.workspaceId ?? null,
          });
        }
      }
    };

    if (!tracer) return withLogFields({ requestId }, () => handle(null));
    // A caller's W3C trace context continues; the span carries the method, never the URL.
    const parent = propagation.extract(activeContext(), c.req.raw.headers, HEADERS_GETTER);
    const span = tracer.startSpan(c.req.method, {
      kind: SpanKind.SERVER,
      attributes: { "http.request.method": c.req.method },
    }, parent);
    const traceId = span.spanContext().traceId;
    return withActiveContext(
      trace.setSpan(parent, span),
      () => withLogFields({ requestId, traceId }, () => handle(span)),
    );
  };
}
