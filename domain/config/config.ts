import type { WebhookSettings } from "../webhooks/webhook_settings.ts";
import { isIP } from "node:net";
import { normalizeApiKey } from "../auth/api_key.ts";
import { DEFAULT_PROFILE_NETWORK, type ProfileNetwork } from "../shared/profile_network.ts";

/**
 * Service configuration from environment variables. Every variable has a default, so the
 * service starts with no configuration at all (embedded PGlite + a local KV file).
 *
 * On Deno Deploy (`DENO_DEPLOYMENT_ID` set, which the platform sets for every deployment) the
 * defaults change and two settings become required: `DATABASE_URL` (the embedded database would
 * live on the instance's ephemeral disk, so one instance's charges would vanish with it) and
 * `SVC_SECRET` (never generated onto that disk). KV is the hosted one (`Deno.openKv()`), the
 * lead-search runner runs inline and is also driven from cron, and SMTP connects give up
 * quickly (outbound port 25 is not promised there: use the remote verifier).
 */

/** Points per billable unit. */
export interface PriceTable {
  /** One answered name (single or one batch row). */
  nameParse: number;
  /** One completed find lookup in `email` or `network` mode, and the email part of `company` mode. */
  findEmail: number;
  /** The company-lookup part of a `company`-mode find. */
  findCompany: number;
  /** One completed network search. */
  networkSearch: number;
  /** One completed email enrichment. */
  enrich: number;
  /** One delivered lead of a lead-search run. */
  lead: number;
  /** One address verified to a verdict (`valid`, `invalid`, `catch-all`). */
  verify: number;
  /** One page of a domain search that delivers at least one verified email. */
  domainSearch: number;
}

export const RATE_LIMIT_BUDGETS = [
  "account",
  "name_parse",
  "name_parse_batch",
  "find",
  "network_search",
  "enrich",
  "lead_search",
  "domain_search",
  "domain_count",
  "bulk",
  "sign_in",
  "opt_out",
] as const;
export type RateLimitBudget = typeof RATE_LIMIT_BUDGETS[number];

export interface RateLimitRule {
  limit: number;
  windowSeconds: number;
}

export interface Config {
  /** Set on Deno Deploy (`DENO_DEPLOYMENT_ID`): the deployment this instance serves. */
  deployment: { id: string } | null;
  port: number;
  hostname: string;
  dataDir: string;
  databaseUrl: string | null;
  /** A file, ":memory:", a KV Connect URL, or null for the platform's KV (`Deno.openKv()`). */
  kvPath: string | null;
  /** Secret for request fingerprints; null → generated once into DATA_DIR. */
  secret: string | null;
  /**
   * `IDLE_TIMEOUT_SECONDS` (default 75; 0 = never): a connection with no request in progress
   * (an idle keep-alive connection, or one whose request headers or body stopped arriving) is
   * closed after this long.
   */
  idleTimeoutMs: number;
  /**
   * `STOP_GRACE_SECONDS` (default 4): on SIGTERM/SIGINT, how long requests in progress may take
   * to finish before their connections are cut and the process exits.
   */
  stopGraceMs: number;
  /**
   * `SHUTDOWN_DRAIN_SECONDS` (default 0): on SIGTERM/SIGINT, how long `/readyz` answers 503 while
   * requests are still served, before the listener closes and `STOP_GRACE_SECONDS` begins: the
   * time a load balancer needs to see the instance go unready and stop sending it new requests.
   */
  shutdownDrainMs: number;
  prices: PriceTable;
  rateLimits: Record<RateLimitBudget, RateLimitRule>;
  bootstrap: { key: string; points: number } | null;
  /** Seconds a verified API key stays cached in process memory (revocation reaches a running instance within this). */
  authCacheSeconds: number;
  modelPath: string | null;
  logRequests: boolean;
  observability: ObservabilityConfig;
  verify: VerifyConfig;
  /** `VERIFIER_URL` + `VERIFIER_SECRET`: verify through a remote verifier instead of SMTP here. */
  remoteVerifier: { url: string; secret: string } | null;
  companyResolver: CompanyResolverConfig;
  webSearch: WebSearchConfig;
  /**
   * `NETWORK_PROFILE_HOST`, `NETWORK_PROFILE_PATH`, `NETWORK_TITLE_SUFFIX`: the professional
   * network whose profile pages network search, find's `network` mode and enrich read.
   */
  network: ProfileNetwork;
  reverseLookups: ReverseLookupConfig;
  /** The public opt-out page and its confirmation mail (docs/privacy.md). */
  privacy: PrivacyConfig;
  /** `ENRICH_MAX_AGE_DAYS`: how long an enrichment written to the directory answers alone. */
  enrichMaxAgeDays: number;
  /** `SEARCH_CACHE_SECONDS`: how long network-search and enrich answers stay in the KV result cache. */
  searchCacheSeconds: number;
  /** `PROVIDER_TIMEOUT_SECONDS`: the longest wait for an HTTP provider (web search, Gravatar, GitHub, Wikidata). */
  providerTimeoutMs: number;
  leadSearch: LeadSearchConfig;
  /**
   * `BULK_LEASE_SECONDS` (default 120): how long a runner's claim on a bulk job lasts without a
   * page; above the longest page (50 rows, each bounded by `VERIFY_LOOKUP_SECONDS`).
   */
  bulkLeaseMs: number;
  /**
   * `BULK_PAGE_DELAY_MS` (tests only; default 0): a pause before each bulk-job page, so a crash
   * test can kill a process while a job is half answered. Never set in production.
   */
  bulkPageDelayMs: number;
  /**
   * `BULK_GREYLIST_MAX_WAIT_SECONDS` (default 3600): how long a bulk job keeps asking a row whose
   * mail server greylists it before the row is given up as `verification-unavailable`.
   */
  bulkGreylistMaxWaitMs: number;
  /**
   * `BULK_RESULTS_RETENTION_DAYS` (default 30; 0 = kept for good): how
   * long after a bulk job ends its rows (submitted personal data and the answers) are kept.
   */
  bulkResultsRetentionDays: number;
  /** `WEBHOOK_ALLOW_PRIVATE_ADDRESSES`, `WEBHOOK_TIMEOUT_SECONDS` (webhook_settings.ts). */
  webhooks: WebhookSettings;
}

