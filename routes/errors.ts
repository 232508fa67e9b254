/**
 * One error vocabulary: every code of the spec mapped to its HTTP status here, one `onError`,
 * and the envelope `{ error: { code, message, retryAfterSeconds?, meta? } }` on every non-200.
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import {
  DATABASE_UNAVAILABLE_MESSAGE,
  type ErrorCode,
  INTERNAL_ERROR_MESSAGE,
  isDatabaseUnavailable,
  ServiceError,
} from "../domain/errors.ts";
import type { Logger } from "../domain/shared/logger.ts";
import type { AppEnv } from "./app_env.ts";

export const CONTENT_TYPE_MESSAGE = "Content-Type must be application/json";

export function statusOf(code: ErrorCode): ContentfulStatusCode {
  switch (code) {
    case "validation_error":
    case "invalid_input":
    case "invalid_continuation":
      return 400;
    case "unauthenticated":
      return 401;
    case "insufficient_credits":
      return 402;
    case "forbidden":
      return 403;
    case "not_found":
      return 404;
    case "method_not_allowed":
      return 405;
    case "idempotency_conflict":
    case "idempotency_in_progress":
    case "run_already_active":
    case "run_already_continued":
      return 409;
    case "results_expired":
      return 410;
    case "rate_limited":
      return 429;
    case "internal_error":
      return 500;
    case "incomplete":
    case "search_unavailable":
      return 503;
  }
}

export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    retryAfterSeconds?: number;
    meta?: Record<string, unknown>;
    /** The answer's `X-Request-Id`, for a user to quote: the same id is on its log lines. */
    requestId?: string;
  };
}

export function errorBody(error: ServiceError, requestId?: string): ErrorBody {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.retryAfterSeconds !== undefined
        ? { retryAfterSeconds: error.retryAfterSeconds }
        : {}),
      ...(error.meta ? { meta: error.meta } : {}),
      ...(requestId ? { requestId } : {}),
    },
  };
}

export function errorResponse(c: Context<AppEnv>, error: ServiceError): Response {
  for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
  return c.json(errorBody(error, c.get("requestId")), statusOf(error.code));
}

/**
 * Maps anything thrown to the envelope; an unreachable database becomes `503 incomplete`
 * (nothing was charged; §7's code for a request that could not be completed), other unexpected
 * failures a bare 500.
 */
export function toServiceError(error: unknown, logger: Logger, requestId?: string): ServiceError {
  if (error instanceof ServiceError) return error;
  if (error instanceof HTTPException && error.status === 400) {
    return new ServiceError("validation_error", "Request body must be valid JSON");
  }
  // @hono/zod-openapi refuses a body sent without, or with another, media type.
  if (error instanceof HTTPException && error.status === 415) {
    return new ServiceError("validation_error", CONTENT_TYPE_MESSAGE);
  }
  // The database cannot be reached: nothing was done or charged, and a retry may succeed.
  if (isDatabaseUnavailable(error)) {
    logger.warn("database unavailable", {
      requestId,
      errorCode: String((error as { code?: unknown }).code),
    });
    return new ServiceError("incomplete", DATABASE_UNAVAILABLE_MESSAGE);
  }
  // Log the kind of failure only: messages of driver errors can quote submitted values.
  logger.error("unhandled error", {
    requestId,
    errorName: (error as Error)?.name ?? typeof error,
    errorCode: String((error as { code?: unknown })?.code ?? ""),
  });
  return new ServiceError("internal_error", INTERNAL_ERROR_MESSAGE);
}
