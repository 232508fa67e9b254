import type { MiddlewareHandler } from "hono";
import type { Authenticate } from "../../domain/auth/authenticate.ts";
import type { AppEnv } from "../app_env.ts";

/** 401 `unauthenticated` before any other work; a session cookie alone is no key. */
export function requireApiKey(authenticate: Authenticate): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set("auth", await authenticate(c.req.header("authorization")));
    await next();
  };
}
