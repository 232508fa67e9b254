/**
 * Sign-in and sign-out (choosing a password is `choose_password.tsx`). The sign-in form's CSRF
 * token is a random value in its own short-lived cookie and in the form (double submit), since
 * there is no session yet.
 */
import type { Hono } from "hono";
import type { DomainContext } from "../../domain/context.ts";
import { newSessionToken } from "../../domain/members/session.ts";
import { signIn } from "../../domain/members/sign_in.ts";
import { signOut } from "../../domain/members/sign_out.ts";
import { clientAddressOf } from "./client_address.ts";
import { Notice, PlainPage } from "./layout.tsx";
import { CHOOSE_PASSWORD_PATH, requireCsrf, requireMember, sameToken } from "./require_member.tsx";
import {
  clearAppCookie,
  readAppCookie,
  SESSION_COOKIE,
  setAppCookie,
  SIGN_IN_CSRF_COOKIE,
} from "./session_cookie.ts";
import type { WebEnv } from "./web_env.ts";

/**
 * Only a path inside the app may be the place to return to after signing in: `next` is resolved
 * against this origin as a browser would (dot segments, `\\`, percent-encoded dots), and kept,
 * as resolved, only when it stays on this origin at `/app` or below; anything else is `/app`.
 */
export function safeNext(raw: unknown, origin: string): string {
  if (typeof raw !== "string" || raw === "") return "/app";
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return "/app";
  }
  const inApp = url.pathname === "/app" || url.pathname.startsWith("/app/");
  return url.origin === new URL(origin).origin && inApp ? url.pathname + url.search : "/app";
}

function SignInForm(props: { csrf: string; next: string; email?: string; error?: string }) {
  return (
    <PlainPage title="Sign in">
      {props.error ? <Notice kind="error">{props.error}</Notice> : null}
      <form method="post" action="/app/sign-in" class="stack">
        <input type="hidden" name="_csrf" value={props.csrf} />
        <input type="hidden" name="next" value={props.next} />
        <div class="field">
          <label for="email">Email</label>
          <input
            id="email"
            name="email"
            type="email"
            autocomplete="username"
            required
            value={props.email ?? ""}
            autofocus
          />
        </div>
        <div class="field">
          <label for="password">Password</label>
          <input
            id="password"
            name="password"
            type="password"
            autocomplete="current-password"
            required
          />
        </div>
        <button type="submit">Sign in</button>
      </form>
      <p class="muted" style="margin-top:1rem">
        No account yet, or forgotten your password? Ask the owner of your workspace, or whoever runs
        this service for you: they can add you and send you a one-time password.
      </p>
    </PlainPage>
  );
}

export function mountSignIn(web: Hono<WebEnv>, ctx: DomainContext): void {
  web.get("/sign-in", (c) => {
    const csrf = newSessionToken();
    setAppCookie(c, SIGN_IN_CSRF_COOKIE, csrf);
    return c.html(
      <SignInForm csrf={csrf} next={safeNext(c.req.query("next"), new URL(c.req.url).origin)} />,
    );
  });

  web.post("/sign-in", async (c) => {
    const form = await c.req.parseBody();
    const email = typeof form.email === "string" ? form.email : "";
    const password = typeof form.password === "string" ? form.password : "";
    const next = safeNext(form.next, new URL(c.req.url).origin);
    const sentCsrf = typeof form._csrf === "string" ? form._csrf : "";
    const cookieCsrf = readAppCookie(c, SIGN_IN_CSRF_COOKIE) ?? "";
    const retry = (status: 400 | 401 | 403 | 429, error: string) => {
      const csrf = newSessionToken();
      setAppCookie(c, SIGN_IN_CSRF_COOKIE, csrf);
      c.status(status);
      return c.html(<SignInForm csrf={csrf} next={next} email={email} error={error} />);
    };
    if (!sameToken(sentCsrf, cookieCsrf)) {
      return retry(403, "This sign-in form has expired. Please try again.");
    }
    if (!email.trim() || !password) return retry(400, "Enter your email and password.");
    const outcome = await signIn(
      ctx,
      { email, password, clientAddress: clientAddressOf(c) },
    );
    if (!outcome.ok && outcome.reason === "rate-limited") {
      c.header("Retry-After", String(outcome.retryAfterSeconds));
      return retry(
        429,
        `Too many sign-in attempts. Try again in ${outcome.retryAfterSeconds} seconds.`,
      );
    }
    if (!outcome.ok) return retry(401, "Wrong email or password.");
    clearAppCookie(c, SIGN_IN_CSRF_COOKIE);
    setAppCookie(c, SESSION_COOKIE, outcome.token, outcome.expiresAt);
    return c.redirect(outcome.mustChoosePassword ? CHOOSE_PASSWORD_PATH : next, 303);
  });

  web.post("/sign-out", requireMember(ctx), requireCsrf(), async (c) => {
    await signOut(ctx, c.get("sessionToken"));
    clearAppCookie(c, SESSION_COOKIE);
    return c.redirect("/app/sign-in", 303);
  });
}
