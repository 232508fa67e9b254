/**
 * Charging billable units. Every unit has a charge key that is unique per workspace, so a unit
 * is charged at most once whatever retries or crashes happen; the database refuses a charge
 * that would make `available` negative. A fixed group of units (the rows of one chunk of a
 * batch) may share one posting and one key, with `units` saying how many it pays for.
 *
 * Charges from concurrent requests are coalesced: while one flush is in flight, new charges
 * queue and go together in the next single call of `ledger_charge_many` (one transaction, one
 * round trip). Each caller still gets its own outcome, and only after the charge is committed.
 */
import type { Sql } from "../stores/database.ts";
import { coalesce } from "../shared/coalesce.ts";
import { type Balance, toBalance, ZERO_BALANCE } from "./balance.ts";

export interface ChargeRequest {
  workspaceId: string;
  amount: number;
  /** The billable unit (or group of units): unique per workspace. */
  chargeKey: string;
  /**
   * How many billable units this one posting pays for (default 1): the answered rows of one
   * chunk of a batch are charged together under the chunk's key.
   */
  units?: number;
  /** Price-table operation name, kept on the posting. */
  operation: string;
  /** When the unit belongs to an idempotency record held under a lease. */
  idempotency?: {
    key: string;
    leaseToken: string;
    /** Mark the record done in the same transaction, storing this response (or null). */
    complete?: { response: unknown };
  };
}

export type ChargeOutcome = "charged" | "duplicate" | "insufficient" | "lease_lost";

export interface ChargeResult {
  outcome: ChargeOutcome;
  balance: Balance;
}

export type ChargeUnits = (requests: ChargeRequest[]) => Promise<ChargeResult[]>;

export function createCharger(
  sql: Sql,
  options: { maxInFlight?: number; maxBatchItems?: number } = {},
): ChargeUnits {
  const run = coalesce<ChargeRequest, ChargeResult>(
    async (requests) => {
      const rows = await sql<
        {
          idx: number;
          outcome: ChargeOutcome;
          available: string | null;
          reserved: string | null;
          granted: string | null;
        }[]
      >`SELECT idx, outcome, available, reserved, granted
          FROM ledger_charge_many(${sql.json(requests.map(toItem) as never)}::jsonb) ORDER BY idx`;
      return rows.map((row) => ({
        outcome: row.outcome,
        balance: row.available === null ? { ...ZERO_BALANCE } : toBalance(row as never),
      }));
    },
    { maxInFlight: options.maxInFlight ?? 2, maxBatchItems: options.maxBatchItems ?? 500 },
  );
  return (requests) => {
    for (const request of requests) {
      if (!Number.isSafeInteger(request.amount) || request.amount < 0) {
        return Promise.reject(new Error("charge amount must be a non-negative integer"));
      }
      if (
        request.units !== undefined && (!Number.isSafeInteger(request.units) || request.units < 1)
      ) {
        return Promise.reject(new Error("charge units must be a positive integer"));
      }
    }
    return run(requests);
  };
}

function toItem(request: ChargeRequest): Record<string, unknown> {
  const item: Record<string, unknown> = {
    w: request.workspaceId,
    a: request.amount,
    k: request.chargeKey,
    o: request.operation,
  };
  if (request.units !== undefined && request.units !== 1) item.u = request.units;
  if (request.idempotency) {
    item.i = request.idempotency.key;
    item.t = request.idempotency.leaseToken;
    if (request.idempotency.complete) {
      item.d = true;
      item.r = request.idempotency.complete.response ?? null;
    }
  }
  return item;
}
