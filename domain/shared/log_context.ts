/**
 * Fields every log line of one request carries (its request id, and its trace id when tracing),
 * without passing a logger through every verb: the request's middleware runs the request inside
 * `withLogFields`, and `jsonLogger` adds them to each line written meanwhile.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** Operational fields of a log line: never a body, a name, an email or a key. */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

const storage = new AsyncLocalStorage<LogFields>();

export function withLogFields<T>(fields: LogFields, run: () => T): T {
  return storage.run(fields, run);
}

export function currentLogFields(): LogFields | undefined {
  return storage.getStore();
}
