/**
 * Charging billable units. Every unit has a charge key that is unique per workspace, so a unit
 * is charged at most once whatever retries or crashes happen; the database refuses a charge
 * that would make `available` negative. A fixed group of units (the rows of one chunk of a
 * batch) may share one posting and one key, with `units` saying how many it pays for.
 *
 * Charges from concurrent requests are coalesced (group commit): while a flush is in flight, new
 * charges queue and go together in the next single call of `ledger_charge_many` (one
 * transaction, one round trip, one WAL flush). Each caller still gets its own outcome, and only
 * after the charge is committed.
 *
 * Flushes are sharded by workspace, one in flight per shard: every flush locks its workspaces'
 * balance rows until its commit is durable, so a second flush for the same workspace would only
 * wait on that lock holding fewer units; other workspaces' flushes run beside it.
 *
 * Units that nobody can ever look up by key (`pooled`: calls without an Idempotency-Key, whose
 * keys are random) are posted together: the pooled units of one workspace and operation in a
 * flush become one posting under the first one's key, with `units` saying how many it pays for,
 * so a flush costs the database about the same whatever it carries. If that posting cannot be
 * paid whole, its units are charged one by one in order (as many as the balance covers).
 */
import type { Sql } from "../stores/database.ts";
import { coalesce } from "../shared/coalesce.ts";
import type { ChargeOutcome, ChargeRequest, ChargeResult, ChargeUnits } from "../ports.ts";
import { toBalance, ZERO_BALANCE } from "./balance.ts";

export type { ChargeOutcome, ChargeRequest, ChargeResult, ChargeUnits } from "../ports.ts";

export function createCharger(
  sql: Sql,
  options: { maxInFlight?: number; maxBatchItems?: number } = {},
): ChargeUnits {
  const flush = async (requests: ChargeRequest[]): Promise<ChargeResult[]> => {
    const { items, members } = pool(requests);
    // One pooled posting alone (the usual flush of key-less calls): one plain statement.
    const results = items.length === 1 && items[0].pooled && !items[0].idempotency
      ? await chargePooled(sql, items[0])
      : await chargeMany(sql, items);
    if (members.length === 0) return results;
    // Back to one result per request; a pooled posting that could not be paid whole is charged
    // again unit by unit (nothing of it was posted).
    const out: ChargeResult[] = new Array(requests.length);
    const retry: number[] = [];
    members.forEach((indexes, i) => {
      if (results[i].outcome === "insufficient" && indexes.length > 1) retry.push(...indexes);
      else for (const index of indexes) out[index] = results[i];
    });
    if (retry.length > 0) {
      const again = await chargeMany(sql, retry.map((index) => requests[index]));
      retry.forEach((index, i) => (out[index] = again[i]));
    }
    return out;
  };
  const shards = Array.from(
    { length: Math.max(1, options.maxInFlight ?? 2) },
    () => coalesce(flush, { maxInFlight: 1, maxBatchItems: options.maxBatchItems ?? 500 }),
  );
  const shardOf = (workspaceId: string) => {
    let hash = 0;
    for (let i = 0; i < workspaceId.length; i++) hash = (hash * 31 + workspaceId.charCodeAt(i)) | 0;
    return shards[Math.abs(hash) % shards.length];
  };
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
    const shard = shardOf(requests[0]?.workspaceId ?? "");
    if (requests.every((request) => shardOf(request.workspaceId) === shard)) return shard(requests);
    // Several workspaces in one call (rare): each request to its own shard, results in order.
    return Promise.all(requests.map((request) => shardOf(request.workspaceId)([request])))
      .then((results) => results.flat());
  };
}

/** One call of `ledger_charge_many`: one transaction, one round trip. */
async function chargeMany(sql: Sql, requests: ChargeRequest[]): Promise<ChargeResult[]> {
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
}

/**
 * One pooled posting on its own, as one statement (no function call, no lookups: its key is
 * random and the unique index would refuse a repeat anyway): debit the balance if it covers
 * the whole amount, and post. When it does not, `ledger_charge_many` decides, as for any
 * other posting (it refuses it; the caller then charges its units one by one).
 */
async function chargePooled(sql: Sql, request: ChargeRequest): Promise<ChargeResult[]> {
  const rows = await sql<{ available: string; reserved: string; granted: string }[]>`
    WITH debited AS (
      UPDATE balances SET available = available - ${request.amount}, updated_at = now()
       WHERE workspace_id = ${request.workspaceId} AND available >= ${request.amount}
      RETURNING workspace_id, available, reserved, granted
    ), posted AS (
      INSERT INTO ledger_entries (workspace_id, kind, amount, units, operation, charge_key,
                                  available_after, reserved_after)
      SELECT workspace_id, 'charge', ${request.amount}, ${request.units ?? 1},
             ${request.operation}, ${request.chargeKey}, available, reserved
        FROM debited
      RETURNING 1
    )
    SELECT available, reserved, granted FROM debited, (SELECT count(*) FROM posted) AS p`;
  if (rows.length === 0) return await chargeMany(sql, [request]);
  return [{ outcome: "charged", balance: toBalance(rows[0]) }];
}

/**
 * The postings of a flush: pooled units of one workspace and operation become one posting
 * (`members[i]` lists the requests posting `i` pays for; empty when nothing was pooled).
 */
function pool(requests: ChargeRequest[]): { items: ChargeRequest[]; members: number[][] } {
  let pooled = 0;
  for (const request of requests) if (request.pooled && !request.idempotency) pooled++;
  if (pooled < 2) return { items: requests, members: [] };
  const items: ChargeRequest[] = [];
  const members: number[][] = [];
  const groups = new Map<string, number>();
  requests.forEach((request, index) => {
    if (!request.pooled || request.idempotency) {
      items.push(request);
      members.push([index]);
      return;
    }
    const group = `${request.workspaceId}\u0000${request.operation}`;
    const at = groups.get(group);
    if (at === undefined) {
      groups.set(group, items.length);
      items.push({ ...request, units: request.units ?? 1 });
      members.push([index]);
      return;
    }
    const posting = items[at];
    items[at] = {
      ...posting,
      amount: posting.amount + request.amount,
      units: posting.units! + (request.units ?? 1),
    };
    members[at].push(index);
  });
  return { items, members };
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
