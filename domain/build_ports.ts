/**
 * The real adapters behind every port, chosen by configuration. main.ts (and the verifier
 * process) build them once; tests build them the same way against fake servers on 127.0.0.1, or
 * pass fakes in directly.
 */
import type { Config } from "./config/config.ts";
import { createNodemailerSender } from "./providers/mail_submission/nodemailer_sender.ts";
import type { Ports } from "./context.ts";
import { createLeasedHostSessionSlots, createRemoteVerifier, SLOT_LEASE_MS } from "./verify/mod.ts";
import type { Sql } from "./stores/database.ts";
import { createSmtpVerifier } from "./verify/mod.ts";
import { connectTcp, type SmtpConnect } from "./providers/smtp/smtp_client.ts";
import { noCompanyResolver } from "./providers/company_resolver/none.ts";
import { createWikidataResolver } from "./providers/company_resolver/wikidata.ts";
import { createDnsResolver } from "./providers/dns/create_dns_resolver.ts";
import { createGithubLookup } from "./providers/reverse_lookup/github.ts";
import { createGravatarLookup } from "./providers/reverse_lookup/gravatar.ts";
import { createBraveSearch } from "./providers/web_search/brave.ts";
import { createSerpApiSearch } from "./providers/web_search/serpapi.ts";
import type { Clock } from "./shared/clock.ts";
import type { Logger } from "./shared/logger.ts";
import {
  observedCompanyResolver,
  observedRemoteVerifier,
  observedReverseLookup,
  observedWebSearch,
} from "./observability/observed_ports.ts";
import { noTelemetry, type Telemetry } from "./observability/telemetry.ts";

export const USER_AGENT =
  "contact-data-service/1.0 (lookups of a self-hosted contact-data service)";

export async function buildPorts(
  config: Pick<
    Config,
    | "verify"
    | "remoteVerifier"
    | "companyResolver"
    | "webSearch"
    | "reverseLookups"
    | "providerTimeoutMs"
    | "network"
    | "privacy"
  >,
  deps: {
    kv: Deno.Kv;
    clock: Clock;
    fetch?: typeof fetch;
    logger?: Logger;
    telemetry?: Telemetry;
    /** The server secret: the catch-all probe address and greylist memory derive from it. */
    secret?: string;
    /**
     * The server Postgres every instance shares: `VERIFY_MAX_SESSIONS_PER_HOST` then holds across
     * them (leased slots). None (embedded PGlite, one process; the remote verifier): per process.
     */
    sql?: Sql;
  },
): Promise<Ports> {
  const telemetry = deps.telemetry ?? noTelemetry;
  const verifier = config.remoteVerifier
    ? observedRemoteVerifier(
      createRemoteVerifier({
        url: config.remoteVerifier.url,
        secret: config.remoteVerifier.secret,
        // The remote engine has the whole lookup time; allow for the round trip on top.
        timeoutMs: config.verify.lookupTimeoutMs + 5_000,
        fetch: deps.fetch,
        logger: deps.logger,
        now: () => deps.clock.now(),
      }),
      telemetry,
    )
    : await createLocalVerifier(config.verify, { ...deps, telemetry });
  const companyResolver = config.companyResolver.kind === "none"
    ? noCompanyResolver
    : observedCompanyResolver(
      createWikidataResolver({
        apiUrl: config.companyResolver.wikidataApiUrl,
        userAgent: USER_AGENT,
        timeoutMs: config.providerTimeoutMs,
        fetch: deps.fetch,
      }),
      telemetry,
    );
  const webSearch = buildWebSearch(config.webSearch, config.providerTimeoutMs, deps.fetch);
  return {
    verifier,
    companyResolver,
    webSearch: webSearch && observedWebSearch(webSearch, telemetry),
    reverseLookups: [
      createGravatarLookup({
        url: config.reverseLookups.gravatar.url,
        key: config.reverseLookups.gravatar.key,
        network: config.network,
        timeoutMs: config.providerTimeoutMs,
        fetch: deps.fetch,
      }),
      createGithubLookup({
        url: config.reverseLookups.github.url,
        token: config.reverseLookups.github.token,
        userAgent: USER_AGENT,
        network: config.network,
        timeoutMs: config.providerTimeoutMs,
        fetch: deps.fetch,
      }),
    ].map((lookup) => observedReverseLookup(lookup, telemetry)),
    mailSender: config.privacy.mailSubmission && config.privacy.mailFrom
      ? createNodemailerSender(config.privacy.mailSubmission, {
        from: config.privacy.mailFrom,
        timeoutMs: config.providerTimeoutMs,
      })
      : null,
  };
}

function buildWebSearch(
  config: Config["webSearch"],
  timeoutMs: number,
  fetch?: typeof globalThis.fetch,
) {
  switch (config.provider) {
    case "none":
      return null;
    case "brave":
      return createBraveSearch({ url: config.url, key: config.key, timeoutMs, fetch });
    case "serpapi":
      return createSerpApiSearch({ url: config.url, key: config.key, timeoutMs, fetch });
  }
}

/**
 * The DNS + SMTP engine in this process. Without a remote verifier this is also what runs on
 * Deno Deploy, where outbound port 25 may be filtered: a connect that gets no answer gives up
 * after `connectTimeoutMs` (3 s there), the lookup ends `unavailable` and find answers
 * `verification-unavailable`, uncharged.
 */
export async function createLocalVerifier(
  verify: Config["verify"],
  deps: {
    kv: Deno.Kv;
    clock?: Clock;
    connect?: SmtpConnect;
    logger?: Logger;
    telemetry?: Telemetry;
    secret?: string;
    sql?: Sql;
  },
) {
  const dns = await createDnsResolver({
    nameServer: verify.dnsServer,
    timeoutMs: verify.commandTimeoutMs,
    denoOnly: verify.dnsWithDenoOnly,
  });
  deps.logger?.info("dns resolver ready", {
    client: dns.client,
    servers: dns.servers.length,
    ...(dns.fallbackReason ? { fallbackReason: dns.fallbackReason } : {}),
  });
  return createSmtpVerifier({
    dns: dns.resolver,
    kv: deps.kv,
    clock: deps.clock,
    config: verify,
    connect: deps.connect ??
      (verify.connectTimeoutMs < verify.commandTimeoutMs
        ? connectWithin(verify.connectTimeoutMs)
        : undefined),
    caCerts: verify.tlsCaFile ? [await Deno.readTextFile(verify.tlsCaFile)] : undefined,
    telemetry: deps.telemetry,
    secret: deps.secret,
    slots: deps.sql
      ? createLeasedHostSessionSlots({
        sql: deps.sql,
        maxPerHost: verify.maxSessionsPerHost,
        leaseMs: SLOT_LEASE_MS,
      })
      : undefined,
  });
}

/** A TCP connect that gives up (AbortError) after `timeoutMs` without an answer. */
export function connectWithin(timeoutMs: number, connect: SmtpConnect = connectTcp): SmtpConnect {
  return (options) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    return connect({ ...options, signal });
  };
}
