/**
 * The idempotency mechanism shared by every lookup route (spec §4.9).
 *
 * A record per (workspace, key) holds the request's fingerprint, a state and a lease. The first
 * request claims it (`running`, under a lease token). Its billable units are charged with charge
 * keys derived from the idempotency key, so the ledger alone tells which units were answered:
 * a crash between a charge and the record can neither lose nor double a charge. The charge that
 * completes the work marks the record `done` in the same transaction (optionally storing the
 * answer, for routes whose answers may be kept). Records are tombstones: after the 30-day replay
 * window the key stays used, and reusing it is a conflict.
 *
 * The lease is short (`DEFAULT_LEASE_MS`) and renewed while the holder works (`renew`, driven by
 * `holdLease`), so a slow lookup keeps its key for as long as it runs, and the key of a process
 * that died mid-request is free again within one lease. A claim refused as in progress says in
 * `Retry-After` when the lease it met ends (at least 1 s).
 */
import { ServiceError } from "../errors.ts";
import type { Sql } from "../stores/database.ts";
import type { Clock } from "../shared/clock.ts";

export const REPLAY_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;
export const DEFAULT_LEASE_MS = 15_000;

export const CONFLICT_MESSAGE = "This Idempotency-Key was already used for a different request";
export const EXPIRED_MESSAGE =
  "This Idempotency-Key was used more than 30 days ago and cannot be reused";
export const IN_PROGRESS_MESSAGE =
  "A request with this Idempotency-Key is still in progress; retry shortly";

export type Claim =
  /**
   * This caller holds the lease: do the work (units already charged under the key replay).
   * A fresh record also brings the workspace's available points as they were when it was
   * created (read in the same statement, for checks that must precede any work).
   */
  | { kind: "claimed"; leaseToken: string; resumed: boolean; available?: number }
  /** The work finished earlier: replay it (`response` is null for routes that store nothing). */
  | { kind: "done"; response: unknown };

export interface ClaimInput {
  workspaceId: string;
  key: string;
  scope: string;
  fingerprint: string;
}

export interface IdempotencyRecords {
  /** How long a claim lasts without a renewal. */
  readonly leaseMs: number;
  claim(input: ClaimInput): Promise<Claim>;
  /** Extends the holder's lease by `leaseMs` from now; false when it no longer holds the key. */
  renew(input: { workspaceId: string; key: string; leaseToken: string }): Promise<boolean>;
  /** Marks the record done (when no charge did it), storing `response` if given. */
  complete(
    input: { workspaceId: string; key: string; leaseToken: string; response?: unknown },
  ): Promise<void>;
  /**
   * Gives the key back after a failure: `forget` deletes a record under which nothing was
   * charged (the caller may retry with the same key as if new); otherwise the lease ends now so
   * a retry resumes at once.
   */
  release(
    input: { workspaceId: string; key: string; leaseToken: string; forget: boolean },
  ): Promise<void>;
}

interface RecordRow {
  fingerprint: string;
  state: "running" | "done";
  lease_token: string | null;
  lease_until: Date | null;
  response: unknown;
  expires_at: Date;
}

export function createIdempotencyRecords(
  deps: { sql: Sql; clock: Clock; leaseMs?: number },
): IdempotencyRecords {
  const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
  const { sql, clock } = deps;

  async function claim(input: ClaimInput): Promise<Claim> {
    const now = clock.now();
    const leaseToken = crypto.randomUUID();
    const inserted = await sql`
      INSERT INTO idempotency_records
        (workspace_id, idem_key, scope, fingerprint, state, lease_token, lease_until,
         created_at, expires_at)
      VALUES (${input.workspaceId}, ${input.key}, ${input.scope}, ${input.fingerprint}, 'running',
              ${leaseToken}, ${new Date(now + leaseMs)}, ${new Date(now)},
              ${new Date(now + REPLAY_WINDOW_MS)})
      ON CONFLICT (workspace_id, idem_key) DO NOTHING
      RETURNING (SELECT b.available FROM balances b WHERE b.workspace_id = ${input.workspaceId})
                AS available`;
    if (inserted.length > 0) {
      const available = Number(inserted[0].available ?? 0);
      return { kind: "claimed", leaseToken, resumed: false, available };
    }

    const row = (await sql<RecordRow[]>`
      SELECT fingerprint, state, lease_token, lease_until, response, expires_at
        FROM idempotency_records
       WHERE workspace_id = ${input.workspaceId} AND idem_key = ${input.key}`)[0];
    if (!row) return await claim(input); // released between our insert and read: try again
    if (row.expires_at.getTime() <= now) {
      throw new ServiceError("idempotency_conflict", EXPIRED_MESSAGE);
    }
    if (row.fingerprint !== input.fingerprint) {
      throw new ServiceError("idempotency_conflict", CONFLICT_MESSAGE);
    }
    if (row.state === "done") return { kind: "done", response: row.response ?? null };
    if (row.lease_until && row.lease_until.getTime() > now) {
      const seconds = Math.max(1, Math.ceil((row.lease_until.getTime() - now) / 1000));
      throw new ServiceError("idempotency_in_progress", IN_PROGRESS_MESSAGE, {
        headers: { "Retry-After": String(seconds) },
      });
    }
    // The holder crashed or gave up: take the lease over, unless someone else just did.
    const taken = await sql`
      UPDATE idempotency_records SET lease_token = ${leaseToken}, lease_until = ${new Date(
      now + leaseMs,
    )}
       WHERE workspace_id = ${input.workspaceId} AND idem_key = ${input.key} AND state = 'running'
         AND lease_token IS NOT DISTINCT FROM ${row.lease_token}
      RETURNING 1`;
    if (taken.length === 0) return await claim(input);
    return { kind: "claimed", leaseToken, resumed: true };
  }

  async function renew(
    input: { workspaceId: string; key: string; leaseToken: string },
  ): Promise<boolean> {
    const renewed = await sql`
      UPDATE idempotency_records SET lease_until = ${new Date(clock.now() + leaseMs)}
       WHERE workspace_id = ${input.workspaceId} AND idem_key = ${input.key}
         AND state = 'running' AND lease_token = ${input.leaseToken}
      RETURNING 1`;
    return renewed.length > 0;
  }

  async function complete(
    input: { workspaceId: string; key: string; leaseToken: string; response?: unknown },
  ): Promise<void> {
    await sql`
      UPDATE idempotency_records
         SET state = 'done', response = ${
      input.response === undefined ? null : sql.json(input.response as never)
    },
             lease_token = NULL, lease_until = NULL
       WHERE workspace_id = ${input.workspaceId} AND idem_key = ${input.key}
         AND lease_token = ${input.leaseToken}`;
  }

  async function release(
    input: { workspaceId: string; key: string; leaseToken: string; forget: boolean },
  ): Promise<void> {
    if (input.forget) {
      await sql`DELETE FROM idempotency_records
                 WHERE workspace_id = ${input.workspaceId} AND idem_key = ${input.key}
                   AND state = 'running' AND lease_token = ${input.leaseToken}`;
    } else {
      await sql`UPDATE idempotency_records SET lease_until = ${new Date(clock.now())}
                 WHERE workspace_id = ${input.workspaceId} AND idem_key = ${input.key}
                   AND state = 'running' AND lease_token = ${input.leaseToken}`;
    }
  }

  return { leaseMs, claim, renew, complete, release };
}
