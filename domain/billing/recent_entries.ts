import type { DbContext } from "../context.ts";

export interface LedgerEntry {
  id: number;
  kind: string;
  amount: number;
  /** Billable units a charge posting pays for (a batch chunk's answered rows); 1 otherwise. */
  units: number;
  operation: string | null;
  availableAfter: number;
  reservedAfter: number;
  createdAt: string;
}

/** The most recent postings of a workspace, newest first (charge keys are not shown). */
export async function recentEntries(
  ctx: DbContext,
  input: { workspaceId: string; limit?: number },
): Promise<LedgerEntry[]> {
  const rows = await ctx.db.sql<
    {
      id: string;
      kind: string;
      amount: string;
      units: number;
      operation: string | null;
      available_after: string;
      reserved_after: string;
      created_at: Date;
    }[]
  >`SELECT id, kind, amount, units, operation, available_after, reserved_after, created_at
      FROM ledger_entries WHERE workspace_id = ${input.workspaceId}
     ORDER BY id DESC LIMIT ${input.limit ?? 20}`;
  return rows.map((row) => ({
    id: Number(row.id),
    kind: row.kind,
    amount: Number(row.amount),
    units: row.units,
    operation: row.operation,
    availableAfter: Number(row.available_after),
    reservedAfter: Number(row.reserved_after),
    createdAt: row.created_at.toISOString(),
  }));
}
