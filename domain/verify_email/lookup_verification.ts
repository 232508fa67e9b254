/**
 * The verification of one address, with the part it makes billable: the checks of the address
 * (`address_checks.ts`), then the workspace's do-not-contact list and the service-wide suppression
 * list (privacy/: the address, or it without its `+tag`), then a verdict of the
 * verification cache window, else the engine every find lookup goes through (`ctx.verifier`, the
 * `EmailVerifier` port: DNS, SMTP with its per-host sessions, RCPT cap and greylisting retry, or
 * the remote verifier) asked about the address alone. The single call bills the part through
 * `runBilledCall`, a bulk job's row from the job's reservation (domain/bulk/answer_bulk_row.ts).
 *
 * Billed: a verdict (`valid`, `invalid` from SMTP or DNS, `catch-all`), fresh or from the cache.
 * Free: `invalid-syntax` (refused before any DNS or SMTP, as find's `invalid-input`), `unknown`
 * (nothing could be told now) and `do-not-contact` (either list; nothing is asked). Only verdicts are kept for the window: an
 * `unknown`, a sender or client refusal above all, is asked again next time. The cache keys on an
 * HMAC fingerprint of the address and keeps the answer without the address.
 */
import type { BillablePart, WorkOutcome } from "../billing/billed_call.ts";
import type { DomainContext } from "../context.ts";
import { isDoNotContact } from "../do_not_contact/is_do_not_contact.ts";
import { isSuppressed } from "../privacy/is_suppressed.ts";
import type { VerificationEvidence } from "../find/find_answer.ts";
import { createResultCache } from "../lookups/result_cache.ts";
import { mailProviderOf, type VerificationOutcome } from "../verify/mod.ts";
import { checkAddress, type CheckedAddress } from "./address_checks.ts";
import {
  CATCH_ALL_CONFIDENCE,
  DOMAIN_REFUSED_CONFIDENCE,
  MAILBOX_REFUSED_CONFIDENCE,
  NO_MAIL_SETUP,
  VALID_CONFIDENCE,
  type VerifyAnswer,
  type VerifyReason,
} from "./verify_answer.ts";

export const VERIFY_SCOPE = "verify";

const VERDICT_PART: BillablePart = { part: "", price: "verify" };

/** Outcomes after which a retry with the same Idempotency-Key runs again instead of replaying. */
const RETRYABLE_STATUSES = new Set(["unknown"]);

/** What the cache keeps: nothing of the address (the checks, `didYouMean` included, are re-read). */
type Stored = Omit<VerifyAnswer, "email" | "cached" | "checks">;

export function isVerdict(answer: Pick<VerifyAnswer, "status" | "reason">): boolean {
  return answer.status !== "unknown" && answer.reason !== "invalid-syntax";
}

function outcome(answer: VerifyAnswer): WorkOutcome<VerifyAnswer> {
  return {
    answer,
    parts: isVerdict(answer) ? [VERDICT_PART] : [],
    final: !RETRYABLE_STATUSES.has(answer.status),
  };
}

export async function lookupVerification(
  ctx: DomainContext,
  workspaceId: string,
  input: string,
): Promise<WorkOutcome<VerifyAnswer>> {
  const address = checkAddress(input);
  const base = {
    email: address.email,
    checks: address.checks,
    mail: NO_MAIL_SETUP,
    verification: null,
    retryAfterSeconds: null,
    cached: false,
  };
  if (!address.checks.syntax) {
    return outcome({ ...base, status: "invalid", reason: "invalid-syntax", confidence: 1 });
  }
  if (await refusedAddress(ctx, workspaceId, address)) {
    return outcome({ ...base, status: "unknown", reason: "do-not-contact", confidence: 0 });
  }
  const cache = createResultCache({
    kv: ctx.kv,
    clock: ctx.clock,
    fingerprint: ctx.fingerprint,
    ttlSeconds: ctx.settings.verifyCacheSeconds ?? 0,
  });
  const known = await cache.get<Stored>(VERIFY_SCOPE, verifyCacheRequest(address.email));
  if (known) {
    // The checks are read again: they cost nothing, hold the address (`didYouMean`) and follow
    // the lists this release carries.
    return outcome({ ...known, email: address.email, checks: address.checks, cached: true });
  }
  let verified: VerificationOutcome;
  try {
    verified = await ctx.verifier.verify({ domain: address.domain, candidates: [address.email] });
  } catch (error) {
    // The engine refuses a request it cannot read (RangeError): an address our syntax check let
    // through but the SMTP envelope cannot carry.
    if (error instanceof RangeError) {
      return outcome({ ...base, status: "invalid", reason: "invalid-syntax", confidence: 1 });
    }
    throw error;
  }
  const answer = answerOf(address, verified);
  if (isVerdict(answer)) {
    const { email: _email, cached: _cached, checks: _checks, ...stored } = answer;
    await cache.set(VERIFY_SCOPE, verifyCacheRequest(address.email), stored satisfies Stored);
  }
  return outcome(answer);
}

