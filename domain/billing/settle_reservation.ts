import type { DbContext, TxContext } from "../context.ts";
import { type Balance, toBalance } from "./balance.ts";

export type SettleOutcome = "settled" | "duplicate" | "exceeds_reservation" | "closed";

/**
 * Charges part of an open reservation (`reserved` shrinks; the points are spent). The charge
 * key makes each billable unit (e.g. one delivered page) settle once. Runs inside the caller's
 * transaction so the work it pays for is recorded atomically with it.
 */
export async function settleReservation(
  ctx: TxContext,
  input: {
    workspaceId: string;
    reservationId: string;
    amount: number;
    chargeKey: string;
    operation: string;
  },
): Promise<{ outcome: SettleOutcome; balance: Balance | null }> {
  const { tx } = ctx;
  const reservation = await tx<{ amount: string; settled: string; state: string }[]>`
    SELECT amount, settled, state FROM reservations
     WHERE id = ${input.reservationId} AND workspace_id = ${input.workspaceId} FOR UPDATE`;
  const row = reservation[0];
  if (!row || row.state !== "open") return { outcome: "closed", balance: null };
  const seen = await tx`SELECT 1 FROM ledger_entries
                         WHERE workspace_id = ${input.workspaceId} AND charge_key = ${input.chargeKey}`;
  if (seen.length > 0) return { outcome: "duplicate", balance: null };
  if (Number(row.settled) + input.amount > Number(row.amount)) {
    return { outcome: "exceeds_reservation", balance: null };
  }
  await tx`UPDATE reservations SET settled = settled + ${input.amount}
            WHERE id = ${input.reservationId}`;
  const balance = await tx<{ available: string; reserved: string; granted: string }[]>`
    UPDATE balances SET reserved = reserved - ${input.amount}, updated_at = now()
     WHERE workspace_id = ${input.workspaceId} RETURNING available, reserved, granted`;
  await tx`INSERT INTO ledger_entries (workspace_id, kind, amount, operation, charge_key,
                                       reservation_id, available_after, reserved_after)
           VALUES (${input.workspaceId}, 'settle', ${input.amount}, ${input.operation},
                   ${input.chargeKey}, ${input.reservationId}, ${balance[0].available},
                   ${balance[0].reserved})`;
  return { outcome: "settled", balance: toBalance(balance[0]) };
}

/** `settleReservation` in a transaction of its own. */
export function settleReservationAlone(
  ctx: DbContext,
  input: Parameters<typeof settleReservation>[1],
): ReturnType<typeof settleReservation> {
  return ctx.db.sql.begin((tx) => settleReservation({ tx }, input));
}
