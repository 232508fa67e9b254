/**
 * Request bodies up to `maxBytes`, else `validation_error` with `message`. A body announced with a
 * Content-Length is judged by it (hyper never delivers more than it announces); only a chunked
 * body goes through Hono's `bodyLimit`, which counts what arrives. Hono's middleware reads
 * `request.body` before anything else, and on a body the server has already read
 * (`server/buffered_request.ts`) that builds a stream nobody reads: 2.7 % of the service thread on the
 * billed single parse, in a CPU profile.
 */
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ServiceError } from "../../domain/errors.ts";

export function limitBody(maxBytes: number, message: string): MiddlewareHandler {
  const tooLarge = (): never => {
    throw new ServiceError("validation_error", message);
  };
  const chunked = bodyLimit({ maxSize: maxBytes, onError: tooLarge });
  return (c, next) => {
    const length = c.req.header("content-length");
    if (length === undefined || c.req.header("transfer-encoding") !== undefined) {
      return chunked(c, next);
    }
    if (parseInt(length, 10) > maxBytes) tooLarge();
    return next();
  };
}
