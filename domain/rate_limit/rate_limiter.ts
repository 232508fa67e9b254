/**
 * Per-workspace, per-budget fixed-window rate limits kept in Deno KV, exact across every
 * process that shares the KV to within 2% of the budget.
 *
 * The window's KV counter says how many admissions have been **leased** out, by all processes
 * together; it never exceeds the limit, so no more than the limit is ever admitted. A process
 * admits from its own lease without touching KV, and takes a new one (one atomic check-and-set)
 * only when its lease is spent: the requests waiting then, plus a small prefetch (the slice) for
 * the ones it expects next. Requests waiting on the same counter are coalesced into one lease.
 *
 * The slice is adaptive: about what this process admitted in the last `LEASE_TARGET_MS` at its
 * current rate, and at most 2% of the limit shared out between the processes that leased in
 * this window (1% each for one or two processes; a small limit gets no prefetch at all, so it is
 * exact). Unused leases are forfeited at the window's end; what they strand is at most the
 * processes' last slices together, i.e. within 2% of the budget. Expiry is read from the window
 * in the key, not from KV's `expireIn` (which only bounds the earliest deletion).
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

/** The window's counter: admissions leased out so far by every process (a plain number). */
export function rateLimitKey(
  budget: RateLimitBudget,
  workspaceId: string,
  window: number,
): Deno.KvKey {
  return ["rate_limit", budget, workspaceId, window];
}

/** How many processes leased from the window's counter (sizes their slices). */
export function rateLimitHoldersKey(
  budget: RateLimitBudget,
  workspaceId: string,
  window: number,
): Deno.KvKey {
  return ["rate_limit_holders", budget, workspaceId, window];
}

/** What all processes together may strand in unused leases: 2% of the limit. */
export const STRANDED_SHARE = 0.02;
/** A slice covers about this long of the process's current admission rate. */
export const LEASE_TARGET_MS = 100;

/** The largest prefetch a process may take, given how many processes lease in the window. */
export function maxSlice(limit: number, holders: number): number {
  return Math.floor(limit * STRANDED_SHARE / Math.max(2, holders));
}

/** One process's lease on one window's counter. */
interface Lease {
  window: number;
  /** Admissions leased and not yet used, here. */
  unused: number;
  /** The counter's value after this process's last write, with its versionstamp. */
  counter: number;
  versionstamp: string | null;
  /** Processes leasing in this window, as last read (this one included once it joined). */
  holders: number;
  joined: boolean;
  /** When the last lease was taken, and admissions since (for the next slice). */
  leasedAt: number;
  admittedSince: number;
}