/** `/metrics` and traces (docs/operations.md). */
export interface ObservabilityConfig {
  /** `METRICS_TOKEN`: the bearer token a scraper sends; null: `/metrics` is off (404). */
  metricsToken: string | null;
  /** `METRICS_WORKSPACE_LABELS`: a `workspace` label on the per-workspace series (off by default). */
  workspaceLabels: boolean;
  /**
   * `OTEL_DENO=true`: the service exports its own spans over OTLP/HTTP to the standard
   * `OTEL_EXPORTER_OTLP_*` endpoint. Deno's built-in tracing must be off (`OTEL_DENO_TRACING=false`,
   * set by `deno task start`): it records every outgoing URL, query string included.
   */
  tracing: boolean;
  /**
   * `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`, else `OTEL_EXPORTER_OTLP_PROTOCOL`: how spans are sent,
   * `http/protobuf` (the default) or `http/json`. gRPC is not offered (start refuses it).
   */
  tracingProtocol: OtlpProtocol;
}

export const OTLP_PROTOCOLS = ["http/protobuf", "http/json"] as const;
export type OtlpProtocol = typeof OTLP_PROTOCOLS[number];

/** The lead-search runner (`LEAD_SEARCH_*`). */
export interface LeadSearchConfig {
  /**
   * `LEAD_SEARCH_RUNNER`: `worker` (a Worker thread, the default, on Postgres and on the embedded
   * database), `inline` (the main thread, for hosts without Workers; the default on Deno Deploy)
   * or `off` (this instance runs none).
   */
  runner: "worker" | "inline" | "off";
  /** `LEAD_SEARCH_POLL_MS`: how often an idle runner looks for a queued run (default 300). */
  pollMs: number;
  /** `LEAD_SEARCH_LEASE_SECONDS`: how long a claim on a run lasts without a page (default 30). */
  leaseMs: number;
  /**
   * `LEAD_SEARCH_PAGE_DELAY_MS` (tests only; default 0): a pause before each page, so a test can
   * catch a run in progress. Never set in production.
   */
  pageDelayMs: number;
  /**
   * On Deno Deploy: the minute cron also delivers runs (until none is left or its time is up),
   * so a run goes on while no request keeps the app awake.
   */
  driveFromCron: boolean;
}

/** The web-search provider of network search, find's network fallback and enrich's cross-reference. */
export type WebSearchConfig =
  | { provider: "none" }
  /** `NETWORK_SEARCH_PROVIDER=brave`, `BRAVE_SEARCH_URL`, `BRAVE_SEARCH_KEY`. */
  | { provider: "brave"; url: string; key: string }
  /** `NETWORK_SEARCH_PROVIDER=serpapi`, `SERPAPI_URL`, `SERPAPI_KEY`. */
  | { provider: "serpapi"; url: string; key: string };

export const DEFAULT_BRAVE_SEARCH_URL = "https://api.search.brave.com/res/v1/web/search";
export const DEFAULT_SERPAPI_URL = "https://serpapi.com/search.json";
export const DEFAULT_GRAVATAR_API_URL = "https://api.gravatar.com/v3";
export const DEFAULT_GITHUB_API_URL = "https://api.github.com";

/** Enrich's two reverse-lookup sources. */
export interface ReverseLookupConfig {
  /** `GRAVATAR_API_URL`, optional `GRAVATAR_API_KEY`. */
  gravatar: { url: string; key: string | null };
  /** `GITHUB_API_URL`, optional `GITHUB_TOKEN`. */
  github: { url: string; token: string | null };
}

