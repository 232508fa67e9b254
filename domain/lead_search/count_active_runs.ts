/** Runs not finished, by state, for the `lead_search_runs` gauge (the active-runs index serves it). */
import type { DbContext } from "../context.ts";
import type { RunCounts } from "../observability/prometheus_telemetry.ts";

export async function countActiveRuns(ctx: DbContext): Promise<RunCounts> {
  const rows = await ctx.db.sql<{ status: keyof RunCounts; runs: number }[]>`
    SELECT status, count(*)::int AS runs FROM lead_search_runs
     WHERE status IN ('queued', 'processing', 'cancelling')
     GROUP BY status`;
  const counts: RunCounts = { queued: 0, processing: 0, cancelling: 0 };
  for (const row of rows) counts[row.status] = row.runs;
  return counts;
}
