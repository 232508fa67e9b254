/**
 * The verification engine in this process: DNS for the mail hosts, then SMTP at the first host
 * that answers (`verify_at_mail_host.ts`): a catch-all probe (`catch_all_probe.ts`: secret,
 * domain and day, the same on every call of the day) and each candidate, in one session when they
 * fit `VERIFY_MAX_RCPT_PER_SESSION`, retried once in a new session after greylisting, at most
 * `VERIFY_MAX_SESSIONS_PER_HOST` sessions to one host at a time (`slots`: across the fleet when
 * they are leased in Postgres). Still greylisted after the retry, the outcome carries
 * `retryAfterSeconds`, counted from the host's first deferral of those recipients
 * (`greylist_memory.ts`). Hosts are tried in preference order; one that cannot be
 * reached, says 421 or drops us gives way to the next; a 421 or "too many connections" also
 * pauses that host for every instance (`host_pace.ts`). Every DNS query goes through `dns`
 * (so `VERIFY_DNS_SERVER` applies to all of them); each host is dialled at its resolved
 * address on `config.smtpPort`, and only at a global one unless `allowPrivateAddresses`.
 * MX hosts that all do not exist (NXDOMAIN, no address) or have only non-global addresses make
 * the domain unusable; a host whose name cannot be resolved now makes the lookup unavailable.
 *
 * Per domain, KV keeps the mail hosts and the catch-all verdict for `cacheSeconds`: a known
 * catch-all is answered from the cache with no session; a known non-catch-all skips the probe.
 * The verdict is written only when the lookup decided (valid, rejected, catch-all): a lookup
 * that ended on a refusal of our sender or client leaves nothing behind.
 * The whole lookup is bounded by `lookupTimeoutMs` (→ `unavailable` `timeout`), every reply by
 * `commandTimeoutMs`. A provider's failure is an outcome, never an exception; a malformed
 * request (a caller's bug) throws `RangeError`. Nothing here logs addresses.
 */
import type { VerifyConfig } from "../config/config.ts";
import type { DnsResolver } from "../providers/dns/port.ts";
import type { SmtpConnect } from "../providers/smtp/smtp_client.ts";
import { type Clock, systemClock } from "../shared/clock.ts";
import type {
  EmailVerifier,
  SmtpEvidence,
  UnavailableWhy,
  VerificationOutcome,
  VerificationRequest,
} from "./email_verifier.ts";
import { findMailHosts, type MailHost } from "./find_mail_hosts.ts";
import { createHostSessionSlots, type HostSessionSlots } from "./host_session_slots.ts";
import { isPublicAddress } from "./is_public_address.ts";
import { mailProviderOf } from "./mail_provider.ts";
import { catchAllProbeLocalPart, dayOf, processProbeSecret } from "./catch_all_probe.ts";
import {
  createGreylistMemory,
  type GreylistMemory,
  retryAfterSeconds,
  statedDelayMs,
} from "./greylist_memory.ts";
import { createHostPace, type HostPace } from "./host_pace.ts";
import { createVerificationCache } from "./verification_cache.ts";
import { type HostResult, verifyAtMailHost } from "./verify_at_mail_host.ts";
import { isAddressAt, isMailDomain } from "./verification_schema.ts";
import { observedDns } from "../observability/observed_ports.ts";
import type { Telemetry } from "../observability/telemetry.ts";

export interface SmtpSessionEvent {
  domain: string;
  mxHost: string;
  address: string;
}

