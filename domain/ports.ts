/**
 * The ports' types: the interfaces through which the domain reaches what it does not own (the
 * verification engine, the ledger's charger, the telemetry sinks). The context (`context.ts`)
 * and the wrappers that observe a port (`observability/observed_ports.ts`) depend on these types
 * only, never on an engine's entry point, so no circle forms through them. This module imports
 * nothing of ours; the modules that implement a port re-export its types from here.
 */

// ---- Who runs a domain's mail (`verify/mail_provider.ts` reads it from the MX host names) ----

/** The providers `verify/mail_provider.ts` recognizes; anything else is `other`. */
export type MailProvider =
  | "google"
  | "microsoft"
  | "proofpoint"
  | "mimecast"
  | "barracuda"
  | "cisco"
  | "trendmicro"
  | "sophos"
  | "forcepoint"
  | "yahoo"
  | "zoho"
  | "fastmail"
  | "apple"
  | "proton"
  | "yandex"
  | "amazon"
  | "other";

// ---- The verification port (`verify/`: the engine here, or a remote verifier) ----

/*
 * The port every find lookup verifies through: the engine in this process (DNS + SMTP) or a
 * remote verifier over HTTP (for hosts whose outbound port 25 is closed). Both give the same
 * outcomes for the same request. An outcome is a value; the engine never throws for a
 * provider's failure (only for a bug).
 */
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

export type VerificationOutcome = OutcomeKinds & {
  /**
   * The domain's mail hosts as the lookup read them (MX names by preference, or the domain itself
   * on the A/AAAA fallback), when it read them; never on `unusable-domain`; absent from a remote
   * verifier of an older release.
   */
  mailHosts?: string[];
};

type OutcomeKinds =
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

/**
 * What the engine knows of a domain's mail without any SMTP: its mail hosts (from its cache, else
 * one DNS question, then cached) and the catch-all verdict its last probe there cached.
 */
export type MailDomainFacts =
  | {
    kind: "hosts";
    /** MX host names in preference order (or the domain itself on the A/AAAA fallback). */
    hosts: string[];
    /** The cached catch-all verdict and when its probe was answered; null when none is cached. */
    catchAll: { catchAll: boolean; checkedAt: string } | null;
  }
  /** No mail can go there (NXDOMAIN, a null MX, neither MX nor address). */
  | { kind: "unusable"; why: "nxdomain" | "null-mx" | "no-mail-host" }
  /** The resolver could not answer now. */
  | { kind: "unknown" };

export interface EmailVerifier {
  verify(request: VerificationRequest): Promise<VerificationOutcome>;
  /**
   * What the engine knows of `domain`'s mail (see `MailDomainFacts`). Only the engine in this
   * process has it; without it (the remote verifier) callers answer that the mail is not known.
   */
  mailDomain?(domain: string): Promise<MailDomainFacts>;
  /**
   * Several people at one domain at once, sharing SMTP sessions (one catch-all probe, RCPTs
   * packed within the per-session cap): one outcome per request, in order, each what `verify`
   * would have answered. Only the engine in this process has it; callers fall back to `verify`.
   */
  verifyBatch?(requests: VerificationRequest[]): Promise<VerificationOutcome[]>;
}

// ---- The ledger's charger (`billing/charge_units.ts` builds it) ----

/** The spec's balance object (§2.1). */
export interface Balance {
  available: number;
  reserved: number;
  granted: number;
}

export interface ChargeRequest {
  workspaceId: string;
  amount: number;
  /** The billable unit (or group of units): unique per workspace. */
  chargeKey: string;
  /**
   * How many billable units this one posting pays for (default 1): the answered rows of one
   * chunk of a batch are charged together under the chunk's key.
   */
  units?: number;
  /** Price-table operation name, kept on the posting. */
  operation: string;
  /**
   * The key is random and never looked up (a call without an Idempotency-Key): the unit may
   * share one posting with other pooled units of the workspace and operation in the same flush.
   */
  pooled?: boolean;
  /** When the unit belongs to an idempotency record held under a lease. */
  idempotency?: {
    key: string;
    leaseToken: string;
    /** Mark the record done in the same transaction, storing this response (or null). */
    complete?: { response: unknown };
  };
}

export type ChargeOutcome = "charged" | "duplicate" | "insufficient" | "lease_lost";

export interface ChargeResult {
  outcome: ChargeOutcome;
  balance: Balance;
}

export type ChargeUnits = (requests: ChargeRequest[]) => Promise<ChargeResult[]>;

// ---- Telemetry (`observability/telemetry.ts`: the no-op and combining; the sinks beside it) ----

/*
 * What the domain tells about its work, as a port: timed operations (an SMTP session, a DNS
 * question, a provider call, the ledger charge) and counted events. The domain reports outcomes as
 * small fixed vocabularies; what becomes a Prometheus series or an OpenTelemetry span is decided
 * by the sinks (`prometheus_telemetry.ts`, `trace_telemetry.ts`), built once in main.ts.
 *
 * Nothing reported here may carry a name, an address, a domain, a host name or a key: only
 * provider names from fixed lists, outcomes, operations, budgets and (for the opt-in workspace
 * label) the workspace's opaque id.
 */
/** Outside services called over HTTP, as named in `provider_requests_total`. */
export type ProviderName =
  | "brave"
  | "serpapi"
  | "gravatar"
  | "github"
  | "wikidata"
  | "remote_verifier"
  | "other";

/** How one SMTP session ended, from the replies it read. */
export type SessionOutcome =
  | "accepted"
  | "rejected"
  | "greylisted"
  | "policy"
  | "sender_rejected"
  | "timeout"
  | "tls_failed"
  | "hosts_down"
  | "unexpected";

export type TimedOperation =
  | { kind: "smtp_session"; provider: MailProvider }
  | { kind: "dns_question"; type: "MX" | "A/AAAA" }
  | { kind: "provider_request"; provider: ProviderName }
  | { kind: "ledger_charge" }
  /** One claim of a bulk job: its rows' lookups are its children. */
  | { kind: "bulk_job" }
  /** One step of a lead-search run (a page or its end): what it causes is its child. */
  | { kind: "lead_search_run" };

export type CountedEvent =
  | { kind: "points_charged"; operation: string; points: number; workspaceId: string }
  | { kind: "lookup"; operation: string; reason: string; workspaceId: string }
  | { kind: "rate_limited"; budget: string; workspaceId: string }
  | { kind: "lease_takeover"; runs: number }
  | { kind: "idempotency_replay"; operation: string }
  /** A write-back to the directory skipped because the person is on the suppression list. */
  | { kind: "suppressed_write_back"; operation: string };

/**
 * Ends a timed operation with its outcome (one word of the operation's vocabulary). A sink that
 * makes spans also gives `within`: work run through it is a child of the operation's span.
 */
export type EndOperation = ((outcome: string) => void) & {
  within?: <T>(work: () => Promise<T>) => Promise<T>;
};

export interface Telemetry {
  begin(operation: TimedOperation): EndOperation;
  count(event: CountedEvent): void;
}
