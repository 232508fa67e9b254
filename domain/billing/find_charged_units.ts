import type { DbContext } from "../context.ts";

/** Which of these billable units (charge keys) the workspace has already been charged for. */
export async function findChargedUnits(
  ctx: DbContext,
  input: { workspaceId: string; chargeKeys: string[] },
): Promise<Set<string>> {
  if (input.chargeKeys.length === 0) return new Set();
  const rows = await ctx.db.sql<{ charge_key: string }[]>`
    SELECT charge_key FROM ledger_entries
     WHERE workspace_id = ${input.workspaceId} AND charge_key = ANY(${input.chargeKeys})`;
  return new Set(rows.map((row) => row.charge_key));
}
