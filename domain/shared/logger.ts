/**
 * Structured one-line JSON logs. Callers pass only operational fields: never request bodies,
 * names, emails or API keys.
 */
import { currentLogFields, type LogFields } from "./log_context.ts";

export type { LogFields } from "./log_context.ts";

export interface Logger {
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

export function jsonLogger(write: (line: string) => void = (line) => console.log(line)): Logger {
  const emit = (level: string, msg: string, fields?: LogFields) =>
    write(
      JSON.stringify({
        time: new Date().toISOString(),
        level,
        msg,
        ...currentLogFields(),
        ...fields,
      }),
    );
  return {
    info: (msg, fields) => emit("info", msg, fields),
    warn: (msg, fields) => emit("warn", msg, fields),
    error: (msg, fields) => emit("error", msg, fields),
  };
}

/** Keeps lines in memory: for tests that scan what was logged. */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return Object.assign(jsonLogger((line) => lines.push(line)), { lines });
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
