/**
 * Ends a job inside the caller's transaction (the job row locked): what was not settled returns
 * to `available`, the terminal status is set, and the `bulk.job.completed` webhooks are queued,
 * all or none. Shared by the runner (completed, failed) and cancel.
 */
import { releaseReservation } from "../billing/release_reservation.ts";
import type { TxContext } from "../context.ts";
import { enqueueWebhookEvent } from "../webhooks/enqueue_webhook_event.ts";
import type { JobRow, JobStatus } from "./bulk_job.ts";

export async function endBulkJob(
  ctx: TxContext,
  input: { job: JobRow; status: JobStatus; at: Date; failureReason?: string | null },
): Promise<void> {
  const { tx } = ctx;
  const { job, at } = input;
  if (job.reservation_id) {
    await releaseReservation(ctx, {
      workspaceId: job.workspace_id,
      reservationId: job.reservation_id,
      operation: `bulk-${job.operation}`,
    });
  }
  await tx`UPDATE bulk_jobs
              SET status = ${input.status}, failure_reason = ${input.failureReason ?? null},
                  lease_token = NULL, lease_until = NULL, finished_at = ${at}, updated_at = ${at}
            WHERE id = ${job.id}`;
  await enqueueWebhookEvent(ctx, {
    workspaceId: job.workspace_id,
    type: "bulk.job.completed",
    id: job.id,
    status: input.status,
    at,
  });
}
