import type { TxContext } from "../context.ts";
import { type Balance, toBalance } from "./balance.ts";

/**
 * Closes a reservation, returning what was not settled to `available`. At most once: a second
 * call finds it closed and moves nothing (and a unique index allows one release posting).
 */
export async function releaseReservation(
  ctx: TxContext,
  input: { workspaceId: string; reservationId: string; operation: string },
): Promise<{ released: number; balance: Balance } | null> {
  const { tx } = ctx;
  const rows = await tx<{ amount: string; settled: string }[]>`
    UPDATE reservations SET state = 'closed', closed_at = now()
     WHERE id = ${input.reservationId} AND workspace_id = ${input.workspaceId} AND state = 'open'
     RETURNING amount, settled`;
  if (!rows[0]) return null;
  const released = Number(rows[0].amount) - Number(rows[0].settled);
  const balance = await tx<{ available: string; reserved: string; granted: string }[]>`
    UPDATE balances SET available = available + ${released}, reserved = reserved - ${released},
                        updated_at = now()
     WHERE workspace_id = ${input.workspaceId} RETURNING available, reserved, granted`;
  await tx`INSERT INTO ledger_entries (workspace_id, kind, amount, operation, reservation_id,
                                       available_after, reserved_after)
           VALUES (${input.workspaceId}, 'release', ${released}, ${input.operation},
                   ${input.reservationId}, ${balance[0].available}, ${balance[0].reserved})`;
  return { released, balance: toBalance(balance[0]) };
}
