import type { DbContext } from "../context.ts";
import type { Balance } from "../ports.ts";

export type { Balance } from "../ports.ts";

export const ZERO_BALANCE: Balance = { available: 0, reserved: 0, granted: 0 };

export function toBalance(
  row: {
    available: bigint | number | string;
    reserved: bigint | number | string;
    granted: bigint | number | string;
  },
): Balance {
  return {
    available: Number(row.available),
    reserved: Number(row.reserved),
    granted: Number(row.granted),
  };
}

export async function readBalance(ctx: DbContext, workspaceId: string): Promise<Balance> {
  const rows = await ctx.db.sql<{ available: string; reserved: string; granted: string }[]>`
    SELECT available, reserved, granted FROM balances WHERE workspace_id = ${workspaceId}`;
  return rows[0] ? toBalance(rows[0]) : { ...ZERO_BALANCE };
}

/** For answers whose balance is informational: `null` when it could not be read (spec §2.1). */
export async function readBalanceOrNull(
  ctx: DbContext,
  workspaceId: string,
): Promise<Balance | null> {
  try {
    return await readBalance(ctx, workspaceId);
  } catch {
    return null;
  }
}
