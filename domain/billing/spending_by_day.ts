/**
 * Points a workspace spent per UTC day and operation over its last `days` days (today included):
 * its `charge` postings (lookups, name-parse rows) and its `settle` postings (lead-search pages
 * paid from a reservation). Reserving, releasing and granting move points without spending
 * them, so they are not counted.
 *
 * The ledger is indexed by (workspace, id), not by time: the statement finds the newest posting
 * older than the window on that index, then sums only the postings after it, so a page load
 * reads the window's postings and never the workspace's whole history. (Ids follow insertion
 * order and `created_at` is each transaction's start, so the two agree but for postings of
 * transactions running across the window's first instant, 30 days back.)
 */

import type { DbContext } from "../context.ts";

export interface DailySpending {
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  /** The posting's price-table operation (`nameParse`, `findEmail`, `lead`, …). */
  operation: string;
  points: number;
}

export interface SpendingByDay {
  /** Every day of the window, oldest first (`YYYY-MM-DD`, UTC), with or without spending. */
  days: string[];
  /** One entry per day and operation that spent anything, oldest day first. */
  spending: DailySpending[];
  total: number;
}

const DAY_MS = 86_400_000;

export async function spendingByDay(
  ctx: DbContext,
  input: { workspaceId: string; now: number; days?: number },
): Promise<SpendingByDay> {
  const { sql } = ctx.db;
  const count = input.days ?? 30;
  const today = Math.floor(input.now / DAY_MS) * DAY_MS;
  const since = new Date(today - (count - 1) * DAY_MS);
  const days = Array.from(
    { length: count },
    (_, i) => new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10),
  );
  const rows = await sql<{ day: string; operation: string | null; points: string }[]>`
    SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, operation,
           sum(amount) AS points
      FROM ledger_entries
     WHERE workspace_id = ${input.workspaceId}
       AND id > coalesce((SELECT id FROM ledger_entries
                           WHERE workspace_id = ${input.workspaceId} AND created_at < ${since}
                           ORDER BY id DESC LIMIT 1), 0)
       AND kind IN ('charge', 'settle')
       AND created_at >= ${since}
     GROUP BY 1, 2
     ORDER BY 1, 2`;
  const window = new Set(days);
  const spending = rows
    // A posting stamped after `now` (the database's clock ahead of ours) has no day to go to.
    .filter((row) => window.has(row.day))
    .map((row) => ({
      day: row.day,
      operation: row.operation ?? "other",
      points: Number(row.points),
    }));
  return { days, spending, total: spending.reduce((sum, row) => sum + row.points, 0) };
}
