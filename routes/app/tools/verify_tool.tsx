/**
 * `/app/tools/verify`: one address → a verdict, through the body schema, verb (`verifyEmail`) and
 * the `find` rate-limit budget of `POST /api/v1/verify` (the two share one engine and one budget).
 * The answer reads as a person reads it: a verdict line, then the checks, then the mail setup and
 * the SMTP reply that decided it.
 */
import type { Context, Hono } from "hono";
import type { DomainContext } from "../../../domain/context.ts";
import { insufficientCredits } from "../../../domain/billing/insufficient_credits.ts";
import type { VerifyStatus } from "../../../domain/verify_email/verify_answer.ts";
import { type VerifiedEmail, verifyEmail } from "../../../domain/verify_email/verify_email.ts";
import { VerifyBodySchema } from "../../v1/verify_email_schemas.ts";
import { points } from "../layout.tsx";
import { memberPage } from "../member_pages.ts";
import type { WebEnv } from "../web_env.ts";
import { EmailForm } from "./email_form.tsx";
import { ReasonBadge, ReasonSentence } from "./reasons.tsx";
import {
  answerToolForm,
  CostPanel,
  newFormKey,
  textField,
  ToolPage,
  TOOLS_PATH,
  type ToolState,
  utcTime,
  validated,
} from "./tool_call.tsx";

export const VERIFY_PATH = `${TOOLS_PATH}/verify`;

const LABELS = { email: "Email address" };

interface VerifyValues {
  email: string;
}

const VERDICTS: Record<VerifyStatus, { badge: string; text: string }> = {
  valid: { badge: "ok", text: "Valid: the mailbox exists" },
  invalid: { badge: "bad", text: "Invalid: mail to it would bounce" },
  "catch-all": { badge: "warn", text: "Catch-all: the domain accepts any address" },
  unknown: { badge: "", text: "Unknown: no verdict now" },
};

const yesNo = (value: boolean | null) => value === null ? "—" : value ? "yes" : "no";

export function mountVerifyTool(web: Hono<WebEnv>, ctx: DomainContext): void {
  web.get(
    "/tools/verify",
    memberPage(ctx),
    (c) => renderVerify(c, ctx, { values: { email: "" }, formKey: newFormKey() }),
  );

  web.post(
    "/tools/verify",
    memberPage(ctx),
    (c) =>
      answerToolForm<VerifyValues, VerifiedEmail>(c, ctx, {
        budget: "find",
        labels: LABELS,
        read: (form) => ({ email: textField(form, "email") }),
        run: async (values, call) => {
          const body = validated(VerifyBodySchema, values);
          const answer = await verifyEmail(ctx, { ...call, email: body.email });
          if (answer.reason === "insufficient-credits") {
            throw insufficientCredits(ctx.prices.verify, answer.balance?.available ?? 0);
          }
          return answer;
        },
        render: (c, state) => renderVerify(c, ctx, state),
      }),
  );
}

function renderVerify(
  c: Context<WebEnv>,
  ctx: DomainContext,
  state: ToolState<VerifyValues, VerifiedEmail>,
) {
  const member = c.get("member");
  const { values, answer } = state;
  return c.html(
    <ToolPage
      title="Verify email"
      member={member}
      intro={
        <>
          Check whether an address can receive mail before you send to it: its mail server is asked
          about the mailbox, and nothing is ever sent. {points(ctx.prices.verify)}{" "}
          points per verdict (valid, invalid or catch-all); nothing when no verdict can be had now.
          Shares its rate limit with find and the API’s verify calls. A whole list: the Bulk page.
        </>
      }
    >
      <EmailForm
        id="verify-form"
        action={VERIFY_PATH}
        submit="Verify"
        member={member}
        formKey={state.formKey}
        email={values.email}
        message={state.message}
      />
      {answer ? <VerifyAnswerPanel answer={answer.result} balance={answer.balance} /> : null}
    </ToolPage>,
  );
}

