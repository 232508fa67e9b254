/** A refusal by the service, with the API's `code` to branch on (never on `message`). */
export type ApiErrorCode =
  | "validation_error"
  | "unauthenticated"
  | "not_found"
  | "forbidden"
  | "method_not_allowed"
  | "idempotency_conflict"
  | "idempotency_in_progress"
  | "rate_limited"
  | "internal_error"
  | "run_already_active"
  | "run_already_continued"
  | "search_unavailable"
  | "invalid_continuation"
  | "invalid_input"
  | "insufficient_credits"
  | "incomplete"
  | "results_expired";

export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly details: {
      /** Seconds to wait before retrying (429, and 409 `idempotency_in_progress`). */
      retryAfterSeconds?: number;
      /** E.g. `{ required, available, shortfall }` on 402 `insufficient_credits`. */
      meta?: Record<string, unknown>;
      /** The service's `X-Request-Id` for this answer, to quote in a support request. */
      requestId?: string;
    } = {},
  ) {
    super(message);
  }
}

/** The error an answer carries: the API's envelope, or (a proxy's page) its HTTP status. */
export function toApiError(response: Response, body: unknown): ApiError {
  const envelope = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
  const error = envelope as
    | {
      code: ApiErrorCode;
      message: string;
      retryAfterSeconds?: number;
      meta?: Record<string, unknown>;
    }
    | undefined;
  const header = Number(response.headers.get("retry-after"));
  const retryAfterSeconds = error?.retryAfterSeconds ??
    (Number.isFinite(header) && header >= 0 && response.headers.has("retry-after")
      ? header
      : undefined);
  return new ApiError(
    response.status,
    error?.code ?? (response.status >= 500 ? "internal_error" : "validation_error"),
    error?.message ?? `HTTP ${response.status}`,
    {
      retryAfterSeconds,
      meta: error?.meta,
      requestId: response.headers.get("x-request-id") ?? undefined,
    },
  );
}
