/**
 * What the engine remembers of greylisting, in Deno KV (shared by every instance that shares the
 * KV): per MX host and recipient, when that host first deferred that recipient and how long it
 * was expected to wait. A lookup that is still deferred answers `unavailable` (`greylisted`) with
 * `retryAfterSeconds` counted from the *first* deferral, so a caller that comes back and is
 * deferred again (too early) is told the time that is left, not a new full delay.
 *
 * The recipient is kept only as an HMAC under the engine's secret (no address reaches KV). An
 * entry lasts a day (`GREYLIST_MEMORY_MS`): longer than any greylisting delay worth waiting for,
 * shorter than postgrey's retry window (2 days). Expiry is read from `expiresAt` in the value
 * (KV's `expireIn` only bounds the earliest deletion). Every write is an atomic checked one, so
 * two instances deferred at once keep the earlier time. A KV failure never fails a lookup: the
 * answer then counts from now.
 */
import { createHmac } from "node:crypto";
import type { Clock } from "../shared/clock.ts";
import { withKvRetry } from "../stores/kv.ts";

/** How long a first deferral is remembered. */
export const GREYLIST_MEMORY_MS = 86_400_000;

export interface GreylistEntry {
  firstDeferredAt: number;
  /** How long the host was expected to defer (its reply's words, or the configured delay). */
  delayMs: number;
  expiresAt: number;
}

export function greylistKey(host: string, recipientTag: string): Deno.KvKey {
  return ["verify", "greylist", host.toLowerCase(), recipientTag];
}

export interface GreylistMemory {
  /**
   * Records that `host` deferred `recipients` now (keeping an earlier first deferral) and
   * returns when the last of them is expected to pass (`Date.now()` time).
   */
  deferred(host: string, recipients: readonly string[], delayMs: number): Promise<number>;
  /** Whether `host` deferred `recipient` within the memory's time (the probe of yesterday). */
  remembers(host: string, recipient: string): Promise<boolean>;
}

export function createGreylistMemory(
  deps: { kv: Deno.Kv; clock: Clock; secret: string },
): GreylistMemory {
  const tag = (recipient: string) =>
    createHmac("sha256", deps.secret).update(`greylist\u0000${recipient.toLowerCase()}`)
      .digest("hex").slice(0, 32);

  const live = (value: GreylistEntry | null): value is GreylistEntry =>
    !!value && typeof value.expiresAt === "number" && value.expiresAt > deps.clock.now() &&
    typeof value.firstDeferredAt === "number" && typeof value.delayMs === "number";

  async function deferOne(host: string, recipient: string, delayMs: number): Promise<number> {
    const now = deps.clock.now();
    const key = greylistKey(host, tag(recipient));
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const entry = await withKvRetry(() => deps.kv.get<GreylistEntry>(key));
        if (live(entry.value)) return entry.value.firstDeferredAt + entry.value.delayMs;
        const value: GreylistEntry = {
          firstDeferredAt: now,
          delayMs,
          expiresAt: now + GREYLIST_MEMORY_MS,
        };
        const result = await withKvRetry(() =>
          deps.kv.atomic().check(entry).set(key, value, { expireIn: GREYLIST_MEMORY_MS }).commit()
        );
        if (result.ok) return now + delayMs;
        // Another lookup wrote first: read its time.
      }
    } catch {
      // KV unavailable: count from now.
    }
    return now + delayMs;
  }

  return {
    async deferred(host, recipients, delayMs) {
      const passes = await Promise.all(recipients.map((r) => deferOne(host, r, delayMs)));
      return Math.max(deps.clock.now(), ...passes);
    },
    async remembers(host, recipient) {
      try {
        const entry = await withKvRetry(() =>
          deps.kv.get<GreylistEntry>(greylistKey(host, tag(recipient)))
        );
        return live(entry.value);
      } catch {
        return false;
      }
    },
  };
}

/**
 * The delay a greylisting reply states ("Greylisted for 300 seconds", "try again in 5 minutes",
 * postgrey's `%s` in its text), or null when it names none (postgrey's default text).
 */
export function statedDelayMs(text: string): number | null {
  const match = /(\d{1,6})\s*(seconds?|secs?|s\b|minutes?|mins?)/i.exec(text);
  if (!match) return null;
  const n = Number(match[1]);
  const ms = /^m/i.test(match[2]) ? n * 60_000 : n * 1000;
  return ms > 0 && ms <= GREYLIST_MEMORY_MS ? ms : null;
}

/**
 * Seconds until the caller should ask again, from when the deferral is expected to pass. Past
 * that time (the host defers longer than it said or than we assumed) a fifth of the delay more,
 * at least a second.
 */
export function retryAfterSeconds(passesAt: number, delayMs: number, now: number): number {
  const left = passesAt - now;
  return Math.max(1, Math.ceil((left > 0 ? left : delayMs / 5) / 1000));
}
