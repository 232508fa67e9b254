/**
 * The port every find lookup verifies through: the engine in this process (DNS + SMTP) or a
 * remote verifier over HTTP (for hosts whose outbound port 25 is closed). Both give the same
 * outcomes for the same request. An outcome is a value; the engine never throws for a
 * provider's failure (only for a bug).
 */
export type {
  EmailVerifier,
  MailDomainFacts,
  SmtpEvidence,
  UnavailableWhy,
  UnusableWhy,
  VerificationOutcome,
  VerificationRequest,
} from "../ports.ts";
