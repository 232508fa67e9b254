/**
 * The result cache of network search and enrich: a completed answer kept in KV for
 * `SEARCH_CACHE_SECONDS`, under an HMAC fingerprint of the normalised request (never the names or
 * the address themselves). A cached answer is still a completed lookup, billed like a fresh one
 * and marked `cached: true`. Expiry is read from the value, not from KV's `expireIn` (which only
 * bounds the earliest deletion); a KV failure is a miss, never a failed lookup.
 */
import type { Clock } from "../shared/clock.ts";
import type { Fingerprinter } from "../idempotency/fingerprint.ts";

export interface ResultCache {
  get<T>(scope: string, request: unknown): Promise<T | null>;
  set(scope: string, request: unknown, answer: unknown): Promise<void>;
}

interface Entry {
  answer: unknown;
  expiresAt: number;
}

export function resultCacheKey(scope: string, fingerprint: string): Deno.KvKey {
  return ["result_cache", scope, fingerprint];
}

/** Where the answer to a request is kept (erasure deletes a verdict by it). */
export function resultCacheKeyOf(
  fingerprint: Fingerprinter,
  scope: string,
  request: unknown,
): Deno.KvKey {
  return resultCacheKey(scope, fingerprint(`cache:${scope}`, request));
}

export function createResultCache(
  deps: { kv: Deno.Kv; clock: Clock; fingerprint: Fingerprinter; ttlSeconds: number },
): ResultCache {
  const key = (scope: string, request: unknown) =>
    resultCacheKeyOf(deps.fingerprint, scope, request);
  return {
    async get<T>(scope: string, request: unknown): Promise<T | null> {
      if (deps.ttlSeconds <= 0) return null;
      try {
        const entry = await deps.kv.get<Entry>(key(scope, request));
        if (!entry.value || entry.value.expiresAt <= deps.clock.now()) return null;
        return entry.value.answer as T;
      } catch {
        return null;
      }
    },
    async set(scope: string, request: unknown, answer: unknown): Promise<void> {
      if (deps.ttlSeconds <= 0) return;
      const ttlMs = deps.ttlSeconds * 1000;
      const value: Entry = { answer, expiresAt: deps.clock.now() + ttlMs };
      try {
        await deps.kv.atomic().set(key(scope, request), value, { expireIn: ttlMs }).commit();
      } catch {
        // A cache that cannot be written only costs the next caller a fresh lookup.
      }
    },
  };
}
