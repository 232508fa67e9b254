/**
 * The port every find lookup verifies through: the engine in this process (DNS + SMTP) or a
 * remote verifier over HTTP (for hosts whose outbound port 25 is closed). Both give the same
 * outcomes for the same request. An outcome is a value; the engine never throws for a
 * provider's failure (only for a bug).
 */
import type { MailProvider } from "./mail_provider.ts";

export interface VerificationRequest {
  /** The bare mail domain, lower case (e.g. `acme.com`). */
  domain: string;
  /** Full addresses at `domain`, in the order to try; the first accepted one wins. */
  candidates: string[];
}

/** The reply that decided an outcome, for the caller's evidence. */
export interface SmtpEvidence {
  /** The MX host (as named in DNS, or the domain itself on the A/AAAA fallback). */
  mxHost: string;
  /** Who runs that host, from its name (`mail_provider.ts`): google, microsoft, … or other. */
  provider: MailProvider;
  /** The deciding SMTP reply code (e.g. 250, 550, 451), or null when none was read. */
  smtpCode: number | null;
  /** Its enhanced status code (`5.1.1`), or null when the server gave none. */
  enhancedStatus: string | null;
  /** Whether the session that read it ran over TLS (STARTTLS); null when no session was held. */
  encrypted: boolean | null;
  /**
   * Whether that TLS session's certificate chained to a trusted root (or `VERIFY_TLS_CA_FILE`)
   * for the MX name. Opportunistic TLS encrypts either way; null without TLS.
   */
  certificateVerified: boolean | null;
  /** When the deciding reply was read (ISO 8601). */
  checkedAt: string;
}

export type UnusableWhy = "nxdomain" | "null-mx" | "no-mail-host" | "no-public-address";

export type UnavailableWhy =
  | "greylisted" // 4xx on the first try and on the one retry (retryAfterSeconds says when to ask again)
  | "policy" // 5.7.x, client host, spam or block replies: we were refused, not the mailbox
  | "sender-rejected" // our envelope sender was refused (5.1.8, "Sender address rejected")
  | "hosts-down" // no MX host could be reached, or every one dropped us or said 421
  | "timeout" // a command or the whole lookup ran out of time
  | "dns-error" // the resolver could not answer (SERVFAIL, REFUSED, timeout), not NXDOMAIN
  | "tls-error" // the TLS handshake itself failed and the plaintext retry could not connect
  | "unexpected-reply" // a reply that says neither yes, no, later nor "refused" (e.g. 552, 500)
  | "verifier-error"; // the remote verifier could not be asked or answered nonsense

export type VerificationOutcome =
  /** A candidate was accepted (250/251) on a domain that rejected the random probe. */
  | { kind: "valid"; address: string; evidence: SmtpEvidence }
  /** Every candidate was rejected (550/551/553 or 5.1.x). */
  | { kind: "rejected"; evidence: SmtpEvidence }
  /** The random probe was accepted: the domain accepts everything, so no candidate can be told. */
  | { kind: "catch-all"; evidence: SmtpEvidence }
  /**
   * No mail can go there from the internet: NXDOMAIN, a null MX (RFC 7505), neither MX nor
   * A/AAAA records, MX hosts that do not exist (`no-mail-host`), or mail hosts whose only
   * addresses are not global (`no-public-address`: loopback, private, link-local…, never dialled).
   */
  | { kind: "unusable-domain"; why: UnusableWhy }
  /**
   * Verification was not possible now; never read as invalid. `retryAfterSeconds`: when asking
   * again is expected to get further (still `greylisted`: when the server's delay has passed,
   * counted from its first deferral; `hosts-down` on a host paused after a 421: when the pause
   * ends). Asked again, the lookup asks the same recipients from the same sender.
   */
  | {
    kind: "unavailable";
    why: UnavailableWhy;
    evidence: SmtpEvidence | null;
    retryAfterSeconds?: number;
  };

export interface EmailVerifier {
  verify(request: VerificationRequest): Promise<VerificationOutcome>;
  /**
   * Several people at one domain at once, sharing SMTP sessions (one catch-all probe, RCPTs
   * packed within the per-session cap): one outcome per request, in order, each what `verify`
   * would have answered. Only the engine in this process has it; callers fall back to `verify`.
   */
  verifyBatch?(requests: VerificationRequest[]): Promise<VerificationOutcome[]>;
}