function VerifyAnswerPanel(
  props: { answer: VerifiedEmail; balance: NonNullable<VerifiedEmail["balance"]> },
) {
  const { answer } = props;
  const verdict = VERDICTS[answer.status];
  const { checks, mail, verification } = answer;
  const flags = [
    checks.disposable ? "a disposable (throwaway) domain" : null,
    checks.role ? "a role mailbox (a team or function, not a person)" : null,
    checks.freeMail ? "a free mailbox provider" : null,
  ].filter(Boolean);
  return (
    <section class="panel" aria-labelledby="verify-answer" data-answer="verify">
      <h2 id="verify-answer" data-status={answer.status}>
        <span class={`badge ${verdict.badge}`.trim()}>{answer.status}</span>{" "}
        {answer.reason && answer.reason !== answer.status
          ? (
            <>
              <ReasonBadge reason={answer.reason} />
              {" "}
            </>
          )
          : null}
        <span class="mono tool-url">{answer.email}</span>
      </h2>
      <p class="tool-strong">{verdict.text}</p>
      {answer.reason
        ? (
          <ReasonSentence
            tool="verify"
            reason={answer.reason}
            after={answer.retryAfterSeconds !== null
              ? `Retry after about ${answer.retryAfterSeconds} seconds.`
              : undefined}
          />
        )
        : null}
      {checks.didYouMean
        ? (
          <p class="tool-reason" data-did-you-mean={checks.didYouMean}>
            Did you mean{" "}
            <strong class="mono">{checks.didYouMean}</strong>? (Only a suggestion: the address above
            is the one verified.)
          </p>
        )
        : null}
      <h3>Checks</h3>
      <dl class="facts tool-facts">
        <dt>Well-formed</dt>
        <dd>{yesNo(checks.syntax)}</dd>
        <dt>Disposable domain</dt>
        <dd>{yesNo(checks.disposable)}</dd>
        <dt>Role mailbox</dt>
        <dd>{yesNo(checks.role)}</dd>
        <dt>Free mail</dt>
        <dd>{yesNo(checks.freeMail)}</dd>
        <dt>Confidence</dt>
        <dd>{answer.confidence.toFixed(2)}</dd>
      </dl>
      {flags.length > 0 ? <p class="muted">This is {flags.join(", ")}.</p> : null}
      <h3>Mail setup and evidence</h3>
      <dl class="facts tool-facts">
        <dt>Mail hosts</dt>
        <dd class="mono">{mail.mxHosts.length > 0 ? mail.mxHosts.join(", ") : "—"}</dd>
        <dt>Accepts mail</dt>
        <dd>{yesNo(mail.acceptsMail)}</dd>
        <dt>Provider</dt>
        <dd>{mail.provider ?? "—"}</dd>
        <dt>Catch-all</dt>
        <dd>{yesNo(mail.catchAll)}</dd>
        <dt>Deciding reply</dt>
        <dd>
          {verification
            ? (
              <>
                <span class="mono">
                  {verification.smtpCode ?? "—"} {verification.enhancedStatus ?? ""}
                </span>{" "}
                from <span class="mono">{verification.mxHost ?? "—"}</span>
                {verification.encrypted === null
                  ? null
                  : verification.encrypted
                  ? " over TLS"
                  : " unencrypted"}, {utcTime(verification.checkedAt)}
              </>
            )
            : <span class="muted">none (decided without an SMTP reply)</span>}
        </dd>
      </dl>
      {answer.cached
        ? (
          <p class="muted">
            Answered from a recent verification of this address (charged like a new one).
          </p>
        )
        : null}
      <CostPanel
        billing={answer}
        balance={props.balance}
        why={answer.status === "unknown" || answer.reason === "invalid-syntax"
          ? "No verdict was reached by asking a mail server, so nothing was charged."
          : undefined}
      />
    </section>
  );
}
