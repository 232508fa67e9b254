/** The workspace's newest bulk jobs (the app's Bulk page). */
import type { DomainContext } from "../context.ts";
import { type BulkJob, type JobRow, toBulkJob } from "./bulk_job.ts";

export async function listBulkJobs(
  ctx: DomainContext,
  input: { workspaceId: string; limit: number },
): Promise<BulkJob[]> {
  const rows = await ctx.db.sql<JobRow[]>`
    SELECT * FROM bulk_jobs WHERE workspace_id = ${input.workspaceId}
     ORDER BY created_at DESC, id DESC LIMIT ${input.limit}`;
  return rows.map((row) => toBulkJob(row, ctx.settings.bulkResultsRetentionDays));
}