export interface SmtpVerifierDeps {
  dns: DnsResolver;
  kv: Deno.Kv;
  config: VerifyConfig;
  clock?: Clock;
  /** Opens TCP connections (tests); default `Deno.connect`. */
  connect?: SmtpConnect;
  /** Called for every SMTP session opened (benchmarks and tests count them). */
  onSession?: (event: SmtpSessionEvent) => void;
  /** Extra CA certificates (PEM) for STARTTLS; default: read from `config.tlsCaFile`, if set. */
  caCerts?: string[];
  /** The per-host session limit to share; default one of `config.maxSessionsPerHost` of its own. */
  slots?: HostSessionSlots;
  /** Told of every SMTP session and DNS question, with its outcome. */
  telemetry?: Telemetry;
  /**
   * The secret the catch-all probe address and the greylist memory's recipient tags derive from
   * (`SVC_SECRET`, or the remote verifier's own); default: one made for this process, so the
   * probe is stable only while it runs.
   */
  secret?: string;
  /** The per-host pause after a 421; default one in `kv` (fleet-wide when KV is shared). */
  pace?: HostPace;
}

/** Lower-cases the domain and checks every candidate is an address at it. */
export function normalizeRequest(request: VerificationRequest): VerificationRequest {
  const domain = String(request.domain ?? "").trim().toLowerCase().replace(/\.$/, "");
  if (!isMailDomain(domain)) throw new RangeError("verification domain is not a host name");
  if (!Array.isArray(request.candidates) || request.candidates.length === 0) {
    throw new RangeError("verification needs at least one candidate address");
  }
  const candidates = request.candidates.map((candidate, i) => {
    if (typeof candidate !== "string" || !isAddressAt(candidate, domain)) {
      throw new RangeError(`candidate ${i} is not an address at the verification domain`);
    }
    return `${candidate.slice(0, candidate.lastIndexOf("@"))}@${domain}`;
  });
  return { domain, candidates };
}

function readCaCerts(path: string | null): string[] | undefined {
  if (!path) return undefined;
  try {
    return [Deno.readTextFileSync(path)];
  } catch (error) {
    throw new Error(`VERIFY_TLS_CA_FILE: cannot read ${path}: ${(error as Error).message}`);
  }
}

