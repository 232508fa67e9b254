import type { DomainContext } from "../context.ts";
import type { PriceTable } from "../config/config.ts";
import { type Balance, readBalance } from "./balance.ts";

export interface PointsAnswer extends Balance {
  /** Points per billable unit, the same table the ledger charges from. */
  prices: PriceTable;
}

/** `GET /api/v1/points`: the workspace's balance beside the price table. */
export async function readPoints(
  ctx: DomainContext,
  input: { workspaceId: string },
): Promise<PointsAnswer> {
  const balance = await readBalance(ctx, input.workspaceId);
  return { ...balance, prices: ctx.prices };
}