export function createRateLimiter(
  deps: { kv: Deno.Kv; clock: Clock; rules: Record<RateLimitBudget, RateLimitRule> },
): RateLimiter {
  /** One coalescer per counter: requests that find the lease spent wait for the next one. */
  const counters = new Map<string, BatchRun<null, RateLimitDecision>>();
  const leases = new Map<string, Lease>();

  function windowOf(rule: RateLimitRule, now: number) {
    const windowMs = rule.windowSeconds * 1000;
    const window = Math.floor(now / windowMs);
    const resetSeconds = Math.max(1, Math.ceil(((window + 1) * windowMs - now) / 1000));
    return { windowMs, window, resetSeconds };
  }

  function decision(
    rule: RateLimitRule,
    allowed: boolean,
    lease: Lease | undefined,
    resetSeconds: number,
  ): RateLimitDecision {
    // What is left: the budget not leased to anyone, plus this process's unused lease.
    const remaining = !allowed ? 0 : lease ? rule.limit - lease.counter + lease.unused : 0;
    return {
      allowed,
      limit: rule.limit,
      remaining: Math.max(0, Math.min(rule.limit, remaining)),
      resetSeconds,
      windowSeconds: rule.windowSeconds,
    };
  }

  /** Admits from this process's lease, without KV; null when the lease is spent or stale. */
  function admitLocally(counterId: string, rule: RateLimitRule): RateLimitDecision | null {
    const lease = leases.get(counterId);
    if (!lease || lease.unused <= 0) return null;
    const { window, resetSeconds } = windowOf(rule, deps.clock.now());
    if (lease.window !== window) return null;
    lease.unused--;
    lease.admittedSince++;
    return decision(rule, true, lease, resetSeconds);
  }

  /** Takes a lease for `count` waiting requests plus a slice; returns how many were admitted. */
  async function lease(budget: RateLimitBudget, workspaceId: string, count: number) {
    const rule = deps.rules[budget];
    const counterId = `${budget}\u0000${workspaceId}`;
    for (let attempt = 0;; attempt++) {
      const now = deps.clock.now();
      const { windowMs, window, resetSeconds } = windowOf(rule, now);
      const key = rateLimitKey(budget, workspaceId, window);
      const holdersKey = rateLimitHoldersKey(budget, workspaceId, window);
      let known = leases.get(counterId);
      if (known && known.window !== window) known = undefined; // the old lease is forfeited
      let used: number;
      let versionstamp: string | null;
      let holders: number;
      let holdersEntry: Deno.KvEntryMaybe<number> | null = null;
      if (attempt === 0 && known?.versionstamp) {
        // (A lease held here means this process joined already: nothing to check on holders.)
        // Commit against what this process last wrote: one round trip. If another process
        // wrote since, the check fails and the counter is read afresh.
        used = known.counter;
        versionstamp = known.versionstamp;
        holders = known.holders;
      } else {
        const [counterEntry, holdersRead] = await withKvRetry(() =>
          deps.kv.getMany<[number, number]>([key, holdersKey])
        );
        used = counterEntry.value ?? 0;
        versionstamp = counterEntry.versionstamp;
        holdersEntry = holdersRead;
        holders = holdersRead.value ?? 0;
      }
      const joining = !known?.joined;
      if (joining) holders++;
      const available = Math.max(0, rule.limit - used);
      const granted = Math.min(count, available);
      if (granted === 0) return { granted, resetSeconds, lease: known }; // spent for this window
      const slice = nextSlice(rule.limit, holders, known, count, now);
      const taken = granted + Math.min(slice, available - granted);
      const op = deps.kv.atomic()
        .check({ key, versionstamp })
        .set(key, used + taken, { expireIn: windowMs * 2 });
      // A process joins the window with its first lease; another may join at the same time, so
      // the holders entry is checked too.
      if (joining) op.check(holdersEntry!).set(holdersKey, holders, { expireIn: windowMs * 2 });
      const result = await withKvRetry(() => op.commit());
      if (!result.ok) {
        if (known) known.versionstamp = null;
        if (attempt > 50) throw new Error("rate limiter: too much contention on one counter");
        continue;
      }
      if (!known && leases.size > 10_000) leases.clear();
      const next: Lease = {
        window,
        unused: (known?.unused ?? 0) + taken - granted,
        counter: used + taken,
        versionstamp: result.versionstamp,
        holders,
        joined: true,
        leasedAt: now,
        admittedSince: 0,
      };
      leases.set(counterId, next);
      return { granted, resetSeconds, lease: next };
    }
  }

  /**
   * The prefetch of a new lease: what this process admitted over the last `LEASE_TARGET_MS` at
   * the rate since its previous lease, capped by its share of the 2% (0 for small limits).
   */
  function nextSlice(
    limit: number,
    holders: number,
    previous: Lease | undefined,
    waiting: number,
    now: number,
  ): number {
    const cap = maxSlice(limit, holders);
    if (cap <= 0) return 0;
    if (!previous) return Math.min(cap, waiting);
    const elapsed = Math.max(1, now - previous.leasedAt);
    const admitted = previous.admittedSince + waiting;
    return Math.min(cap, Math.ceil(admitted * LEASE_TARGET_MS / elapsed));
  }

  function counterFor(budget: RateLimitBudget, workspaceId: string) {
    const counterId = `${budget}\u0000${workspaceId}`;
    let run = counters.get(counterId);
    if (!run) {
      if (counters.size > 10_000) counters.clear();
      const rule = deps.rules[budget];
      run = coalesce<null, RateLimitDecision>(async (waiting) => {
        // A lease taken while these waited may cover some of them.
        const decisions: RateLimitDecision[] = [];
        while (decisions.length < waiting.length) {
          const local = admitLocally(counterId, rule);
          if (!local) break;
          decisions.push(local);
        }
        const count = waiting.length - decisions.length;
        if (count === 0) return decisions;
        const { granted, resetSeconds, lease: held } = await lease(budget, workspaceId, count);
        for (let i = 0; i < count; i++) {
          decisions.push(decision(rule, i < granted, held, resetSeconds));
        }
        return decisions;
      }, { maxInFlight: 1, maxBatchItems: 100_000 });
      counters.set(counterId, run);
    }
    return run;
  }

  return async (budget, workspaceId) => {
    const local = admitLocally(`${budget}\u0000${workspaceId}`, deps.rules[budget]);
    if (local) return local;
    return (await counterFor(budget, workspaceId)([null]))[0];
  };
}
