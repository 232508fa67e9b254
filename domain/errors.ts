/** The spec's error vocabulary (§7). Routes map each code to its HTTP status in one place. */
export const ERROR_CODES = [
  "validation_error",
  "unauthenticated",
  "not_found",
  "forbidden",
  "method_not_allowed",
  "idempotency_conflict",
  "idempotency_in_progress",
  "rate_limited",
  "internal_error",
  "run_already_active",
  "run_already_continued",
  "search_unavailable",
  "invalid_continuation",
  "invalid_input",
  "insufficient_credits",
  "incomplete",
  "results_expired",
] as const;

export type ErrorCode = typeof ERROR_CODES[number];

export interface ServiceErrorOptions {
  retryAfterSeconds?: number;
  meta?: Record<string, unknown>;
  /** Extra response headers (e.g. `Allow`, `Retry-After`). */
  headers?: Record<string, string>;
}

/**
 * An expected failure with a client-facing code and message. Messages are written for the
 * caller and never carry submitted personal data.
 */
export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly retryAfterSeconds?: number;
  readonly meta?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: ServiceErrorOptions = {}) {
    super(message);
    this.name = "ServiceError";
    this.code = code;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.meta = options.meta;
    this.headers = options.headers;
  }
}

export const INTERNAL_ERROR_MESSAGE = "Internal error";

export const DATABASE_UNAVAILABLE_MESSAGE =
  "The service cannot reach its database; nothing was charged. Try again shortly";

/** Errors of the Postgres client that mean the database cannot be reached right now. */
const UNREACHABLE_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  // SQLSTATE: the server is shutting down, restarting, or has no connection to spare.
  "57P01",
  "57P02",
  "57P03",
  "53300",
]);

/**
 * True for a failure to reach the database (refused, closed, timed out, shutting down): the
 * request could not be completed and nothing was charged, so it is `503 incomplete`, not an
 * unexpected `500 internal_error`.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; syscall?: unknown } | null;
  if (typeof e !== "object" || e === null || typeof e.code !== "string") return false;
  return UNREACHABLE_CODES.has(e.code) || e.code.startsWith("08") || e.syscall === "connect";
}