/** The DNS + SMTP verification engine's settings (`VERIFY_*`). */
export interface VerifyConfig {
  /** `VERIFY_DNS_SERVER` (an IP address, optional `:port`): every query of the engine goes there; null → system resolver. */
  dnsServer: { ipAddr: string; port: number } | null;
  /** `VERIFY_SMTP_PORT`, default 25. */
  smtpPort: number;
  /** `VERIFY_HELO_NAME`: the name given in EHLO (should match the sending IP's rDNS). */
  heloName: string;
  /** `VERIFY_MAIL_FROM`: the envelope sender of probes. */
  mailFrom: string;
  /** `VERIFY_TIMEOUT_SECONDS`: the longest wait for one SMTP reply or DNS answer. */
  commandTimeoutMs: number;
  /**
   * `VERIFY_CONNECT_TIMEOUT_SECONDS`: the longest wait for a mail host to accept the TCP
   * connection (default `VERIFY_TIMEOUT_SECONDS`; 3 on Deno Deploy, where port 25 may be
   * filtered and every attempt would otherwise wait the full command timeout).
   */
  connectTimeoutMs: number;
  /** `VERIFY_LOOKUP_SECONDS`: the longest one whole lookup may take. */
  lookupTimeoutMs: number;
  /**
   * `VERIFY_GREYLIST_RETRY_SECONDS`: the wait before the one retry of the recipients that got a
   * 4xx (greylisting), asked again exactly as before in a new session.
   */
  greylistRetryMs: number;
  /**
   * `VERIFY_GREYLIST_DELAY_SECONDS` (default 300, postgrey's own default): how long a greylisting
   * server is assumed to defer a new (client, sender, recipient) when its reply does not say
   * ("try again in 5 minutes"); `retryAfterSeconds` counts down from the first deferral.
   */
  greylistDelayMs: number;
  /**
   * `VERIFY_MAX_SESSIONS_PER_HOST` (default 2): SMTP sessions open at once to one MX host, across
   * every lookup of every instance sharing the database (a leased slot each, docs/decisions/0022);
   * more wait their turn within the lookup's time bound.
   */
  maxSessionsPerHost: number;
  /**
   * `VERIFY_HOST_BACKOFF_SECONDS` (default 60): how long every instance leaves a mail host alone
   * after it answered 421 or "too many connections" without saying for how long.
   */
  hostBackoffMs: number;
  /**
   * `VERIFY_MAX_RCPT_PER_SESSION` (default 9): RCPT commands in one session; further candidates
   * go to a next session. 9 keeps a session whose every recipient is refused under Postfix's
   * `smtpd_soft_error_limit` (10), past which every reply is slowed by a second.
   */
  maxRcptPerSession: number;
  /** `VERIFY_CACHE_SECONDS`: how long MX hosts and catch-all results are cached per domain in KV. */
  cacheSeconds: number;
  /** `VERIFY_TLS_CA_FILE`: PEM file of extra CA certificates trusted for STARTTLS. */
  tlsCaFile: string | null;
  /**
   * `VERIFY_ALLOW_PRIVATE_ADDRESSES` (default false): dial mail hosts whose addresses are not
   * global (loopback, RFC 1918, link-local, unique-local, CGNAT, multicast, reserved…). Off, such
   * an address is never connected to, so an MX record cannot turn the verifier into a probe of
   * internal hosts; fake setups on 127.0.0.x turn it on.
   */
  allowPrivateAddresses: boolean;
  /**
   * On Deno Deploy (no UDP sockets) DNS goes through `Deno.resolveDns`, which cannot tell SERVFAIL
   * from NXDOMAIN; elsewhere the engine's own wire resolver asks.
   */
  dnsWithDenoOnly: boolean;
  /** `VERIFIED_EMAIL_MAX_AGE_DAYS`: how recent a directory address must be to answer without SMTP. */
  verifiedEmailMaxAgeDays: number;
}

export interface CompanyResolverConfig {
  /** `COMPANY_RESOLVER`: `wikidata` (default) or `none`. */
  kind: "wikidata" | "none";
  /** `WIKIDATA_API_URL`, default the public endpoint. */
  wikidataApiUrl: string;
}

export const DEFAULT_WIKIDATA_API_URL = "https://www.wikidata.org/w/api.php";

export const DEFAULT_PRICES: PriceTable = {
  nameParse: 1,
  findEmail: 10,
  findCompany: 2,
  networkSearch: 5,
  enrich: 10,
  lead: 2,
  verify: defaultVerifyPrice(10),
  domainSearch: 10,
};

export const DEFAULT_RATE_LIMITS: Record<RateLimitBudget, RateLimitRule> = {
  account: { limit: 600, windowSeconds: 60 },
  name_parse: { limit: 1200, windowSeconds: 60 },
  name_parse_batch: { limit: 120, windowSeconds: 60 },
  find: { limit: 120, windowSeconds: 60 },
  network_search: { limit: 120, windowSeconds: 60 },
  enrich: { limit: 120, windowSeconds: 60 },
  lead_search: { limit: 30, windowSeconds: 60 },
  domain_search: { limit: 120, windowSeconds: 60 },
  // The free count: more than searches, still bounded (it reads a whole company's people).
  domain_count: { limit: 300, windowSeconds: 60 },
  // Bulk-job starts and dry-run quotes (one request, up to 10,000 rows).
  bulk: { limit: 30, windowSeconds: 60 },
  // Web-app sign-in attempts, counted per address and per client (domain/members/sign_in.ts).
  sign_in: { limit: 10, windowSeconds: 300 },
  // Opt-out requests on the public page, per client address and per address asked about
  // (each sends a message): few, since a person needs one.
  opt_out: { limit: 5, windowSeconds: 3600 },
};

const PRICE_ENV: Record<keyof PriceTable, string> = {
  nameParse: "PRICE_NAME_PARSE",
  findEmail: "PRICE_FIND_EMAIL",
  findCompany: "PRICE_FIND_COMPANY",
  networkSearch: "PRICE_NETWORK_SEARCH",
  enrich: "PRICE_ENRICH",
  lead: "PRICE_LEAD",
  verify: "PRICE_VERIFY",
  domainSearch: "PRICE_DOMAIN_SEARCH",
};

/**
 * `PRICE_VERIFY`'s default: a third of the find-email price, rounded to the nearest point, and at
 * least one point when finding costs anything. Verifying is find's engine without the name: one
 * address asked instead of a person's candidates (and no directory or pattern work).
 */
export function defaultVerifyPrice(findEmail: number): number {
  return findEmail > 0 ? Math.max(1, Math.round(findEmail / 3)) : 0;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

type Env = Record<string, string | undefined>;

/** The most points one price may be: any count the API allows × any price stays far below 2^53. */
export const MAX_PRICE = 1_000_000;
/** A cap for the timers of the service (below setTimeout's 2^31 ms, where a timer fires at once). */
const DAY_SECONDS = 86_400;
const YEAR_SECONDS = 365 * DAY_SECONDS;
/** Rate limits: at most this many requests per window… */
export const MAX_RATE_LIMIT = 1_000_000_000;
/** … and a window of at most a year (KV keeps a window's count for two windows; no timer waits on it). */
export const MAX_RATE_LIMIT_WINDOW_SECONDS = YEAR_SECONDS;

/** An integer from `min` to `max` (both included). */
function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

/** A TCP port: 1–65535, or 0 (any free port) where `allowZero`. */
function port(env: Env, name: string, fallback: number, allowZero: boolean): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return fallback;
  const min = allowZero ? 0 : 1;
  if (!/^\d{1,5}$/.test(raw) || Number(raw) < min || Number(raw) > 65535) {
    throw new ConfigError(`${name} must be a port number (${min}-65535), got "${raw}"`);
  }
  return Number(raw);
}

