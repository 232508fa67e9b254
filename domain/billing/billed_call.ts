/**
 * One billed call, for every billable operation (spec §4.9, §4.10): claim the Idempotency-Key
 * (fingerprint, claim), replay a finished call, refuse before any work when the workspace cannot
 * pay, run the work, charge its billable **parts** (zero, one, or two as in find's `company`
 * mode), store the outcome for replay (or recompute it, for name parse), and give the key back
 * when nothing was charged.
 *
 * The work returns an outcome value: a provider failure is an answer with a reason and no parts,
 * never an exception. An exception (a fault, or a refusal such as name parse's `invalid_input`)
 * releases the key and reaches the route's error handler; nothing was charged.
 *
 * A call with a worst case holds it in process while it runs (`hold_in_flight.ts`): concurrent
 * calls of one workspace are refused when the balance less what the others hold cannot pay.
 *
 * Charge keys derive from the Idempotency-Key (`<scope>:<key>:<part>`), so the ledger alone says
 * which parts were paid: a retry after a crash or a partial outcome charges only what is missing.
 */
import type { PriceTable } from "../config/config.ts";
import type { DomainContext } from "../context.ts";
import { ServiceError } from "../errors.ts";
import { type Balance, readBalance, readBalanceOrNull } from "./balance.ts";
import type { ChargeRequest, ChargeResult } from "./charge_units.ts";
import { holdInFlight } from "./hold_in_flight.ts";
import { holdLease } from "../idempotency/hold_lease.ts";

export const INCOMPLETE_MESSAGE =
  "The charge could not be recorded, so the answer was not delivered and nothing was billed; retry";
export const LEASE_LOST_MESSAGE = "A request with this Idempotency-Key took over; retry shortly";

/** One billable part of an answer: a unit of the price table, under its own charge key. */
export interface BillablePart {
  /** Names the part inside the call (`""` for a call with one part, `company`, `email` …). */
  part: string;
  price: keyof PriceTable;
}

/** What the work produced: the answer, the parts it makes billable, and whether it is final. */
export interface WorkOutcome<A> {
  answer: A;
  parts: BillablePart[];
  /**
   * A final outcome completes the Idempotency-Key: a retry replays it. Otherwise (a provider
   * could not answer) the key stays open: a retry with it runs again, and parts already charged
   * under it are not charged twice.
   */
  final: boolean;
}

export interface BilledCallSpec<A> {
  workspaceId: string;
  /** Names the operation in fingerprints and charge keys (e.g. `find`). */
  scope: string;
  /** The request as fingerprinted: equal requests replay, a different one under the key conflicts. */
  request: unknown;
  idempotencyKey?: string;
  /**
   * Points the call may cost at most. When set, a workspace with fewer available is refused
   * before any work (`insufficient`), and nothing is charged.
   */
  worstCase?: number;
  work(): Promise<WorkOutcome<A>>;
  /**
   * The answer to a finished call: `stored` is what `store` kept (null for operations that keep
   * nothing, such as name parse, which recompute).
   */
  replay(stored: unknown): Promise<A> | A;
  /** What to keep of a final answer for replays; omit to keep nothing. */
  store?(answer: A): unknown;
  /**
   * For lookups: the answer's reason for `lookups_total` (`found` when one was found). Counted
   * for answers the work produced (and refusals for points), not for replays.
   */
  reasonOf?(answer: A): string;
}

export interface Billing {
  charged: boolean;
  pointsCharged: number;
  replay: boolean;
  balance: Balance | null;
}

export type BilledCallResult<A> =
  | { kind: "answered"; answer: A; billing: Billing }
  /**
   * The workspace cannot pay: refused before any work (`answer` absent), or, when another call
   * spent the points meanwhile, the answer is withheld. Parts charged anyway are in `billing`.
   */
  | { kind: "insufficient"; required: number; available: number; billing: Billing };

