/**
 * What `POST /api/v1/find` answers (spec §2.5), before the billing fields are added. Every
 * outcome is an answer: `found` false with a `reason` when no verified address is delivered.
 */

import type { MailProvider } from "../verify/mod.ts";

export const FIND_MODES = ["email", "company", "network"] as const;
export type FindMode = typeof FIND_MODES[number];

export const FIND_REASONS = [
  "not-found",
  "catch-all",
  "unusable-domain",
  "free-mail-domain",
  "disposable-domain",
  "do-not-contact",
  "verification-unavailable",
  "company-not-found",
  "profile-not-found",
  "invalid-input",
  "insufficient-credits",
] as const;
export type FindReason = typeof FIND_REASONS[number];

export const EMAIL_STATUSES = ["valid", "invalid", "catch-all", "unknown"] as const;
export type EmailStatus = typeof EMAIL_STATUSES[number];

/** The person the lookup was about, as far as it was resolved. */
export interface FoundPerson {
  name: string;
  given: string | null;
  surname: string | null;
  title: string | null;
  companyName: string | null;
  companyDomain: string | null;
  location: string | null;
  networkUrl: string | null;
}

/** The professional-network profile a `network`-mode lookup resolved. */
export interface ResolvedProfile {
  networkUrl: string;
  name: string;
  headline: string | null;
  title: string | null;
  companyName: string | null;
  companyDomain: string | null;
  location: string | null;
}

/** How the company became a mail domain. */
export interface ResolvedCompany {
  name: string | null;
  domain: string;
  /** `request` (email mode), `directory` (our records) or the outside resolver (`wikidata`). */
  source: string;
}

/** The evidence behind `status`. */
export interface VerificationEvidence {
  /** `smtp`: a mail server answered now; `directory`: our records hold a recent verification. */
  method: "smtp" | "directory";
  mxHost: string | null;
  /** Who runs `mxHost` (`mail_provider.ts`); null with no MX host. */
  provider: MailProvider | null;
  smtpCode: number | null;
  enhancedStatus: string | null;
  /** Whether the SMTP session ran over TLS; null when no session was held. */
  encrypted: boolean | null;
  /** Whether its certificate was verified; null without TLS. */
  certificateVerified: boolean | null;
  checkedAt: string;
}

export interface FindAnswer {
  found: boolean;
  email: string | null;
  status: EmailStatus;
  confidence: number;
  person: FoundPerson | null;
  resolvedProfile: ResolvedProfile | null;
  company: ResolvedCompany | null;
  verification: VerificationEvidence | null;
  reason: FindReason | null;
  /**
   * With `verification-unavailable` when asking again later is expected to get further (a mail
   * server greylisted the lookup, or paused us after a 421): the seconds until then.
   */
  retryAfterSeconds?: number;
}

/** Confidence that an address accepted at RCPT on a domain that is not catch-all is delivered. */
export const SMTP_VALID_CONFIDENCE = 0.95;
/** Confidence of a directory address verified within the configured maximum age. */
export const DIRECTORY_VALID_CONFIDENCE = 0.9;

/** An answer that delivers no address. */
export function notFound(
  reason: FindReason,
  status: EmailStatus,
  rest: Partial<FindAnswer> = {},
): FindAnswer {
  return {
    person: null,
    resolvedProfile: null,
    company: null,
    verification: null,
    ...rest,
    found: false,
    email: null,
    status,
    confidence: 0,
    reason,
  };
}
