/**
 * `POST /api/v1/verify`: one address to a verdict (`valid`, `invalid`, `catch-all`, or
 * `unknown`), on the shared billed-call mechanism: Idempotency-Key, the worst case held before
 * any work, one charge of `PRICE_VERIFY` per verdict (`lookup_verification.ts` says which
 * outcomes are verdicts), replays free. A workspace that cannot pay is answered `unknown` with
 * `insufficient-credits` before any DNS or SMTP. An address on the workspace's do-not-contact
 * list or the service-wide suppression list is answered `unknown` with `do-not-contact`, unbilled,
 * before any DNS or SMTP; a replay under an Idempotency-Key checks both lists again (free, as
 * every replay): an address listed since is answered `do-not-contact`.
 */
import { type Billing, runBilledCall } from "../billing/billed_call.ts";
import type { DomainContext } from "../context.ts";
import { checkAddress, type CheckedAddress } from "./address_checks.ts";
import { lookupVerification, refusedAddress, VERIFY_SCOPE } from "./lookup_verification.ts";
import { NO_MAIL_SETUP, type VerifyAnswer } from "./verify_answer.ts";

export type VerifiedEmail = VerifyAnswer & Billing;

export async function verifyEmail(
  ctx: DomainContext,
  input: { workspaceId: string; idempotencyKey?: string; email: string },
): Promise<VerifiedEmail> {
  const result = await runBilledCall<VerifyAnswer>(ctx, {
    workspaceId: input.workspaceId,
    scope: VERIFY_SCOPE,
    request: { email: input.email },
    idempotencyKey: input.idempotencyKey,
    worstCase: ctx.prices.verify,
    work: () => lookupVerification(ctx, input.workspaceId, input.email),
    store: (answer) => answer,
    // The lists may have grown since: a replay never answers about an address listed now.
    replay: async (stored) => {
      const address = checkAddress(input.email);
      return address.checks.syntax && await refusedAddress(ctx, input.workspaceId, address)
        ? refusal(address, "do-not-contact")
        : stored as VerifyAnswer;
    },
    reasonOf: (answer) => answer.reason ?? answer.status,
  });
  if (result.kind === "insufficient") {
    return { ...refusal(checkAddress(input.email), "insufficient-credits"), ...result.billing };
  }
  return { ...result.answer, ...result.billing };
}

/** An answer given without any DNS or SMTP: `unknown`, for the reason. */
function refusal(
  address: CheckedAddress,
  reason: "do-not-contact" | "insufficient-credits",
): VerifyAnswer {
  return {
    email: address.email,
    status: "unknown",
    reason,
    confidence: 0,
    checks: address.checks,
    mail: NO_MAIL_SETUP,
    verification: null,
    retryAfterSeconds: null,
    cached: false,
  };
}
