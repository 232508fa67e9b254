/**
 * The verification engine (DNS + SMTP), the door the rest of the service goes through: find and
 * the bulk runner verify through the `EmailVerifier` port, `build_ports.ts` builds the engine in
 * this process or the remote verifier's client, and `verifier.ts` serves the engine to others.
 * How a lookup runs: docs/api.md; why: docs/decisions/0001-verify-as-mail-servers-do.md.
 */
export type {
  EmailVerifier,
  MailDomainFacts,
  SmtpEvidence,
  UnavailableWhy,
  UnusableWhy,
  VerificationOutcome,
  VerificationRequest,
} from "./email_verifier.ts";
export { createSmtpVerifier, type SmtpSessionEvent } from "./smtp_verifier.ts";
export {
  checkRemoteVerifierCredentials,
  createRemoteVerifier,
  CREDENTIALS_REFUSED,
  logRemoteVerifierCheck,
} from "./remote_verifier.ts";
export { createVerifierHandler } from "./verifier_server.ts";
export { coalesceByDomain } from "./coalesce_by_domain.ts";
export { createLeasedHostSessionSlots, SLOT_LEASE_MS } from "./leased_host_session_slots.ts";
export { MAIL_PROVIDERS, type MailProvider, mailProviderOf } from "./mail_provider.ts";
export { isPublicAddress } from "./is_public_address.ts";
