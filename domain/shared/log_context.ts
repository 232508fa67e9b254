/**
 * Fields every log line of one request carries (its request id, and its trace id when tracing),
 * without passing a logger through every verb: the request's middleware runs the request inside
 * `withLogFields`, and `jsonLogger` adds them to each line written meanwhile.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { LogFields } from "./logger.ts";

const storage = new AsyncLocalStorage<LogFields>();

export function withLogFields<T>(fields: LogFields, run: () => T): T {
  return storage.run(fields, run);
}

export function currentLogFields(): LogFields | undefined {
  return storage.getStore();
}
