import { ServiceError } from "../errors.ts";
import type { DbContext, TxContext } from "../context.ts";
import type { AuditActor } from "../audit/audit_event.ts";
import { recordAuditEventIn } from "../audit/record_audit_event.ts";
import { type Balance, toBalance } from "./balance.ts";

/** The most points a workspace can ever be granted in total: `Number.MAX_SAFE_INTEGER`. */
export const MAX_GRANTED = Number.MAX_SAFE_INTEGER;

/** Adds points to a workspace: `available` and `granted` both grow; one `grant` posting. */
export async function grantPoints(
  ctx: DbContext,
  input: { workspaceId: string; points: number; note?: string; actor?: AuditActor },
): Promise<Balance> {
  return await ctx.db.sql.begin((tx) => grantPointsIn({ tx }, input));
}

/** `grantPoints` as a step of the caller's transaction (a new workspace and its first grant). */
export async function grantPointsIn(
  ctx: TxContext,
  input: { workspaceId: string; points: number; note?: string; actor?: AuditActor },
): Promise<Balance> {
  const { tx } = ctx;
  if (!Number.isSafeInteger(input.points) || input.points < 1) {
    throw new ServiceError("validation_error", "points must be a positive integer");
  }
  // Balances are read as JS numbers: `granted` (which no other balance exceeds) stays at most
  // 2^53 - 1, so every balance the service reports is exact.
  const rows = await tx<{ available: string; reserved: string; granted: string }[]>`
    UPDATE balances SET available = available + ${input.points}, granted = granted + ${input.points},
                        updated_at = now()
     WHERE workspace_id = ${input.workspaceId}
       AND granted + ${input.points}::bigint <= ${MAX_GRANTED}::bigint
     RETURNING available, reserved, granted`;
  if (!rows[0]) {
    const current = await tx<{ granted: string }[]>`
      SELECT granted FROM balances WHERE workspace_id = ${input.workspaceId}`;
    if (!current[0]) {
      throw new ServiceError("not_found", `No workspace with id ${input.workspaceId}`);
    }
    const headroom = Math.max(0, MAX_GRANTED - Number(current[0].granted));
    throw new ServiceError(
      "validation_error",
      `points would take the workspace's granted points above ${MAX_GRANTED}, ` +
        `the largest balance kept exactly; at most ${headroom} more can be granted`,
    );
  }
  await tx`INSERT INTO ledger_entries
             (workspace_id, kind, amount, operation, available_after, reserved_after)
           VALUES (${input.workspaceId}, 'grant', ${input.points}, ${input.note ?? "grant"},
                   ${rows[0].available}, ${rows[0].reserved})`;
  await recordAuditEventIn(ctx, {
    action: "points.granted",
    actor: input.actor,
    workspaceId: input.workspaceId,
    details: { points: input.points },
  });
  return toBalance(rows[0]);
}
