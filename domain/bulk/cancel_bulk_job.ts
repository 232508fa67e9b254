/**
 * Cancels a job at once: rows already answered stay charged, the rest of the reservation is
 * released, and the job is `cancelled`. A runner's page in flight is dropped unbilled (its
 * transaction finds the job no longer `processing`). A finished job answers `already-terminal`.
 * Free. The job row is locked, so a cancel and a page's delivery are ordered.
 */
import type { DomainContext } from "../context.ts";
import { ServiceError } from "../errors.ts";
import { looksLikeId } from "../shared/new_id.ts";
import { isTerminalJob, JOB_NOT_FOUND_MESSAGE, type JobRow } from "./bulk_job.ts";
import { endBulkJob } from "./end_bulk_job.ts";

export async function cancelBulkJob(
  ctx: DomainContext,
  input: { workspaceId: string; jobId: string },
): Promise<{ status: "cancelled" | "already-terminal" }> {
  if (!looksLikeId("job", input.jobId)) throw new ServiceError("not_found", JOB_NOT_FOUND_MESSAGE);
  const at = new Date(ctx.clock.now());
  const status = await ctx.db.sql.begin(async (tx) => {
    const job = (await tx<JobRow[]>`
      SELECT * FROM bulk_jobs WHERE id = ${input.jobId} AND workspace_id = ${input.workspaceId}
       FOR UPDATE`)[0];
    if (!job) throw new ServiceError("not_found", JOB_NOT_FOUND_MESSAGE);
    if (isTerminalJob(job.status)) return "already-terminal" as const;
    await endBulkJob({ tx }, { job, status: "cancelled", at });
    return "cancelled" as const;
  });
  ctx.logger.info("bulk job cancel", { jobId: input.jobId, status });
  return { status };
}
