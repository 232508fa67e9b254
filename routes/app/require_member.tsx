/**
 * The web app's gates. `requireMember`: a live session or a redirect to sign-in (a member still
 * on a one-time password is sent to choose their own first). `requireCsrf`: every POST carries
 * the session's CSRF token in its `_csrf` field (compared in constant time), or is refused 403.
 */
import type { MiddlewareHandler } from "hono";
import type { DomainContext } from "../../domain/context.ts";
import { readSession } from "../../domain/members/read_session.ts";
import { readAppCookie, SESSION_COOKIE } from "./session_cookie.ts";
import type { WebEnv } from "./web_env.ts";
import { ErrorPage } from "./layout.tsx";

export const CHOOSE_PASSWORD_PATH = "/app/password";

export function requireMember(ctx: DomainContext): MiddlewareHandler<WebEnv> {
  return async (c, next) => {
    const token = readAppCookie(c, SESSION_COOKIE);
    const member = await readSession(ctx, token);
    if (!member || !token) {
      const url = new URL(c.req.url);
      const back = c.req.method === "GET" ? url.pathname + url.search : "/app";
      return c.redirect(`/app/sign-in?next=${encodeURIComponent(back)}`, 303);
    }
    if (member.mustChoosePassword && new URL(c.req.url).pathname !== CHOOSE_PASSWORD_PATH) {
      return c.redirect(CHOOSE_PASSWORD_PATH, 303);
    }
    c.set("member", member);
    c.set("sessionToken", token);
    await next();
  };
}

export function requireCsrf(): MiddlewareHandler<WebEnv> {
  return async (c, next) => {
    if (c.req.method !== "POST") return await next();
    const form = await c.req.parseBody();
    const sent = typeof form._csrf === "string" ? form._csrf : "";
    if (!sameToken(sent, c.get("member").csrfToken)) {
      c.status(403);
      return c.html(
        <ErrorPage
          title="This form has expired"
          message="The page was open too long or came from elsewhere. Go back, reload it and try again."
        />,
      );
    }
    await next();
  };
}

/** Constant-time comparison of two tokens. */
export function sameToken(a: string, b: string): boolean {
  const left = new TextEncoder().encode(a);
  const right = new TextEncoder().encode(b);
  if (left.length !== right.length || left.length === 0) return false;
  let difference = 0;
  for (let i = 0; i < left.length; i++) difference |= left[i] ^ right[i];
  return difference === 0;
}
