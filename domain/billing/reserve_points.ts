import { ServiceError } from "../errors.ts";
import { newId } from "../shared/new_id.ts";
import type { DbContext, TxContext } from "../context.ts";
import { type Balance, toBalance } from "./balance.ts";

/**
 * Holds points for work whose cost is known only at its end: `available` → `reserved`.
 * Returns null when the workspace cannot cover the amount (nothing moves).
 */
export async function reservePoints(
  ctx: DbContext,
  input: { workspaceId: string; amount: number; operation: string },
): Promise<{ reservationId: string; balance: Balance } | null> {
  return await ctx.db.sql.begin((tx) => reservePointsIn({ tx }, input));
}

/**
 * The same inside the caller's transaction, so what the reservation pays for (e.g. a
 * lead-search run) is recorded atomically with it.
 */
export async function reservePointsIn(
  ctx: TxContext,
  input: { workspaceId: string; amount: number; operation: string },
): Promise<{ reservationId: string; balance: Balance } | null> {
  const { tx } = ctx;
  if (!Number.isSafeInteger(input.amount) || input.amount < 1) {
    throw new ServiceError("validation_error", "a reservation must be a positive integer");
  }
  const rows = await tx<{ available: string; reserved: string; granted: string }[]>`
    UPDATE balances SET available = available - ${input.amount},
                        reserved = reserved + ${input.amount}, updated_at = now()
     WHERE workspace_id = ${input.workspaceId} AND available >= ${input.amount}
     RETURNING available, reserved, granted`;
  if (!rows[0]) return null;
  const reservationId = newId("res");
  await tx`INSERT INTO reservations (id, workspace_id, amount)
           VALUES (${reservationId}, ${input.workspaceId}, ${input.amount})`;
  await tx`INSERT INTO ledger_entries (workspace_id, kind, amount, operation, reservation_id,
                                       available_after, reserved_after)
           VALUES (${input.workspaceId}, 'reserve', ${input.amount}, ${input.operation},
                   ${reservationId}, ${rows[0].available}, ${rows[0].reserved})`;
  return { reservationId, balance: toBalance(rows[0]) };
}
