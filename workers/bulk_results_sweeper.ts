/**
 * A cron sweeper (Deno.cron, hourly) that deletes the rows of bulk jobs that ended longer ago
 * than `BULK_RESULTS_RETENTION_DAYS` (domain/bulk/delete_expired_bulk_rows.ts). Safe on every
 * instance at once. It logs counts only: the rows are personal data.
 */
import type { DomainContext } from "../domain/context.ts";
import {
  deleteExpiredBulkRows,
  type ExpiredBulkRows,
} from "../domain/bulk/delete_expired_bulk_rows.ts";
import type { CronJob } from "./cron_job.ts";

/** Away from the idempotency sweep's minute, so the two hourly sweeps do not meet. */
export const BULK_RESULTS_SWEEP_SCHEDULE = "47 * * * *";

export async function sweepBulkResults(ctx: DomainContext): Promise<ExpiredBulkRows> {
  const swept = await deleteExpiredBulkRows(ctx, {
    now: new Date(ctx.clock.now()),
    retentionDays: ctx.settings.bulkResultsRetentionDays,
  });
  if (swept.jobs > 0 || swept.rows > 0) {
    ctx.logger.info("bulk results expired", { jobs: swept.jobs, rows: swept.rows });
  }
  return swept;
}

/** The hourly job (registered by main.ts). */
export const BULK_RESULTS_SWEEP_JOB: CronJob = {
  name: "sweep expired bulk results",
  schedule: BULK_RESULTS_SWEEP_SCHEDULE,
  failureMessage: "bulk results sweep failed",
  run: ({ ctx }) => sweepBulkResults(ctx),
};
