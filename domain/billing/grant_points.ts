import { ServiceError } from "../errors.ts";
import type { Sql, TransactionSql } from "../stores/database.ts";
import { type Balance, toBalance } from "./balance.ts";

/** Adds points to a workspace: `available` and `granted` both grow; one `grant` posting. */
export async function grantPoints(
  sql: Sql,
  input: { workspaceId: string; points: number; note?: string },
): Promise<Balance> {
  return await sql.begin((tx) => grantPointsIn(tx, input));
}

export async function grantPointsIn(
  tx: TransactionSql,
  input: { workspaceId: string; points: number; note?: string },
): Promise<Balance> {
  if (!Number.isSafeInteger(input.points) || input.points < 1) {
    throw new ServiceError("validation_error", "points must be a positive integer");
  }
  const rows = await tx<{ available: string; reserved: string; granted: string }[]>`
    UPDATE balances SET available = available + ${input.points}, granted = granted + ${input.points},
                        updated_at = now()
     WHERE workspace_id = ${input.workspaceId}
     RETURNING available, reserved, granted`;
  if (!rows[0]) throw new ServiceError("not_found", `No workspace with id ${input.workspaceId}`);
  await tx`INSERT INTO ledger_entries
             (workspace_id, kind, amount, operation, available_after, reserved_after)
           VALUES (${input.workspaceId}, 'grant', ${input.points}, ${input.note ?? "grant"},
                   ${rows[0].available}, ${rows[0].reserved})`;
  return toBalance(rows[0]);
}
