/**
 * A JSON Content-Type in any valid spelling reaches the routes. `@hono/zod-openapi` and Hono's
 * validator recognise JSON by a pattern that refuses valid forms such as
 * `application/json ; charset=utf-8` (whitespace before `;`, RFC 9110 §5.6.6) or
 * `Application/JSON;charset="utf-8"` with a quoted value, and answered 415 (our
 * `Content-Type must be application/json`). Such a header, when it is a JSON media type, is
 * handed on as its bare `type/subtype`; its parameters are dropped (JSON is UTF-8, RFC 8259
 * §8.1, and nothing reads a charset). Anything else passes unchanged, so a non-JSON type is still
 * refused by the route. The common spellings, which the pattern accepts, cost one regex test.
 */
import type { MiddlewareHandler } from "hono";
import { isJsonMediaType, parseMediaType } from "../media_type.ts";

/** The pattern `@hono/zod-openapi` (1.6) and Hono's validator accept as JSON. */
const LIBRARY_JSON = /^application\/([a-z-\.]+\+)?json(;\s*[a-zA-Z0-9\-]+\=([^;]+))*$/i;

export function jsonContentType(): MiddlewareHandler {
  return async (c, next) => {
    const header = c.req.header("content-type");
    if (header !== undefined && !LIBRARY_JSON.test(header)) {
      const media = parseMediaType(header);
      if (isJsonMediaType(media)) {
        // A request's headers are immutable: the same request again, under a new header.
        const raw = c.req.raw;
        const headers = new Headers(raw.headers);
        headers.set("content-type", `${media!.type}/${media!.subtype}`);
        c.req.raw = new Request(raw.url, {
          method: raw.method,
          headers,
          body: raw.body,
          signal: raw.signal,
        });
      }
    }
    await next();
  };
}