/** `true`/`false` (also 1/0, yes/no), case ignored. */
function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === "") return fallback;
  if (["true", "1", "yes"].includes(raw)) return true;
  if (["false", "0", "no"].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false (1/0, yes/no), got "${raw}"`);
}

/**
 * Seconds as a decimal (`0.2` allowed, for tests), from `min` to `max` seconds, returned in
 * milliseconds.
 */
function seconds(
  env: Env,
  name: string,
  fallback: number,
  range: { min: number; max: number },
): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return fallback * 1000;
  if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) < range.min || Number(raw) > range.max) {
    throw new ConfigError(
      `${name} must be a number of seconds from ${range.min} to ${range.max}, got "${raw}"`,
    );
  }
  return Math.round(Number(raw) * 1000);
}

/** The shortest timeout accepted for a network wait (tests use a few tenths of a second). */
const MIN_TIMEOUT_SECONDS = 0.05;

/** `ip`, `ip:port` (IPv4) or `[IPv6]:port` (or a bare IPv6 address) of a DNS server. */
function dnsServer(env: Env): { ipAddr: string; port: number } | null {
  const raw = env.VERIFY_DNS_SERVER?.trim();
  if (!raw) return null;
  const match = raw.startsWith("[")
    ? /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(raw)
    : raw.split(":").length > 2
    ? [raw, raw, undefined]
    : /^([^:]+)(?::(\d{1,5}))?$/.exec(raw);
  const ipAddr = match?.[1];
  const family = ipAddr ? isIP(ipAddr) : 0;
  const v6 = raw.startsWith("[") || raw.split(":").length > 2;
  const portNumber = match?.[2] === undefined ? 53 : Number(match[2]);
  if (
    !match || family === 0 || (family === 6) !== v6 ||
    portNumber < 1 || portNumber > 65535
  ) {
    throw new ConfigError(
      `VERIFY_DNS_SERVER must be an IP address with an optional port (127.0.0.1:5353, ` +
        `[::1]:5353), got "${raw}"`,
    );
  }
  return { ipAddr: ipAddr!, port: portNumber };
}

function loadVerifyConfig(env: Env, onDeploy: boolean): VerifyConfig {
  const heloName = env.VERIFY_HELO_NAME?.trim() || "localhost";
  const timeout = { min: MIN_TIMEOUT_SECONDS, max: 600 };
  const commandTimeoutMs = seconds(env, "VERIFY_TIMEOUT_SECONDS", 10, timeout);
  const connectTimeoutMs = seconds(
    env,
    "VERIFY_CONNECT_TIMEOUT_SECONDS",
    onDeploy ? DEPLOY_CONNECT_TIMEOUT_SECONDS : commandTimeoutMs / 1000,
    timeout,
  );
  if (env.VERIFY_CONNECT_TIMEOUT_SECONDS?.trim() && connectTimeoutMs > commandTimeoutMs) {
    throw new ConfigError(
      `VERIFY_CONNECT_TIMEOUT_SECONDS must be at most VERIFY_TIMEOUT_SECONDS ` +
        `(${commandTimeoutMs / 1000}), got "${env.VERIFY_CONNECT_TIMEOUT_SECONDS.trim()}"`,
    );
  }
  return {
    dnsServer: dnsServer(env),
    smtpPort: port(env, "VERIFY_SMTP_PORT", 25, false),
    heloName,
    mailFrom: env.VERIFY_MAIL_FROM?.trim() || `verify@${heloName}`,
    commandTimeoutMs,
    // The default on Deno Deploy (3 s) never exceeds a shorter VERIFY_TIMEOUT_SECONDS.
    connectTimeoutMs: Math.min(commandTimeoutMs, connectTimeoutMs),
    lookupTimeoutMs: seconds(env, "VERIFY_LOOKUP_SECONDS", 45, {
      min: MIN_TIMEOUT_SECONDS,
      max: 3600,
    }),
    greylistRetryMs: seconds(env, "VERIFY_GREYLIST_RETRY_SECONDS", 20, { min: 0, max: 3600 }),
    greylistDelayMs: seconds(env, "VERIFY_GREYLIST_DELAY_SECONDS", 300, { min: 0.1, max: 86_400 }),
    maxSessionsPerHost: integer(env, "VERIFY_MAX_SESSIONS_PER_HOST", 2, 1, 100),
    hostBackoffMs: seconds(env, "VERIFY_HOST_BACKOFF_SECONDS", 60, { min: 0, max: 3600 }),
    // Two at least: the catch-all probe and one candidate.
    maxRcptPerSession: integer(env, "VERIFY_MAX_RCPT_PER_SESSION", 9, 2, 100),
    cacheSeconds: integer(env, "VERIFY_CACHE_SECONDS", 3600, 0, YEAR_SECONDS),
    tlsCaFile: env.VERIFY_TLS_CA_FILE?.trim() || null,
    allowPrivateAddresses: flag(env, "VERIFY_ALLOW_PRIVATE_ADDRESSES", false),
    dnsWithDenoOnly: onDeploy,
    verifiedEmailMaxAgeDays: integer(env, "VERIFIED_EMAIL_MAX_AGE_DAYS", 90, 0, 3650),
  };
}

/** An http(s) URL in `name`, or `fallback` when unset. */
function httpUrl(env: Env, name: string, fallback: string): string {
  const url = env[name]?.trim() || fallback;
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) {
    throw new ConfigError(`${name} must be an http(s) URL, got "${url}"`);
  }
  return url;
}

function remoteVerifier(env: Env): { url: string; secret: string } | null {
  const url = env.VERIFIER_URL?.trim();
  const secret = env.VERIFIER_SECRET?.trim();
  if (!url && !secret) return null;
  if (!url || !secret) {
    throw new ConfigError("VERIFIER_URL and VERIFIER_SECRET must be set together");
  }
  return { url: httpUrl(env, "VERIFIER_URL", url), secret };
}

function companyResolver(env: Env): CompanyResolverConfig {
  const kind = env.COMPANY_RESOLVER?.trim() || "wikidata";
  if (kind !== "wikidata" && kind !== "none") {
    throw new ConfigError(`COMPANY_RESOLVER must be wikidata or none, got "${kind}"`);
  }
  return {
    kind,
    wikidataApiUrl: httpUrl(env, "WIKIDATA_API_URL", DEFAULT_WIKIDATA_API_URL),
  };
}

function webSearch(env: Env): WebSearchConfig {
  const provider = env.NETWORK_SEARCH_PROVIDER?.trim() || providerOfKey(env);
  switch (provider) {
    case "none":
      return { provider };
    case "brave":
    case "serpapi": {
      const prefix = provider === "brave" ? "BRAVE_SEARCH" : "SERPAPI";
      const key = env[`${prefix}_KEY`]?.trim();
      if (!key) throw new ConfigError(`NETWORK_SEARCH_PROVIDER=${provider} needs ${prefix}_KEY`);
      const url = httpUrl(
        env,
        `${prefix}_URL`,
        provider === "brave" ? DEFAULT_BRAVE_SEARCH_URL : DEFAULT_SERPAPI_URL,
      );
      return { provider, url, key };
    }
    default:
      throw new ConfigError(
        `NETWORK_SEARCH_PROVIDER must be brave, serpapi or none, got "${provider}"`,
      );
  }
}

/**
 * Without `NETWORK_SEARCH_PROVIDER`, the provider whose key is set (a key alone is the intent to
 * search with it); both keys set without a choice is ambiguous and refused.
 */
function providerOfKey(env: Env): string {
  const brave = Boolean(env.BRAVE_SEARCH_KEY?.trim());
  const serpapi = Boolean(env.SERPAPI_KEY?.trim());
  if (brave && serpapi) {
    throw new ConfigError(
      "BRAVE_SEARCH_KEY and SERPAPI_KEY are both set: set NETWORK_SEARCH_PROVIDER to brave or " +
        "serpapi to choose one",
    );
  }
  return brave ? "brave" : serpapi ? "serpapi" : "none";
}

/** A DNS host name: labels of letters, digits and hyphens, at least two. */
const HOST_NAME =
  /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;
/** One or more path segments of URL-safe characters. */
const PROFILE_PATH = /^[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*$/;

/**
 * The profile network: a host name (case and a leading `www.` ignored, since `www.` and country
 * subdomains are read as the network's pages anyway), a path (slashes around it optional) and a
 * title suffix (the name after "|" or a dash at the end of page titles).
 */
function profileNetwork(env: Env): ProfileNetwork {
  const rawHost = env.NETWORK_PROFILE_HOST?.trim();
  const host = rawHost ? rawHost.toLowerCase().replace(/\.$/, "").replace(/^www\./, "") : null;
  if (host !== null && !HOST_NAME.test(host)) {
    throw new ConfigError(
      `NETWORK_PROFILE_HOST must be a host name such as linkedin.com (no scheme, path or port), ` +
        `got "${rawHost}"`,
    );
  }
  const rawPath = env.NETWORK_PROFILE_PATH?.trim();
  const path = rawPath ? rawPath.replace(/^\/+|\/+$/g, "") : null;
  if (rawPath && (!path || !PROFILE_PATH.test(path))) {
    throw new ConfigError(
      `NETWORK_PROFILE_PATH must be the path profile pages start with, such as /in/, got ` +
        `"${rawPath}"`,
    );
  }
  const rawSuffix = env.NETWORK_TITLE_SUFFIX;
  const suffix = rawSuffix?.trim().replace(/\s+/g, " ");
  if (rawSuffix !== undefined && rawSuffix.trim() !== "") {
    if (suffix!.length > 60 || /[|\p{Cc}]/u.test(suffix!)) {
      throw new ConfigError(
        `NETWORK_TITLE_SUFFIX must be the network's name as page titles end with it (at most 60 ` +
          `characters, no "|"), got "${rawSuffix.trim()}"`,
      );
    }
  }
  return {
    host: host ?? DEFAULT_PROFILE_NETWORK.host,
    pathPrefix: path ? `/${path}/` : DEFAULT_PROFILE_NETWORK.pathPrefix,
    displayName: suffix || DEFAULT_PROFILE_NETWORK.displayName,
  };
}

