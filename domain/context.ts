/**
 * Everything a domain verb may use, built once in main.ts (or a test harness) and passed in.
 * Routes hand it to verbs; they never reach the stores themselves.
 */
import type { ChargeUnits, EmailVerifier, Telemetry } from "./ports.ts";
import type { PriceTable } from "./config/config.ts";
import type { Authenticate } from "./auth/authenticate.ts";
import type { Fingerprinter } from "./idempotency/fingerprint.ts";
import type { IdempotencyRecords } from "./idempotency/claim_idempotency_key.ts";
import type { RateLimiter } from "./rate_limit/rate_limiter.ts";
import type { Clock } from "./shared/clock.ts";
import type { Logger } from "./shared/logger.ts";
import type { Database, TransactionSql } from "./stores/database.ts";
import type { NameModel } from "../model/types.ts";
import type { CompanyResolver } from "./providers/company_resolver/port.ts";
import type { ReverseLookup } from "./providers/reverse_lookup/port.ts";
import type { WebSearch } from "./providers/web_search/port.ts";
import type { ResultCache } from "./lookups/result_cache.ts";
import type { ProfileNetwork } from "./shared/profile_network.ts";
import type { WebhookSettings } from "./webhooks/webhook_settings.ts";
import type { SecretSeal } from "./webhooks/sealed_secret.ts";
import type { PersonKeys } from "./privacy/person_keys.ts";
import type { OptOutLinks } from "./privacy/opt_out_link.ts";
import type { MailSender } from "./providers/mail_submission/port.ts";

/** The outside services a verb may reach, each a port with a fake beside it for tests. */
export interface Ports {
  /** DNS + SMTP verification here, or a remote verifier (`VERIFIER_URL`). */
  verifier: EmailVerifier;
  /** Company name → web domain (`COMPANY_RESOLVER`). */
  companyResolver: CompanyResolver;
  /** Public profile pages (`NETWORK_SEARCH_PROVIDER`); null: the directory alone answers. */
  webSearch: WebSearch | null;
  /** Enrich's reverse-lookup sources, in the order they are consulted (Gravatar, GitHub). */
  reverseLookups: ReverseLookup[];
  /** The operator's mail submission server (`MAIL_SUBMISSION_URL`); absent: none configured. */
  mailSender?: MailSender | null;
}

/** Settings verbs read (the rest of the configuration stays in main.ts). */
export interface LookupSettings {
  /** How recent a directory address must be to answer find without SMTP. */
  verifiedEmailMaxAgeDays: number;
  /** The professional network whose profile pages the lookups read (`NETWORK_PROFILE_*`). */
  network: ProfileNetwork;
  /** How long enrich answers from what it wrote to the directory before asking every source again. */
  enrichMaxAgeDays: number;
  /**
   * Days a bulk job's rows are kept after the job ends (`BULK_RESULTS_RETENTION_DAYS`); 0: kept for
   * good.
   */
  bulkResultsRetentionDays: number;
  /** How webhooks are sent (default: https at global addresses, 15 s an attempt). */
  webhooks?: WebhookSettings;
  /**
   * Seconds a verify verdict is answered again from KV without SMTP (`VERIFY_CACHE_SECONDS`, the
   * engine's own window for mail hosts and catch-all verdicts); absent or 0: never.
   */
  verifyCacheSeconds?: number;
  /** The public opt-out page (`PUBLIC_URL`, `PRIVACY_CONTACT`, `OPT_OUT_LINK_HOURS`). */
  privacy?: PrivacySettings;
}

export interface PrivacySettings {
  /** The service's address as people reach it: the confirmation link starts with it. */
  publicUrl: string | null;
  /** Where people write to the operator, shown when no mail can be sent. */
  contact: string | null;
  /** How long a confirmation link works. */
  linkHours: number;
}

/**
 * The part of a context a verb that only reads or writes the database needs: callers pass their
 * whole context (a route its `ctx`, a test its env, the admin CLI `{ db }`), never a handle.
 */
export interface DbContext {
  db: Pick<Database, "sql">;
}

/**
 * What a step of a caller's transaction needs: the transaction itself. The step neither begins
 * nor commits, so what it writes stands or falls with the rest of the caller's work (a
 * reservation with the run it pays for, a job's end with its webhooks). Callers pass `{ tx }`.
 */
export interface TxContext {
  tx: TransactionSql;
}

export interface DomainContext extends Ports {
  db: Database;
  kv: Deno.Kv;
  clock: Clock;
  logger: Logger;
  prices: PriceTable;
  authenticate: Authenticate;
  rateLimiter: RateLimiter;
  charge: ChargeUnits;
  fingerprint: Fingerprinter;
  idempotency: IdempotencyRecords;
  /** The loaded name model, or null when absent (the rule answers). */
  nameModel: NameModel | null;
  settings: LookupSettings;
  /** Network-search and enrich answers kept for `SEARCH_CACHE_SECONDS`. */
  resultCache: ResultCache;
  /** Seals and opens webhook signing secrets under a key derived from the server secret. */
  webhookSecrets: SecretSeal;
  /** Keyed fingerprints of people, for the service-wide suppression list (privacy/). */
  personKeys: PersonKeys;
  /** Seals and opens opt-out confirmation links under a key derived from the server secret. */
  optOutLinks: OptOutLinks;
  /** Metrics and spans of the work (`observability/telemetry.ts`); the no-op in most tests. */
  telemetry: Telemetry;
}

/** What background runners need: a Worker thread builds just this, not the whole context. */
export type RunnerContext = Pick<DomainContext, "db" | "clock" | "logger"> & {
  /** Absent on a Worker thread: its counts would stay in the thread (docs/operations.md). */
  telemetry?: Telemetry;
};