export function createSmtpVerifier(deps: SmtpVerifierDeps): EmailVerifier {
  const { config } = deps;
  const dns = deps.telemetry ? observedDns(deps.dns, deps.telemetry) : deps.dns;
  const clock = deps.clock ?? systemClock;
  const caCerts = deps.caCerts ?? readCaCerts(config.tlsCaFile);
  const cache = createVerificationCache({ kv: deps.kv, clock, cacheSeconds: config.cacheSeconds });
  const slots = deps.slots ?? createHostSessionSlots(config.maxSessionsPerHost);
  const secret = deps.secret ?? processProbeSecret();
  const pace = deps.pace ?? createHostPace({ kv: deps.kv, clock });
  const greylist: GreylistMemory = createGreylistMemory({ kv: deps.kv, clock, secret });

  /**
   * The probe address for `domain` at `host`: today's, unless the host greylisted yesterday's
   * (a wait across midnight UTC must ask the same address).
   */
  async function probeAt(domain: string, host: string): Promise<string> {
    const today = dayOf(clock.now());
    const yesterday = `${catchAllProbeLocalPart(secret, domain, today - 1)}@${domain}`;
    if (await greylist.remembers(host, yesterday)) return yesterday;
    return `${catchAllProbeLocalPart(secret, domain, today)}@${domain}`;
  }

  /** Remembers who is still greylisted and says when to ask again. */
  async function withRetryAfter(
    host: string,
    outcomes: VerificationOutcome[],
    deferrals: readonly ({ recipients: string[]; statedText: string } | null)[],
  ): Promise<VerificationOutcome[]> {
    return await Promise.all(outcomes.map(async (outcome, group) => {
      const deferral = deferrals[group];
      if (outcome.kind !== "unavailable" || outcome.why !== "greylisted" || !deferral) {
        return outcome;
      }
      const delayMs = statedDelayMs(deferral.statedText) ?? config.greylistDelayMs;
      const passesAt = await greylist.deferred(host, deferral.recipients, delayMs);
      return { ...outcome, retryAfterSeconds: retryAfterSeconds(passesAt, delayMs, clock.now()) };
    }));
  }

  async function mailHostsOf(
    domain: string,
    signal: AbortSignal,
  ): Promise<MailHost[] | VerificationOutcome> {
    const cached = await cache.readMailHosts(domain);
    if (cached) return cached.map((name) => ({ name }));
    const found = await findMailHosts(dns, domain, signal);
    if (found.kind === "dns-error") {
      return { kind: "unavailable", why: "dns-error", evidence: null };
    }
    if (found.kind === "unusable") return { kind: "unusable-domain", why: found.why };
    await cache.writeMailHosts(domain, found.hosts.map((host) => host.name));
    return found.hosts;
  }

  /**
   * The outcomes of `groups` at `domain`, each but `unusable-domain` carrying the mail hosts the
   * lookup read (a known catch-all answered from the cache reads them from the cache too).
   */
  async function lookup(
    domain: string,
    groups: readonly (readonly string[])[],
    signal: AbortSignal,
    progress: { mxHost: string | null; deadlineAt: number; mailHosts?: string[] },
  ): Promise<VerificationOutcome[]> {
    const outcomes = await lookupAtHosts(domain, groups, signal, progress);
    const mailHosts = progress.mailHosts ?? await cache.readMailHosts(domain);
    // A domain no mail can reach has no mail hosts to show (its MX names lead nowhere).
    return mailHosts
      ? outcomes.map((outcome) =>
        outcome.kind === "unusable-domain" ? outcome : { ...outcome, mailHosts }
      )
      : outcomes;
  }

  /** The outcomes of `groups` (each a person's candidates) at `domain`, one per group. */
  async function lookupAtHosts(
    domain: string,
    groups: readonly (readonly string[])[],
    signal: AbortSignal,
    progress: { mxHost: string | null; deadlineAt: number; mailHosts?: string[] },
  ): Promise<VerificationOutcome[]> {
    const forAll = (outcome: VerificationOutcome) => groups.map(() => outcome);
    const known = await cache.readCatchAll(domain);
    if (known?.catchAll) return forAll({ kind: "catch-all", evidence: known.evidence });

    const hosts = await mailHostsOf(domain, signal);
    if (!Array.isArray(hosts)) return forAll(hosts);
    progress.mailHosts = hosts.map((host) => host.name);

    // One probe address for the whole lookup, and the same on the next one: a greylisting
    // retry must ask the same one.
    const skipProbe = known?.catchAll === false;
    let failure: { why: UnavailableWhy; evidence: SmtpEvidence | null } = {
      why: "hosts-down",
      evidence: null,
    };
    /** The earliest end of a pause that kept us from a host. */
    let pausedUntil: number | null = null;
    /** Hosts that do not exist or have no address, and hosts with only non-global ones. */
    let missing = 0;
    let notPublic = 0;
    for (const host of hosts) {
      progress.mxHost = host.name;
      let addresses = host.addresses;
      if (!addresses) {
        const answer = await dns.addresses(host.name, { signal });
        if (answer.kind === "error") {
          failure = { why: "dns-error", evidence: null };
          continue;
        }
        if (answer.kind !== "records" || answer.records.length === 0) {
          missing++;
          continue;
        }
        addresses = answer.records;
      }
      // Never dial a loopback, private, link-local… address an MX record points at.
      if (!config.allowPrivateAddresses) addresses = addresses.filter(isPublicAddress);
      if (addresses.length === 0) {
        notPublic++;
        continue;
      }
      let result: HostResult | null = null;
      const probe = skipProbe ? null : await probeAt(domain, host.name);
      for (const address of addresses) {
        result = await verifyAtMailHost({
          host: host.name,
          address,
          probe,
          groups,
          config,
          caCerts,
          clock,
          slots,
          signal,
          deadlineAt: progress.deadlineAt,
          connect: deps.connect,
          telemetry: deps.telemetry,
          onSession: () => deps.onSession?.({ domain, mxHost: host.name, address }),
          pace,
        });
        if (result.kind === "decided" || result.connected) break;
      }
      if (result?.kind === "decided") {
        const verdict = result.probeVerdict;
        if (verdict && result.outcomes.some((outcome) => outcome.kind !== "unavailable")) {
          await cache.writeCatchAll(domain, verdict.catchAll, verdict.evidence);
        }
        return await withRetryAfter(host.name, result.outcomes, result.deferrals);
      }
      if (result?.kind === "failed" && result.pausedUntil) {
        pausedUntil = Math.min(pausedUntil ?? Infinity, result.pausedUntil);
        // A paused host says nothing new: an earlier failure (or none) stands.
        continue;
      }
      if (result) failure = { why: result.why, evidence: result.evidence };
    }
    // Every host definitely unreachable from the internet: the domain cannot receive mail.
    if (missing + notPublic === hosts.length) {
      return forAll({
        kind: "unusable-domain",
        why: notPublic > 0 ? "no-public-address" : "no-mail-host",
      });
    }
    if (pausedUntil !== null && failure.why === "hosts-down") {
      const seconds = Math.max(1, Math.ceil((pausedUntil - clock.now()) / 1000));
      return forAll({ kind: "unavailable", ...failure, retryAfterSeconds: seconds });
    }
    return forAll({ kind: "unavailable", ...failure });
  }

  /** `lookup` within `lookupTimeoutMs`: past it, every group is `unavailable` (`timeout`). */
  async function bounded(
    domain: string,
    groups: readonly (readonly string[])[],
  ): Promise<VerificationOutcome[]> {
    const controller = new AbortController();
    const progress = {
      mxHost: null as string | null,
      deadlineAt: Date.now() + config.lookupTimeoutMs,
      mailHosts: undefined as string[] | undefined,
    };
    const timedOut = (): VerificationOutcome[] =>
      groups.map(() => ({
        kind: "unavailable",
        why: "timeout",
        evidence: progress.mxHost === null ? null : {
          mxHost: progress.mxHost,
          provider: mailProviderOf(progress.mxHost),
          smtpCode: null,
          enhancedStatus: null,
          encrypted: null,
          certificateVerified: null,
          checkedAt: new Date(clock.now()).toISOString(),
        },
        ...(progress.mailHosts ? { mailHosts: progress.mailHosts } : {}),
      }));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<VerificationOutcome[]>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve(timedOut());
      }, config.lookupTimeoutMs);
    });
    const work = lookup(domain, groups, controller.signal, progress).catch((error) => {
      if (controller.signal.aborted) return timedOut();
      throw error;
    });
    try {
      return await Promise.race([work, deadline]);
    } finally {
      clearTimeout(timer);
      // The deadline may have won: the lookup winds down on the aborted signal.
      work.catch(() => {});
    }
  }

  return {
    async verify(raw) {
      const request = normalizeRequest(raw);
      return (await bounded(request.domain, [request.candidates]))[0];
    },
    async mailDomain(raw) {
      const domain = raw.trim().toLowerCase().replace(/\.$/, "");
      if (!isMailDomain(domain)) return { kind: "unusable", why: "no-mail-host" };
      const hosts = await mailHostsOf(domain, AbortSignal.timeout(config.commandTimeoutMs))
        .catch(() => null);
      if (hosts === null) return { kind: "unknown" };
      if (!Array.isArray(hosts)) {
        return hosts.kind === "unusable-domain" && hosts.why !== "no-public-address"
          ? { kind: "unusable", why: hosts.why }
          : { kind: "unknown" };
      }
      const known = await cache.readCatchAll(domain);
      return {
        kind: "hosts",
        hosts: hosts.map((host) => host.name),
        catchAll: known ? { catchAll: known.catchAll, checkedAt: known.evidence.checkedAt } : null,
      };
    },
    verifyBatch(raw) {
      const requests = raw.map(normalizeRequest);
      const domain = requests[0]?.domain;
      if (!domain || requests.some((request) => request.domain !== domain)) {
        throw new RangeError("a verification batch is one or more requests at one domain");
      }
      return bounded(domain, requests.map((request) => request.candidates));
    },
  };
}