/** Fingerprint, claim and release of one call's Idempotency-Key, shared by every billed verb. */
export interface CallClaim {
  /** `done`: answered before (replay); `claimed`: this call holds the key; `anonymous`: no key. */
  kind: "done" | "claimed" | "anonymous";
  /** For `done`: what was stored (null for operations that store nothing). */
  stored: unknown;
  /** For a freshly created record: the workspace's available points, read in the same statement. */
  available?: number;
  /** True when an earlier attempt held the key (some parts may have been charged under it). */
  resumed: boolean;
  /** The charge key of a part (`<scope>:<key>[:<part>]`, or a random one without a key). */
  chargeKey(part: string): string;
  /** The idempotency fields of a charge request (absent without a key). */
  idempotency(complete?: { response: unknown }): ChargeRequest["idempotency"];
  /**
   * Gives the key back after the call did not finish. `keep` false forgets it (nothing was ever
   * charged under it, so a corrected request may use it); `keep` true only ends the lease, so the
   * same request resumes at once and the ledger says what was already paid.
   */
  release(keep: boolean): Promise<void>;
  /** Marks the key done without a charge (a final outcome that cost nothing). */
  complete(response?: unknown): Promise<void>;
  /**
   * Renews the key's lease while the call works, so a slow call is never taken for a dead one;
   * the returned function stops it (call it before `release`). A no-op without a held key.
   */
  keepAlive(): () => Promise<void>;
}

const NOT_HELD = () => () => Promise.resolve();

export async function claimCall(
  ctx: DomainContext,
  input: { workspaceId: string; scope: string; request: unknown; idempotencyKey?: string },
): Promise<CallClaim> {
  const { workspaceId, scope } = input;
  const key = input.idempotencyKey;
  if (key === undefined) {
    const base = `${scope}.anonymous:${crypto.randomUUID()}`;
    return {
      kind: "anonymous",
      stored: null,
      resumed: false,
      chargeKey: (part) => (part ? `${base}:${part}` : base),
      idempotency: () => undefined,
      release: () => Promise.resolve(),
      complete: () => Promise.resolve(),
      keepAlive: NOT_HELD,
    };
  }
  const claim = await ctx.idempotency.claim({
    workspaceId,
    key,
    scope,
    fingerprint: ctx.fingerprint(scope, input.request),
  });
  const base = `${scope}:${key}`;
  const chargeKey = (part: string) => (part ? `${base}:${part}` : base);
  if (claim.kind === "done") {
    return {
      kind: "done",
      stored: claim.response,
      resumed: false,
      chargeKey,
      idempotency: () => undefined,
      release: () => Promise.resolve(),
      complete: () => Promise.resolve(),
      keepAlive: NOT_HELD,
    };
  }
  const leaseToken = claim.leaseToken;
  return {
    kind: "claimed",
    stored: null,
    available: claim.available,
    resumed: claim.resumed,
    chargeKey,
    idempotency: (complete) => ({ key, leaseToken, ...(complete ? { complete } : {}) }),
    // A key under which nothing was ever charged is forgotten, so a corrected request may use it;
    // otherwise only the lease ends, so a retry resumes at once and the ledger decides.
    release: (keep) =>
      ctx.idempotency.release({ workspaceId, key, leaseToken, forget: !keep })
        .catch(() => {}),
    complete: (response) => ctx.idempotency.complete({ workspaceId, key, leaseToken, response }),
    keepAlive: () => holdLease(ctx.idempotency, { workspaceId, key, leaseToken }),
  };
}

export async function runBilledCall<A>(
  ctx: DomainContext,
  spec: BilledCallSpec<A>,
): Promise<BilledCallResult<A>> {
  const result = await runHoldingWorstCase(ctx, spec);
  if (spec.reasonOf && !(result.kind === "answered" && result.billing.replay)) {
    ctx.telemetry.count({
      kind: "lookup",
      operation: spec.scope,
      reason: result.kind === "answered" ? spec.reasonOf(result.answer) : "insufficient-credits",
      workspaceId: spec.workspaceId,
    });
  }
  return result;
}

async function runHoldingWorstCase<A>(
  ctx: DomainContext,
  spec: BilledCallSpec<A>,
): Promise<BilledCallResult<A>> {
  // The worst case is held in process from before the balance is read until the charge is
  // recorded, so concurrent calls cannot all pass the check on the same points (hold_in_flight.ts).
  const hold = spec.worstCase !== undefined && spec.worstCase > 0
    ? holdInFlight(ctx.db, { workspaceId: spec.workspaceId, amount: spec.worstCase })
    : null;
  try {
    return await runHeldCall(ctx, spec, hold?.others ?? 0);
  } finally {
    hold?.release();
  }
}

