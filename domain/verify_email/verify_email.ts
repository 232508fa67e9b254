/**
 * `POST /api/v1/verify`: one address to a verdict (`valid`, `invalid`, `catch-all`, or
 * `unknown`), on the shared billed-call mechanism: Idempotency-Key, the worst case held before
 * any work, one charge of `PRICE_VERIFY` per verdict (`lookup_verification.ts` says which
 * outcomes are verdicts), replays free. A workspace that cannot pay is answered `unknown` with
 * `insufficient-credits` before any DNS or SMTP.
 */
import { type Billing, runBilledCall } from "../billing/billed_call.ts";
import type { DomainContext } from "../context.ts";
import { checkAddress } from "./address_checks.ts";
import { lookupVerification, VERIFY_SCOPE } from "./lookup_verification.ts";
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
    replay: (stored) => stored as VerifyAnswer,
    reasonOf: (answer) => answer.reason ?? answer.status,
  });
  if (result.kind === "insufficient") {
    const address = checkAddress(input.email);
    return {
      email: address.email,
      status: "unknown",
      reason: "insufficient-credits",
      confidence: 0,
      checks: address.checks,
      mail: NO_MAIL_SETUP,
      verification: null,
      retryAfterSeconds: null,
      cached: false,
      ...result.billing,
    };
  }
  return { ...result.answer, ...result.billing };
}
