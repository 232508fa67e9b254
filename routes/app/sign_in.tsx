/**
 * Sign-in, sign-out and choosing a password. The sign-in form's CSRF token is a random value in
 * its own short-lived cookie and in the form (double submit), since there is no session yet.
 */
import type { Hono } from "hono";
import { getConnInfo } from "hono/deno";
import type { DomainContext } from "../../domain/context.ts";
import { ServiceError } from "../../domain/errors.ts";
import { choosePassword } from "../../domain/members/choose_password.ts";
import { MIN_PASSWORD_LENGTH } from "../../domain/members/password.ts";
import { hashSessionToken, newSessionToken } from "../../domain/members/session.ts";
import { signIn } from "../../domain/members/sign_in.ts";
import { signOut } from "../../domain/members/sign_out.ts";
import { CsrfField, Notice, PlainPage } from "./layout.tsx";
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
        No account? An operator creates members with <code>deno task admin user create</code>.
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
    let clientAddress = "unknown";
    try {
      const remote = getConnInfo(c).remote;
      clientAddress = remote.address ?? "unknown";
    } catch { /* not served by Deno.serve (tests through app.request) */ }
    const outcome = await signIn(
      { sql: ctx.db.sql, clock: ctx.clock, rateLimiter: ctx.rateLimiter },
      { email, password, clientAddress },
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
    await signOut(ctx.db.sql, c.get("sessionToken"));
    clearAppCookie(c, SESSION_COOKIE);
    return c.redirect("/app/sign-in", 303);
  });

  const passwordForm = (csrf: WebEnv["Variables"]["member"], error?: string) => (
    <PlainPage title="Choose your password">
      <p class="muted">
        You signed in with a one-time password. Choose your own to continue (at least{" "}
        {MIN_PASSWORD_LENGTH} characters).
      </p>
      {error ? <Notice kind="error">{error}</Notice> : null}
      <form method="post" action={CHOOSE_PASSWORD_PATH} class="stack">
        <CsrfField member={csrf} />
        <div class="field">
          <label for="password">New password</label>
          <input
            id="password"
            name="password"
            type="password"
            autocomplete="new-password"
            minlength={MIN_PASSWORD_LENGTH}
            required
          />
        </div>
        <div class="field">
          <label for="confirmation">Repeat it</label>
          <input
            id="confirmation"
            name="confirmation"
            type="password"
            autocomplete="new-password"
            required
          />
        </div>
        <button type="submit">Save and continue</button>
      </form>
    </PlainPage>
  );

  web.get("/password", requireMember(ctx), (c) => c.html(passwordForm(c.get("member"))));
  web.post("/password", requireMember(ctx), requireCsrf(), async (c) => {
    const form = await c.req.parseBody();
    try {
      await choosePassword(ctx.db.sql, {
        memberId: c.get("member").memberId,
        currentSessionHash: await hashSessionToken(c.get("sessionToken")),
        password: typeof form.password === "string" ? form.password : "",
        confirmation: typeof form.confirmation === "string" ? form.confirmation : "",
      });
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      c.status(400);
      return c.html(passwordForm(c.get("member"), error.message));
    }
    return c.redirect("/app", 303);
  });
}
