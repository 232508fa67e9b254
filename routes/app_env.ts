import type { AuthContext } from "../domain/auth/authenticate.ts";

/** Hono context variables set by the middleware. */
export type AppEnv = {
  Variables: {
    requestId: string;
    auth: AuthContext;
  };
};