function reverseLookups(env: Env): ReverseLookupConfig {
  return {
    gravatar: {
      url: httpUrl(env, "GRAVATAR_API_URL", DEFAULT_GRAVATAR_API_URL),
      key: env.GRAVATAR_API_KEY?.trim() || null,
    },
    github: {
      url: httpUrl(env, "GITHUB_API_URL", DEFAULT_GITHUB_API_URL),
      token: env.GITHUB_TOKEN?.trim() || null,
    },
  };
}

/** `RATE_LIMIT_NAME_PARSE=1200/60` → 1200 requests per 60 seconds. */
function rateLimit(env: Env, budget: RateLimitBudget): RateLimitRule {
  const name = `RATE_LIMIT_${budget.toUpperCase()}`;
  const raw = env[name]?.trim();
  if (!raw) return DEFAULT_RATE_LIMITS[budget];
  const match = /^(\d+)\/(\d+)$/.exec(raw);
  if (
    !match || Number(match[1]) < 1 || Number(match[1]) > MAX_RATE_LIMIT ||
    Number(match[2]) < 1 || Number(match[2]) > MAX_RATE_LIMIT_WINDOW_SECONDS
  ) {
    throw new ConfigError(
      `${name} must look like LIMIT/WINDOW_SECONDS (e.g. 600/60; LIMIT 1 to ${MAX_RATE_LIMIT}, ` +
        `WINDOW_SECONDS 1 to ${MAX_RATE_LIMIT_WINDOW_SECONDS}), got "${raw}"`,
    );
  }
  return { limit: Number(match[1]), windowSeconds: Number(match[2]) };
}

