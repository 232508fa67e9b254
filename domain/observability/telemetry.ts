/**
 * What the domain tells about its work, as a port: timed operations (an SMTP session, a DNS
 * question, a provider call, the ledger charge) and counted events. The domain reports outcomes as
 * small fixed vocabularies; what becomes a Prometheus series or an OpenTelemetry span is decided
 * by the sinks (`prometheus_telemetry.ts`, `trace_telemetry.ts`), built once in main.ts.
 *
 * Nothing reported here may carry a name, an address, a domain, a host name or a key: only
 * provider names from fixed lists, outcomes, operations, budgets and (for the opt-in workspace
 * label) the workspace's opaque id.
 */
import type { EndOperation, Telemetry, TimedOperation } from "../ports.ts";

export type {
  CountedEvent,
  EndOperation,
  ProviderName,
  SessionOutcome,
  Telemetry,
  TimedOperation,
} from "../ports.ts";

const END_NOTHING: EndOperation = () => {};

export const noTelemetry: Telemetry = { begin: () => END_NOTHING, count() {} };

/** Every sink hears every report; with none, the no-op. */
export function combineTelemetry(sinks: Telemetry[]): Telemetry {
  if (sinks.length === 0) return noTelemetry;
  if (sinks.length === 1) return sinks[0];
  return {
    begin(operation) {
      const ends = sinks.map((sink) => sink.begin(operation));
      const end: EndOperation = (outcome) => {
        for (const each of ends) each(outcome);
      };
      const withins = ends.flatMap((each) => each.within ? [each.within] : []);
      if (withins.length > 0) {
        end.within = <T>(work: () => Promise<T>) => {
          let run = work;
          for (const within of withins) {
            const inner = run;
            run = () => within(inner);
          }
          return run();
        };
      }
      return end;
    },
    count(event) {
      for (const sink of sinks) sink.count(event);
    },
  };
}

/** Runs `work` as one timed operation, ended with the outcome `outcomeOf` reads from its result. */
export async function timed<T>(
  telemetry: Telemetry,
  operation: TimedOperation,
  work: () => Promise<T>,
  outcomeOf: (result: T) => string,
): Promise<T> {
  const end = telemetry.begin(operation);
  try {
    // Where spans are made, what the work begins is a child of this operation's span.
    const result = await (end.within ? end.within(work) : work());
    end(outcomeOf(result));
    return result;
  } catch (error) {
    end("error");
    throw error;
  }
}
