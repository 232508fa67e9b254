import type { DbContext } from "../context.ts";
import { type Balance, readBalance } from "./balance.ts";

/** A workspace's balance now (available, reserved, granted). */
export function readWorkspaceBalance(
  ctx: DbContext,
  input: { workspaceId: string },
): Promise<Balance> {
  return readBalance(ctx, input.workspaceId);
}
