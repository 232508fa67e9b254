/**
 * `/app/password`: a member chooses their own password. After a one-time password (the first
 * sign-in, or after `admin user reset-password`) every page leads here, and the new password is
 * all it asks. A member with a password of their own changes it only by typing the current one
 * too (each check counted against the sign-in budget). Either way the other sessions end.
 */
import type { Hono } from "hono";
import type { DomainContext } from "../../domain/context.ts";
import { ServiceError } from "../../domain/errors.ts";
import { choosePassword } from "../../domain/members/choose_password.ts";
import { MIN_PASSWORD_LENGTH } from "../../domain/members/password.ts";
import { hashSessionToken } from "../../domain/members/session.ts";
import type { MemberSession } from "../../domain/members/session.ts";
import { clientAddressOf } from "./client_address.ts";
import { CsrfField, Notice, PlainPage } from "./layout.tsx";
import { CHOOSE_PASSWORD_PATH, requireCsrf, requireMember } from "./require_member.tsx";
import type { WebEnv } from "./web_env.ts";

/** A refusal's message. No password typed is ever written back into the page. */
interface PasswordFormState {
  error?: string;
}

function PasswordForm(props: { member: MemberSession; state?: PasswordFormState }) {
  const { member } = props;
  const oneTime = member.mustChoosePassword;
  return (
    <PlainPage title={oneTime ? "Choose your password" : "Change your password"}>
      <p class="muted">
        {oneTime
          ? "You signed in with a one-time password. Choose your own to continue"
          : "Type your current password, then the new one"} (at least {MIN_PASSWORD_LENGTH}{" "}
        characters).{oneTime ? null : " Your other sessions will be signed out."}
      </p>
      {props.state?.error ? <Notice kind="error">{props.state.error}</Notice> : null}
      <form method="post" action={CHOOSE_PASSWORD_PATH} class="stack">
        <CsrfField member={member} />
        {oneTime ? null : (
          <div class="field">
            <label for="current-password">Current password</label>
            <input
              id="current-password"
              name="currentPassword"
              type="password"
              autocomplete="current-password"
              required
              autofocus
            />
          </div>
        )}
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
        <button type="submit">{oneTime ? "Save and continue" : "Change password"}</button>
      </form>
      {oneTime ? null : (
        <p class="muted" style="margin-top:1rem">
          <a href="/app">Back to the app</a>
        </p>
      )}
    </PlainPage>
  );
}

export function mountChoosePassword(web: Hono<WebEnv>, ctx: DomainContext): void {
  web.get(
    "/password",
    requireMember(ctx),
    (c) => c.html(<PasswordForm member={c.get("member")} />),
  );

  web.post("/password", requireMember(ctx), requireCsrf(), async (c) => {
    const form = await c.req.parseBody();
    const text = (name: string) => typeof form[name] === "string" ? form[name] as string : "";
    const typed = {
      currentPassword: text("currentPassword"),
      password: text("password"),
      confirmation: text("confirmation"),
    };
    const member = c.get("member");
    const refuse = (status: 400 | 429, error: string) => {
      c.status(status);
      return c.html(<PasswordForm member={member} state={{ error }} />);
    };
    try {
      const outcome = await choosePassword(ctx, {
        memberId: member.memberId,
        currentSessionHash: await hashSessionToken(c.get("sessionToken")),
        currentPassword: member.mustChoosePassword ? undefined : typed.currentPassword,
        password: typed.password,
        confirmation: typed.confirmation,
        clientAddress: clientAddressOf(c),
      });
      if (!outcome.ok && outcome.reason === "rate-limited") {
        c.header("Retry-After", String(outcome.retryAfterSeconds));
        return refuse(
          429,
          `Too many attempts. Try again in ${outcome.retryAfterSeconds} seconds. Your password is unchanged.`,
        );
      }
      if (!outcome.ok) {
        return refuse(400, "Your current password is not right. Your password is unchanged.");
      }
    } catch (error) {
      if (!(error instanceof ServiceError) || error.code !== "validation_error") throw error;
      return refuse(400, error.message);
    }
    return c.redirect("/app", 303);
  });
}
