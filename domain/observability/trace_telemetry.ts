/**
 * The span sink: each timed operation becomes a span (a child of the request's span, through the
 * active context), named by what it is and carrying its outcome; nothing else. It goes through
 * the standard `@opentelemetry/api`, so it exports wherever the registered provider does
 * (`tracing.ts`), and costs a no-op call when none is registered.
 */
import { SpanStatusCode, trace } from "@opentelemetry/api";
import { getServiceTracer } from "./tracing.ts";
import type { CountedEvent, Telemetry, TimedOperation } from "./telemetry.ts";

function spanOf(operation: TimedOperation): { name: string; attributes: Record<string, string> } {
  switch (operation.kind) {
    case "smtp_session":
      return { name: "smtp session", attributes: { "mail.provider": operation.provider } };
    case "dns_question":
      return { name: `dns ${operation.type}`, attributes: { "dns.question.type": operation.type } };
    case "provider_request":
      return {
        name: `${operation.provider} request`,
        attributes: { "provider.name": operation.provider },
      };
    case "ledger_charge":
      return { name: "ledger charge", attributes: { "db.operation.name": "ledger_charge" } };
  }
}

export function createTraceTelemetry(): Telemetry {
  const tracer = getServiceTracer();
  return {
    begin(operation) {
      const { name, attributes } = spanOf(operation);
      const span = tracer.startSpan(name, { attributes });
      return (outcome) => {
        span.setAttribute("outcome", outcome);
        if (outcome === "error") span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      };
    },
    count(event: CountedEvent) {
      // The request's span notes what was charged and answered (never who for).
      const span = trace.getActiveSpan();
      if (!span) return;
      switch (event.kind) {
        case "points_charged":
          span.addEvent("points charged", { operation: event.operation, points: event.points });
          return;
        case "lookup":
          span.addEvent("lookup answered", { operation: event.operation, reason: event.reason });
          return;
        case "idempotency_replay":
          span.addEvent("idempotency replay", { operation: event.operation });
          return;
        default:
          return;
      }
    },
  };
}