async function runHeldCall<A>(
  ctx: DomainContext,
  spec: BilledCallSpec<A>,
  heldByOthers: number,
): Promise<BilledCallResult<A>> {
  const call = await claimCall(ctx, spec);
  if (call.kind === "done") {
    ctx.telemetry.count({ kind: "idempotency_replay", operation: spec.scope });
    const answer = await spec.replay(call.stored);
    const balance = await readBalanceOrNull(ctx, spec.workspaceId);
    return {
      kind: "answered",
      answer,
      billing: { charged: false, pointsCharged: 0, replay: true, balance },
    };
  }

  const stopRenewing = call.keepAlive();
  let finished = false;
  // Once a charge was attempted (or an earlier attempt held the key) the key is never forgotten:
  // a charge may have committed even when its answer was lost, and only the same request may
  // find it in the ledger. Before that, a refusal or fault gives the key back whole.
  let chargeAttempted = call.resumed;
  try {
    if (spec.worstCase !== undefined && spec.worstCase > 0) {
      const available = call.available ??
        (await readBalance(ctx, spec.workspaceId)).available;
      // What the workspace's other calls in flight may still spend is not free.
      if (available - heldByOthers < spec.worstCase) {
        const balance = await readBalanceOrNull(ctx, spec.workspaceId);
        return {
          kind: "insufficient",
          required: spec.worstCase,
          available,
          billing: { charged: false, pointsCharged: 0, replay: false, balance },
        };
      }
    }

    const outcome = await spec.work();
    const stored = outcome.final ? { response: spec.store?.(outcome.answer) ?? null } : undefined;
    if (outcome.parts.length === 0) {
      if (outcome.final) await call.complete(stored!.response);
      finished = outcome.final;
      return {
        kind: "answered",
        answer: outcome.answer,
        billing: {
          charged: false,
          pointsCharged: 0,
          replay: false,
          balance: await readBalanceOrNull(ctx, spec.workspaceId),
        },
      };
    }

    const requests: ChargeRequest[] = outcome.parts.map((part, i) => ({
      workspaceId: spec.workspaceId,
      amount: ctx.prices[part.price],
      chargeKey: call.chargeKey(part.part),
      operation: part.price,
      // Without an Idempotency-Key the charge key is random and never looked up: the unit may
      // share a posting with other such units (charge_units.ts).
      pooled: call.kind === "anonymous",
      // The last part's charge marks the key done in the same transaction.
      idempotency: call.idempotency(i === outcome.parts.length - 1 ? stored : undefined),
    }));
    chargeAttempted = true;
    const results = await chargeOrIncomplete(ctx, requests);
    const billing = billingOf(requests, results);
    if (results.some((r) => r.outcome === "lease_lost")) {
      throw new ServiceError("idempotency_in_progress", LEASE_LOST_MESSAGE, {
        headers: { "Retry-After": "1" },
      });
    }
    if (results.some((r) => r.outcome === "insufficient")) {
      const required = requests.filter((_, i) => results[i].outcome === "insufficient")
        .reduce((sum, request) => sum + request.amount, 0);
      return {
        kind: "insufficient",
        required,
        available: billing.balance?.available ?? 0,
        billing,
      };
    }
    finished = outcome.final;
    return { kind: "answered", answer: outcome.answer, billing };
  } finally {
    await stopRenewing();
    if (!finished) await call.release(chargeAttempted);
  }
}

/**
 * What a call's charges add up to: what was charged now, and the balance. Never a replay: the work
 * ran (a key whose earlier attempt charged a part, then a provider failed, runs again), so the
 * answer is new, even when every part it makes billable was paid before under the same key and
 * nothing is charged now (spec §4.9.3: a replay returns the original outcome; that is the `done`
 * path above).
 */
function billingOf(requests: ChargeRequest[], results: ChargeResult[]): Billing {
  let pointsCharged = 0;
  results.forEach((result, i) => {
    if (result.outcome === "charged") pointsCharged += requests[i].amount;
  });
  return {
    charged: results.some((r) => r.outcome === "charged"),
    pointsCharged,
    replay: false,
    balance: results[results.length - 1]?.balance ?? null,
  };
}

/**
 * Charges, or refuses the answer with 503 `incomplete` when the charge cannot be recorded: an
 * answer is delivered only after its charge is durable. (Under an Idempotency-Key a retry finds
 * out from the ledger whether a charge committed before the failure, and then replays free.)
 */
export async function chargeOrIncomplete(
  ctx: DomainContext,
  requests: ChargeRequest[],
): Promise<ChargeResult[]> {
  try {
    return await ctx.charge(requests);
  } catch (error) {
    ctx.logger.warn("charge could not be recorded", {
      units: requests.length,
      errorName: (error as Error)?.name ?? typeof error,
      errorCode: String((error as { code?: unknown })?.code ?? ""),
    });
    throw new ServiceError("incomplete", INCOMPLETE_MESSAGE);
  }
}
