/**
 * A fleet-wide pause per mail host, in Deno KV (shared by every instance sharing the KV): after a
 * host answers 421 or "too many connections", no instance dials it again until the pause is over
 * (for the time its reply states, else `VERIFY_HOST_BACKOFF_SECONDS`). Mail providers that see
 * one IP ignore "come back later" block it; a pause kept in one process would let the other
 * instances go on dialling.
 *
 * Expiry is read from `until` in the value (KV's `expireIn` only bounds the earliest deletion);
 * writes are atomic and checked, keeping the later of two pauses. A KV failure reads as "not
 * paused" and drops the write: the pace is politeness, never a reason to fail a lookup.
 */
import type { Clock } from "../shared/clock.ts";
import { withKvRetry } from "../stores/kv.ts";
import type { SmtpReply } from "../providers/smtp/smtp_client.ts";
import { statedDelayMs } from "./greylist_memory.ts";

export interface HostPause {
  until: number;
}

export function hostPaceKey(host: string): Deno.KvKey {
  return ["verify", "host_pace", host.toLowerCase()];
}

export interface HostPace {
  /** When the pause on `host` ends (`Date.now()` time), or null when it is not paused. */
  pausedUntil(host: string): Promise<number | null>;
  /** Pauses `host` for `ms` from now (keeping a later pause already set). */
  pause(host: string, ms: number): Promise<void>;
}

/** Whether a reply asks us to come back later as a client: 421, or "too many connections". */
export function asksToBackOff(reply: SmtpReply | null): boolean {
  if (!reply) return false;
  return reply.code === 421 || /too many (concurrent )?(connections|sessions)/i.test(reply.text);
}

/** How long to leave the host alone after `reply`: its own words, else `defaultMs`. */
export function backOffMs(reply: SmtpReply, defaultMs: number): number {
  return statedDelayMs(reply.text) ?? defaultMs;
}

export function createHostPace(deps: { kv: Deno.Kv; clock: Clock }): HostPace {
  return {
    async pausedUntil(host) {
      try {
        const entry = await withKvRetry(() => deps.kv.get<HostPause>(hostPaceKey(host)));
        const until = entry.value?.until;
        return typeof until === "number" && until > deps.clock.now() ? until : null;
      } catch {
        return null;
      }
    },
    async pause(host, ms) {
      if (ms <= 0) return;
      const key = hostPaceKey(host);
      const until = deps.clock.now() + ms;
      try {
        for (let attempt = 0; attempt < 3; attempt++) {
          const entry = await withKvRetry(() => deps.kv.get<HostPause>(key));
          if ((entry.value?.until ?? 0) >= until) return;
          const result = await withKvRetry(() =>
            deps.kv.atomic().check(entry).set(key, { until }, { expireIn: ms }).commit()
          );
          if (result.ok) return;
        }
      } catch {
        // KV unavailable: the pause is dropped.
      }
    },
  };
}
