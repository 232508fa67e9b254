/**
 * Per-workspace, per-budget fixed-window rate limits kept in Deno KV, exact across every
 * process that shares the KV: each admission is an atomic check-and-set on the window's
 * counter. Concurrent requests for the same (budget, workspace) are coalesced (`coalesce`) into one KV
 * commit, which keeps the limiter cheap under load. Expiry is read from the window in the key,
 * not from KV's `expireIn` (which only bounds the earliest deletion).
 */
import type { RateLimitBudget, RateLimitRule } from "../config/config.ts";
import type { Clock } from "../shared/clock.ts";
import { withKvRetry } from "../stores/kv.ts";
import { type BatchRun, coalesce } from "../shared/coalesce.ts";

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (at least 1). */
  resetSeconds: number;
  windowSeconds: number;
}

export type RateLimiter = (
  budget: RateLimitBudget,
  workspaceId: string,
) => Promise<RateLimitDecision>;

export function rateLimitKey(
  budget: RateLimitBudget,
  workspaceId: string,
  window: number,
): Deno.KvKey {
  return ["rate_limit", budget, workspaceId, window];
}

export function createRateLimiter(
  deps: { kv: Deno.Kv; clock: Clock; rules: Record<RateLimitBudget, RateLimitRule> },
): RateLimiter {
  /** One coalescer per counter: requests waiting on it are admitted together in one cycle. */
  const counters = new Map<string, BatchRun<null, RateLimitDecision>>();
  /**
   * What this process last wrote to each counter. The next admission commits against it
   * directly (one KV round trip); if another process wrote since, the check fails and the
   * counter is read afresh. Counters only grow within a window, so a full one stays full.
   */
  const lastWritten = new Map<string, { window: number; value: number; versionstamp: string }>();

  async function admit(budget: RateLimitBudget, workspaceId: string, count: number) {
    const rule = deps.rules[budget];
    const windowMs = rule.windowSeconds * 1000;
    const counterId = `${budget}\u0000${workspaceId}`;
    for (let attempt = 0;; attempt++) {
      const now = deps.clock.now();
      const window = Math.floor(now / windowMs);
      const key = rateLimitKey(budget, workspaceId, window);
      const known = attempt === 0 ? lastWritten.get(counterId) : undefined;
      const entry = known?.window === window
        ? { key, value: known.value, versionstamp: known.versionstamp }
        : await withKvRetry(() => deps.kv.get<number>(key));
      const used = entry.value ?? 0;
      const granted = Math.max(0, Math.min(count, rule.limit - used));
      const resetSeconds = Math.max(1, Math.ceil(((window + 1) * windowMs - now) / 1000));
      if (granted > 0) {
        const result = await withKvRetry(() =>
          deps.kv.atomic().check(entry).set(key, used + granted, { expireIn: windowMs * 2 })
            .commit()
        );
        if (!result.ok) {
          lastWritten.delete(counterId);
          if (attempt > 50) throw new Error("rate limiter: too much contention on one counter");
          continue;
        }
        if (lastWritten.size > 10_000) lastWritten.clear();
        lastWritten.set(counterId, {
          window,
          value: used + granted,
          versionstamp: result.versionstamp,
        });
      }
      return { granted, used: used + granted, rule, resetSeconds };
    }
  }

  function counterFor(budget: RateLimitBudget, workspaceId: string) {
    const counterId = `${budget}\u0000${workspaceId}`;
    let run = counters.get(counterId);
    if (!run) {
      if (counters.size > 10_000) counters.clear();
      run = coalesce<null, RateLimitDecision>(async (waiting) => {
        const { granted, used, rule, resetSeconds } = await admit(
          budget,
          workspaceId,
          waiting.length,
        );
        return waiting.map((_, i) => ({
          allowed: i < granted,
          limit: rule.limit,
          remaining: Math.max(0, rule.limit - used),
          resetSeconds,
          windowSeconds: rule.windowSeconds,
        }));
      }, { maxInFlight: 1, maxBatchItems: 100_000 });
      counters.set(counterId, run);
    }
    return run;
  }

  return async (budget, workspaceId) => (await counterFor(budget, workspaceId)([null]))[0];
}
