/**
 * What the verification engine remembers per mail domain in Deno KV, for `cacheSeconds`: the
 * mail hosts (MX names in preference order, or the domain itself on the A/AAAA fallback) and
 * the catch-all verdict with the evidence of the probe that decided it. A known catch-all
 * domain is answered without any SMTP session; a known non-catch-all skips the probe.
 *
 * Expiry is read from `expiresAt` in the value against the clock (KV's `expireIn` only bounds
 * the earliest deletion). The cache is an optimisation: a KV failure reads as a miss and a
 * failed write is dropped, never failing a lookup.
 */
import type { Clock } from "../shared/clock.ts";
import { withKvRetry } from "../stores/kv.ts";
import type { SmtpEvidence } from "./email_verifier.ts";
import { mailProviderOf } from "./mail_provider.ts";

export interface CachedMailHosts {
  /** Host names to try, in order. */
  hosts: string[];
  expiresAt: number;
}

export interface CachedCatchAll {
  catchAll: boolean;
  /** The probe reply that decided it. */
  evidence: SmtpEvidence;
  expiresAt: number;
}

export function mailHostsKey(domain: string): Deno.KvKey {
  return ["verify", "mail_hosts", domain];
}

export function catchAllKey(domain: string): Deno.KvKey {
  return ["verify", "catch_all", domain];
}

export interface VerificationCache {
  readMailHosts(domain: string): Promise<string[] | null>;
  writeMailHosts(domain: string, hosts: string[]): Promise<void>;
  readCatchAll(domain: string): Promise<CachedCatchAll | null>;
  writeCatchAll(domain: string, catchAll: boolean, evidence: SmtpEvidence): Promise<void>;
}

export function createVerificationCache(
  deps: { kv: Deno.Kv; clock: Clock; cacheSeconds: number },
): VerificationCache {
  const ttlMs = deps.cacheSeconds * 1000;

  async function read<T extends { expiresAt: number }>(key: Deno.KvKey): Promise<T | null> {
    if (ttlMs <= 0) return null;
    try {
      const entry = await withKvRetry(() => deps.kv.get<T>(key));
      const value = entry.value;
      if (!value || typeof value.expiresAt !== "number") return null;
      return value.expiresAt > deps.clock.now() ? value : null;
    } catch {
      return null;
    }
  }

  async function write<T extends { expiresAt: number }>(key: Deno.KvKey, value: T): Promise<void> {
    if (ttlMs <= 0) return;
    try {
      const result = await withKvRetry(() =>
        deps.kv.atomic().set(key, value, { expireIn: ttlMs }).commit()
      );
      // An unchecked set cannot conflict; a false `ok` would only mean the write was dropped,
      // which a cache can afford.
      void result.ok;
    } catch {
      // KV unavailable: the next lookup asks DNS/SMTP again.
    }
  }

  return {
    async readMailHosts(domain) {
      const value = await read<CachedMailHosts>(mailHostsKey(domain));
      return value && Array.isArray(value.hosts) && value.hosts.length > 0 ? value.hosts : null;
    },
    writeMailHosts(domain, hosts) {
      return write(mailHostsKey(domain), { hosts, expiresAt: deps.clock.now() + ttlMs });
    },
    async readCatchAll(domain) {
      const value = await read<CachedCatchAll>(catchAllKey(domain));
      if (!value?.evidence) return null;
      // An entry written by an older release lacks the provider and TLS fields.
      const evidence: SmtpEvidence = {
        ...value.evidence,
        provider: value.evidence.provider ?? mailProviderOf(value.evidence.mxHost),
        encrypted: value.evidence.encrypted ?? null,
        certificateVerified: value.evidence.certificateVerified ?? null,
      };
      return { ...value, evidence };
    },
    writeCatchAll(domain, catchAll, evidence) {
      return write(catchAllKey(domain), {
        catchAll,
        evidence,
        expiresAt: deps.clock.now() + ttlMs,
      });
    },
  };
}
