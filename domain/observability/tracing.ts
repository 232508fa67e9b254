/**
 * Turns tracing on (`OTEL_DENO=true`): the OpenTelemetry JS SDK as the global provider, exporting
 * in batches over OTLP/HTTP (protobuf, or JSON with `OTEL_EXPORTER_OTLP_PROTOCOL=http/json`) to
 * the endpoint of the standard `OTEL_EXPORTER_OTLP_*` variables (the exporter reads them), with
 * W3C trace context and async context propagation.
 *
 * Only our own spans are made: the request span (routes/middleware/request_context.ts) and the
 * operations of `trace_telemetry.ts`. Nothing instruments `fetch`, so no span carries a request
 * URL: a web search's query holds the person's name (docs/operations.md, "Traces").
 */
import { type Context, context, propagation, trace, type Tracer } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import type { OtlpProtocol } from "../config/config.ts";
import { OtlpJsonTraceExporter } from "./otlp_json_exporter.ts";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";

export interface Tracing {
  /** Exports what is queued and stops. */
  shutdown(): Promise<void>;
}

export const TRACER_NAME = "contact-data-service";

let serviceTracer: Tracer | null = null;

/**
 * The context our spans take their parent from, carried across awaits by our own
 * AsyncLocalStorage. The API's global context manager is not relied on: with `OTEL_DENO=true`
 * Deno registers its own, which with its tracing off (as it must be, config.ts) carries nothing
 * across an await, so a request's SMTP and DNS spans began as roots of traces of their own.
 */
let serviceContext: AsyncLocalStorageContextManager | null = null;

/** The active context of the work now running (a request's, a bulk job's), for a child span. */
export function activeContext(): Context {
  return serviceContext?.active() ?? context.active();
}

/** Runs `work` with `active` as the context its spans begin under, across its awaits too. */
export function withActiveContext<T>(active: Context, work: () => T): T {
  return serviceContext ? serviceContext.with(active, work) : context.with(active, work);
}

/**
 * The tracer our spans go to: the SDK's once `startTracing` ran, else the API's global one (Deno
 * Deploy's own provider there, a no-op elsewhere).
 */
export function getServiceTracer(): Tracer {
  return serviceTracer ?? trace.getTracer(TRACER_NAME);
}

export function startTracing(
  env: Record<string, string | undefined>,
  protocol: OtlpProtocol = "http/protobuf",
): Tracing {
  // With OTEL_DENO=true Deno registers its own providers with the API (inert with its tracing
  // off) and they cannot be replaced: our tracer is taken from our provider directly, and the
  // context manager and propagator are ours only where none is registered (Deno's carry the
  // active span across awaits and read W3C trace context the same way).
  const contextManager = new AsyncLocalStorageContextManager();
  if (context.setGlobalContextManager(contextManager)) contextManager.enable();
  serviceContext = new AsyncLocalStorageContextManager().enable();
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      "service.name": env.OTEL_SERVICE_NAME?.trim() || "contact-data-service",
    }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: protocol === "http/json" ? new OtlpJsonTraceExporter() : new OTLPTraceExporter(),
      }),
    ],
  });
  serviceTracer = provider.getTracer(TRACER_NAME);
  return {
    async shutdown() {
      serviceTracer = null;
      serviceContext?.disable();
      serviceContext = null;
      await provider.shutdown().catch(() => {});
    },
  };
}