/**
 * Whether the address may not be asked about: the workspace's do-not-contact list names it or its
 * domain, or the service-wide suppression list names it. Checked before any cache, DNS or SMTP,
 * and again on a replay (the lists may have grown since).
 */
export async function refusedAddress(
  ctx: DomainContext,
  workspaceId: string,
  address: Pick<CheckedAddress, "email" | "domain">,
): Promise<boolean> {
  return await isDoNotContact(ctx, { workspaceId, email: address.email, domain: address.domain }) ||
    await isSuppressed(ctx, { emails: [address.email] });
}

/** The cache key's request for an address (erasure deletes the verdict it keeps). */
export function verifyCacheRequest(email: string): { email: string } {
  return { email };
}

const UNAVAILABLE_REASONS: Record<
  Extract<VerificationOutcome, { kind: "unavailable" }>["why"],
  VerifyReason
> = {
  "greylisted": "greylisted",
  "policy": "client-rejected",
  "sender-rejected": "sender-rejected",
  "hosts-down": "mail-server-unreachable",
  "timeout": "timeout",
  "dns-error": "dns-error",
  "tls-error": "tls-error",
  "unexpected-reply": "unexpected-reply",
  "verifier-error": "verifier-unavailable",
};

const UNUSABLE_REASONS: Record<
  Extract<VerificationOutcome, { kind: "unusable-domain" }>["why"],
  VerifyReason
> = {
  "nxdomain": "domain-not-found",
  "null-mx": "null-mx",
  "no-mail-host": "no-mail-server",
  "no-public-address": "no-mail-server",
};

/** The answer the engine's outcome makes, for the address it was asked about. */
export function answerOf(address: CheckedAddress, verified: VerificationOutcome): VerifyAnswer {
  const mxHosts = verified.mailHosts ?? [];
  const evidence = "evidence" in verified ? verified.evidence : null;
  const verification: VerificationEvidence | null = evidence
    ? { method: "smtp", ...evidence }
    : null;
  const provider = evidence?.provider ?? (mxHosts[0] ? mailProviderOf(mxHosts[0]) : null);
  const base = {
    email: address.email,
    checks: address.checks,
    verification,
    retryAfterSeconds: null,
    cached: false,
  };
  const mail = (acceptsMail: boolean | null, catchAll: boolean | null) => ({
    mxHosts,
    acceptsMail,
    provider,
    catchAll,
  });
  switch (verified.kind) {
    case "valid":
      return {
        ...base,
        status: "valid",
        reason: null,
        confidence: VALID_CONFIDENCE,
        mail: mail(true, false),
      };
    case "rejected":
      return {
        ...base,
        status: "invalid",
        reason: "mailbox-not-found",
        confidence: MAILBOX_REFUSED_CONFIDENCE,
        // The engine calls a mailbox rejected only after the random probe was refused too (or
        // the domain is known not to be catch-all).
        mail: mail(true, false),
      };
    case "catch-all":
      return {
        ...base,
        status: "catch-all",
        reason: "catch-all",
        confidence: CATCH_ALL_CONFIDENCE,
        mail: mail(true, true),
      };
    case "unusable-domain":
      return {
        ...base,
        status: "invalid",
        reason: UNUSABLE_REASONS[verified.why],
        confidence: DOMAIN_REFUSED_CONFIDENCE,
        mail: { ...mail(false, null), provider: null },
      };
    case "unavailable": {
      // The engine remembers greylisting and says when a retry can pass.
      const retryAfter = verified.retryAfterSeconds;
      return {
        ...base,
        status: "unknown",
        reason: UNAVAILABLE_REASONS[verified.why],
        confidence: 0,
        retryAfterSeconds: retryAfter === undefined ? null : Math.ceil(retryAfter),
        // Hosts were found (a DNS failure found none): the domain takes mail, if not from us now.
        mail: mail(mxHosts.length > 0 ? true : null, null),
      };
    }
  }
}
