/** Bulk jobs not finished, by state, for the `bulk_jobs` gauge. */
import type { JobCounts } from "../observability/prometheus_telemetry.ts";
import type { DbContext } from "../context.ts";

export async function countActiveJobs(ctx: DbContext): Promise<JobCounts> {
  const rows = await ctx.db.sql<{ status: keyof JobCounts; jobs: number }[]>`
    SELECT status, count(*)::int AS jobs FROM bulk_jobs
     WHERE status IN ('queued', 'processing')
     GROUP BY status`;
  const counts: JobCounts = { queued: 0, processing: 0 };
  for (const row of rows) counts[row.status] = row.jobs;
  return counts;
}
