/**
 * The span sink: each timed operation becomes a span (a child of the span of the work it is part
 * of: the request's, or a bulk job's or lead-search run's, through `tracing.ts`'s active context),
 * named by what it is and carrying its outcome; nothing else. An operation that holds others (a
 * bulk job, a run) runs them inside its span (`EndOperation.within`), so they become its children. It goes through
 * the standard `@opentelemetry/api`, so it exports wherever the registered provider does
 * (`tracing.ts`), and costs a no-op call when none is registered.
 */
import { SpanStatusCode, trace } from "@opentelemetry/api";
import { activeContext, getServiceTracer, withActiveContext } from "./tracing.ts";
import type { CountedEvent, EndOperation, Telemetry, TimedOperation } from "./telemetry.ts";

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
    case "bulk_job":
      return { name: "bulk job", attributes: {} };
    case "lead_search_run":
      return { name: "lead search run", attributes: {} };
  }
}

export function createTraceTelemetry(): Telemetry {
  const tracer = getServiceTracer();
  return {
    begin(operation) {
      const { name, attributes } = spanOf(operation);
      const parent = activeContext();
      const span = tracer.startSpan(name, { attributes }, parent);
      const end: EndOperation = (outcome) => {
        span.setAttribute("outcome", outcome);
        if (outcome === "error") span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      };
      end.within = (work) => withActiveContext(trace.setSpan(parent, span), work);
      return end;
    },
    count(event: CountedEvent) {
      // The request's span notes what was charged and answered (never who for).
      const span = trace.getSpan(activeContext());
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