/** `HOST`: an IP address or a host name (letters, digits, dots and hyphens). */
function hostname(env: Env): string {
  const raw = env.HOST?.trim();
  if (!raw) return "0.0.0.0";
  const bare = raw.replace(/^\[(.*)\]$/, "$1");
  if (isIP(bare) === 0 && !/^[a-z0-9]([a-z0-9.-]{0,252})$/i.test(bare)) {
    throw new ConfigError(`HOST must be an IP address or a host name, got "${raw}"`);
  }
  return bare;
}

/** `DATABASE_URL`: a postgres:// or postgresql:// URL, or unset (the embedded database). */
function databaseUrl(env: Env): string | null {
  const raw = env.DATABASE_URL?.trim();
  if (!raw) return null;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== "postgres:" && url.protocol !== "postgresql:")) {
    throw new ConfigError(
      `DATABASE_URL must be a postgres:// or postgresql:// URL, got "${redactUrl(raw)}"`,
    );
  }
  return raw;
}

/** Where confirmation mail is submitted (`MAIL_SUBMISSION_URL`), parsed. */
export interface MailSubmissionConfig {
  host: string;
  port: number;
  /** `smtps://`: TLS from the first byte (port 465); `smtp://`: STARTTLS, required. */
  implicitTls: boolean;
  user: string;
  password: string;
  /** `MAIL_SUBMISSION_CA_FILE`: PEM file of extra CA certificates trusted for the server. */
  caFile: string | null;
}

export interface PrivacyConfig {
  /** Null: the opt-out page explains how to write to the operator instead. */
  mailSubmission: MailSubmissionConfig | null;
  /** `MAIL_FROM`: the sender of confirmation mail (required with `MAIL_SUBMISSION_URL`). */
  mailFrom: string | null;
  /** `PUBLIC_URL`: the service's address as people reach it, for the link in the mail. */
  publicUrl: string | null;
  /** `PRIVACY_CONTACT`: where people write to the operator (an address or a URL), shown on the page. */
  contact: string | null;
  /** `OPT_OUT_LINK_HOURS`: how long a confirmation link works (default 24). */
  linkHours: number;
}

/**
 * `MAIL_SUBMISSION_URL` (`smtp://user:password@host:587` with STARTTLS required, or
 * `smtps://user:password@host:465`), with `MAIL_FROM` and `PUBLIC_URL`, which a link in a message
 * needs: the link's address never comes from a request's Host header, which a caller chooses.
 */
function privacyConfig(env: Env): PrivacyConfig {
  const raw = env.MAIL_SUBMISSION_URL?.trim() || null;
  const publicRaw = env.PUBLIC_URL?.trim() || null;
  const publicUrl = publicRaw === null
    ? null
    : httpUrl(env, "PUBLIC_URL", publicRaw).replace(/\/+$/, "");
  const mailFrom = env.MAIL_FROM?.trim() || null;
  if (mailFrom !== null && !/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(mailFrom)) {
    throw new ConfigError(`MAIL_FROM must be one address such as privacy@example.com`);
  }
  let mailSubmission: MailSubmissionConfig | null = null;
  if (raw !== null) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new ConfigError(`MAIL_SUBMISSION_URL must be a URL, got "${redactUrl(raw)}"`);
    }
    if (url.protocol !== "smtp:" && url.protocol !== "smtps:") {
      throw new ConfigError(
        `MAIL_SUBMISSION_URL must be smtp:// (STARTTLS) or smtps:// (TLS), got "${redactUrl(raw)}"`,
      );
    }
    if (!url.hostname || !url.username || !url.password) {
      throw new ConfigError(
        "MAIL_SUBMISSION_URL must name a host and credentials: smtp://user:password@host:587",
      );
    }
    if (!mailFrom || !publicUrl) {
      throw new ConfigError(
        "MAIL_SUBMISSION_URL needs MAIL_FROM (the sender) and PUBLIC_URL (the service's address " +
          "for the link in the message)",
      );
    }
    const implicitTls = url.protocol === "smtps:";
    mailSubmission = {
      host: url.hostname.replace(/^\[|\]$/g, ""),
      port: url.port ? Number(url.port) : implicitTls ? 465 : 587,
      implicitTls,
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      caFile: env.MAIL_SUBMISSION_CA_FILE?.trim() || null,
    };
  }
  return {
    mailSubmission,
    mailFrom,
    publicUrl,
    contact: env.PRIVACY_CONTACT?.trim() || null,
    linkHours: integer(env, "OPT_OUT_LINK_HOURS", 24, 1, 24 * 30),
  };
}

/** A URL for messages and logs: the password replaced by `***`. */
export function redactUrl(raw: string): string {
  return raw.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, "$1:***@");
}

