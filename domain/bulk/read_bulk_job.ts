/** One bulk job of the workspace, with its counts (polling is free). */
import type { DomainContext } from "../context.ts";
import { ServiceError } from "../errors.ts";
import { looksLikeId } from "../shared/new_id.ts";
import { type BulkJob, JOB_NOT_FOUND_MESSAGE, type JobRow, toBulkJob } from "./bulk_job.ts";

export async function readBulkJob(
  ctx: DomainContext,
  input: { workspaceId: string; jobId: string },
): Promise<BulkJob> {
  // (an id no job can have names none, and may hold what the database cannot)
  if (!looksLikeId("job", input.jobId)) throw new ServiceError("not_found", JOB_NOT_FOUND_MESSAGE);
  const row = (await ctx.db.sql<JobRow[]>`
    SELECT * FROM bulk_jobs WHERE id = ${input.jobId} AND workspace_id = ${input.workspaceId}`)[0];
  if (!row) throw new ServiceError("not_found", JOB_NOT_FOUND_MESSAGE);
  return toBulkJob(row, ctx.settings.bulkResultsRetentionDays);
}
