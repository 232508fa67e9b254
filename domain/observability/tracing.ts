/**
 * Turns tracing on (`OTEL_DENO=true`): the OpenTelemetry JS SDK as the global provider, exporting
 * in batches over OTLP/HTTP (protobuf) to the endpoint of the standard `OTEL_EXPORTER_OTLP_*`
 * variables (the exporter reads them), with W3C trace context and async context propagation.
 *
 * Only our own spans are made: the request span (routes/middleware/request_context.ts) and the
 * operations of `trace_telemetry.ts`. Nothing instruments `fetch`, so no span carries a request
 * URL: a web search's query holds the person's name (docs/operations.md, "Traces").
 */
import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";

export interface Tracing {
  /** Exports what is queued and stops. */
  shutdown(): Promise<void>;
}

export function startTracing(env: Record<string, string | undefined>): Tracing {
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      "service.name": env.OTEL_SERVICE_NAME?.trim() || "contact-data-service",
    }),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })],
  });
  trace.setGlobalTracerProvider(provider);
  return {
    async shutdown() {
      await provider.shutdown().catch(() => {});
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}