/** `KV_PATH`: a file, `:memory:`, a KV Connect URL (http/https), or unset. */
function kvPath(env: Env, onDeploy: boolean, dataDir: string): string | null {
  const raw = env.KV_PATH?.trim();
  if (!raw) return onDeploy ? null : `${dataDir}/kv.sqlite3`;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) && !/^https?:\/\//i.test(raw)) {
    throw new ConfigError(
      `KV_PATH must be a file path, :memory: or a KV Connect URL (https://…), got "${
        redactUrl(raw)
      }"`,
    );
  }
  return raw;
}

/** The SMTP connect timeout on Deno Deploy unless `VERIFY_CONNECT_TIMEOUT_SECONDS` says otherwise. */
export const DEPLOY_CONNECT_TIMEOUT_SECONDS = 3;

/** The deployment when running on Deno Deploy (`DENO_DEPLOYMENT_ID`), else null. */
export function detectDeployment(env: Env): { id: string } | null {
  const id = env.DENO_DEPLOYMENT_ID?.trim();
  return id ? { id } : null;
}

/** What Deno Deploy needs from the environment; a ConfigError naming what is missing. */
function checkDeployEnvironment(env: Env, deployment: { id: string }): void {
  const missing = [
    env.DATABASE_URL?.trim()
      ? null
      : "DATABASE_URL is required on Deno Deploy (DENO_DEPLOYMENT_ID is set): link a Postgres " +
        "database to the app, or set DATABASE_URL=postgres://… yourself. The embedded database " +
        "would live on the instance's ephemeral disk and lose every balance and charge with it.",
    env.SVC_SECRET?.trim() ? null : "SVC_SECRET is required on Deno Deploy " +
      "(DENO_DEPLOYMENT_ID is set): set it to a long random secret (e.g. `openssl rand -hex 32`), " +
      "the same on every instance; it is never generated onto the instance's disk there.",
  ].filter((line): line is string => line !== null);
  if (missing.length > 0) {
    throw new ConfigError(`${missing.join(" ")} (deployment ${deployment.id})`);
  }
  const kvPath = env.KV_PATH?.trim();
  if (kvPath && !/^https?:\/\//.test(kvPath)) {
    throw new ConfigError(
      `KV_PATH on Deno Deploy must be unset (the platform's KV) or a KV Connect URL, got ` +
        `"${kvPath}": a file there is per instance and ephemeral, so limits would not be shared`,
    );
  }
  if (env.LEAD_SEARCH_RUNNER?.trim() === "worker") {
    throw new ConfigError(
      "LEAD_SEARCH_RUNNER=worker is not used on Deno Deploy: leave it unset (inline, resumed " +
        "from cron) or set it to off",
    );
  }
}

/** The remote verifier's own port when `VERIFIER_PORT` is unset. */
export const DEFAULT_VERIFIER_PORT = 8788;

/**
 * The remote verifier's settings (`deno task verifier`): `VERIFIER_PORT` (default 8788, 0 for any
 * free port), `VERIFIER_SECRET` (required: the bearer secret its callers send), and everything
 * else as the service reads it (`HOST`, `KV_PATH`/`DATA_DIR`, every `VERIFY_*`). `VERIFIER_URL`
 * and `VERIFIER_SECRET` configure callers of a remote verifier; this process is one, so its
 * `config` has neither.
 */
export function loadVerifierServerConfig(
  env: Env,
): { port: number; secret: string; config: Config } {
  const secret = env.VERIFIER_SECRET?.trim();
  if (!secret) {
    throw new ConfigError("VERIFIER_SECRET must be set: the bearer secret callers of /verify send");
  }
  return {
    port: port(env, "VERIFIER_PORT", DEFAULT_VERIFIER_PORT, true),
    secret,
    config: loadConfig({ ...env, VERIFIER_URL: undefined, VERIFIER_SECRET: undefined }),
  };
}

export function loadConfig(env: Env): Config {
  const deployment = detectDeployment(env);
  if (deployment) checkDeployEnvironment(env, deployment);
  const dataDir = env.DATA_DIR?.trim() || "./data";
  const prices = Object.fromEntries(
    Object.entries(PRICE_ENV).filter(([field]) => field !== "verify").map(([field, name]) => [
      field,
      integer(env, name, DEFAULT_PRICES[field as keyof PriceTable], 0, MAX_PRICE),
    ]),
  ) as unknown as PriceTable;
  // Unset, verifying follows the find-email price it is a third of.
  prices.verify = integer(
    env,
    PRICE_ENV.verify,
    defaultVerifyPrice(prices.findEmail),
    0,
    MAX_PRICE,
  );
  const rateLimits = Object.fromEntries(
    RATE_LIMIT_BUDGETS.map((budget) => [budget, rateLimit(env, budget)]),
  ) as Record<RateLimitBudget, RateLimitRule>;

  const bootstrapText = env.SVC_BOOTSTRAP_KEY?.trim();
  // Kept in its canonical lower-case form: the form the key is hashed and looked up in.
  const bootstrapKey = bootstrapText ? normalizeApiKey(bootstrapText) : null;
  if (bootstrapText && !bootstrapKey) {
    throw new ConfigError("SVC_BOOTSTRAP_KEY must be svc_sk_ followed by 48 hex characters");
  }

  return {
    deployment,
    port: port(env, "PORT", 8787, true),
    hostname: hostname(env),
    dataDir,
    databaseUrl: databaseUrl(env),
    kvPath: kvPath(env, deployment !== null, dataDir),
    secret: env.SVC_SECRET?.trim() || null,
    idleTimeoutMs: seconds(env, "IDLE_TIMEOUT_SECONDS", 75, { min: 0, max: DAY_SECONDS }),
    stopGraceMs: seconds(env, "STOP_GRACE_SECONDS", 4, { min: 0, max: 3600 }),
    shutdownDrainMs: seconds(env, "SHUTDOWN_DRAIN_SECONDS", 0, { min: 0, max: 3600 }),
    prices,
    rateLimits,
    bootstrap: bootstrapKey
      ? {
        key: bootstrapKey,
        points: integer(env, "SVC_BOOTSTRAP_POINTS", 0, 0, Number.MAX_SAFE_INTEGER),
      }
      : null,
    authCacheSeconds: integer(env, "AUTH_CACHE_SECONDS", 5, 0, 3600),
    modelPath: env.NAME_MODEL_PATH?.trim() || null,
    logRequests: flag(env, "LOG_REQUESTS", true),
    observability: observabilityConfig(env, deployment !== null),
    verify: loadVerifyConfig(env, deployment !== null),
    remoteVerifier: remoteVerifier(env),
    companyResolver: companyResolver(env),
    webSearch: webSearch(env),
    network: profileNetwork(env),
    reverseLookups: reverseLookups(env),
    privacy: privacyConfig(env),
    enrichMaxAgeDays: integer(env, "ENRICH_MAX_AGE_DAYS", 30, 0, 3650),
    searchCacheSeconds: integer(env, "SEARCH_CACHE_SECONDS", 86_400, 0, YEAR_SECONDS),
    providerTimeoutMs: seconds(env, "PROVIDER_TIMEOUT_SECONDS", 10, {
      min: MIN_TIMEOUT_SECONDS,
      max: 600,
    }),
    leadSearch: leadSearchConfig(env, deployment !== null),
    bulkLeaseMs: seconds(env, "BULK_LEASE_SECONDS", 120, { min: 0.1, max: 3600 }),
    bulkPageDelayMs: integer(env, "BULK_PAGE_DELAY_MS", 0, 0, 60_000),
    bulkGreylistMaxWaitMs: seconds(env, "BULK_GREYLIST_MAX_WAIT_SECONDS", 3600, {
      min: 0,
      max: 7 * 86_400,
    }),
    bulkResultsRetentionDays: integer(env, "BULK_RESULTS_RETENTION_DAYS", 30, 0, 3650),
    webhooks: {
      allowPrivateAddresses: flag(env, "WEBHOOK_ALLOW_PRIVATE_ADDRESSES", false),
      timeoutMs: seconds(env, "WEBHOOK_TIMEOUT_SECONDS", 15, { min: 0.1, max: 120 }),
    },
  };
}

/** A token long enough not to be guessed, in characters a header carries without quoting. */
const METRICS_TOKEN_PATTERN = /^[A-Za-z0-9._~+\/=-]{16,256}$/;

function observabilityConfig(env: Env, onDeploy: boolean): ObservabilityConfig {
  const token = env.METRICS_TOKEN?.trim() || null;
  if (token !== null && !METRICS_TOKEN_PATTERN.test(token)) {
    throw new ConfigError(
      "METRICS_TOKEN must be 16 to 256 characters of letters, digits and ._~+/=- " +
        `(got ${token.length} characters${/\s/.test(token) ? " with white space" : ""})`,
    );
  }
  const tracing = flag(env, "OTEL_DENO", false);
  // Deno's own spans name every outgoing request's full URL: a web search's query holds the
  // person's name, a GitHub search the address. Deno Deploy runs its own tracing, not ours.
  if (tracing && !onDeploy && flag(env, "OTEL_DENO_TRACING", true)) {
    throw new ConfigError(
      "OTEL_DENO=true needs OTEL_DENO_TRACING=false (`deno task start` sets it): Deno's built-in " +
        "tracing records each outgoing request's full URL, query string included, and a search " +
        "query holds a person's name; the service exports its own spans instead",
    );
  }
  return {
    metricsToken: token,
    workspaceLabels: flag(env, "METRICS_WORKSPACE_LABELS", false),
    tracing: tracing && !onDeploy,
    // Read only where our spans are exported: elsewhere the variable is another program's.
    tracingProtocol: tracing && !onDeploy ? otlpProtocol(env) : "http/protobuf",
  };
}

/**
 * The OTLP protocol of the span export: the traces-specific variable wins over the general one,
 * as the OpenTelemetry specification says. Deno's own log and metric export reads the general
 * variable too, and speaks both of these.
 */
function otlpProtocol(env: Env): OtlpProtocol {
  for (const name of ["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"]) {
    const raw = env[name]?.trim();
    if (!raw) continue;
    const protocol = OTLP_PROTOCOLS.find((known) => known === raw.toLowerCase());
    if (protocol) return protocol;
    throw new ConfigError(
      `${name} must be http/protobuf or http/json, got "${raw.slice(0, 40)}"` +
        (raw.toLowerCase() === "grpc" ? " (the service exports over OTLP/HTTP only)" : ""),
    );
  }
  return "http/protobuf";
}

/** The shortest idle poll of the lead-search runner (tests poll every few tens of ms). */
export const MIN_POLL_MS = 10;

function leadSearchConfig(env: Env, onDeploy: boolean): LeadSearchConfig {
  const runner = env.LEAD_SEARCH_RUNNER?.trim() || (onDeploy ? "inline" : "worker");
  if (runner !== "worker" && runner !== "inline" && runner !== "off") {
    throw new ConfigError(`LEAD_SEARCH_RUNNER must be worker, inline or off, got "${runner}"`);
  }
  return {
    runner,
    pollMs: integer(env, "LEAD_SEARCH_POLL_MS", 300, MIN_POLL_MS, 60_000),
    leaseMs: seconds(env, "LEAD_SEARCH_LEASE_SECONDS", 30, { min: 0.1, max: 3600 }),
    pageDelayMs: integer(env, "LEAD_SEARCH_PAGE_DELAY_MS", 0, 0, 60_000),
    driveFromCron: onDeploy && runner !== "off",
  };
}
