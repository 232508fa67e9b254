/**
 * The retention period of bulk results: deletes the rows (the submitted personal data and the
 * answers) of jobs that ended — completed, cancelled or failed — more than `retentionDays`
 * before `now`, and marks each job `results_deleted_at`. The job itself, its counts and its
 * ledger lines stay. A running or queued job is never touched: its rows are still to be
 * answered. A retention of 0 keeps every row.
 *
 * Rows go `batchSize` at a time, one short statement each, so no statement holds a job's row
 * locks for long. Safe on several instances at once: a second sweeper deletes what is left (the
 * first's rows are gone once it commits) and the mark is set once; a job is marked only after a
 * statement finds none of its rows left.
 */
import type { DbContext } from "../context.ts";
import { TERMINAL_JOB_STATUSES } from "./bulk_job.ts";

/** Rows deleted by one statement. */
export const DELETE_BATCH_ROWS = 2_000;
/** Jobs looked up at a time. */
const JOB_BATCH = 100;
const DAY_MS = 86_400_000;

export interface ExpiredBulkRows {
  /** Jobs whose rows were deleted (and which were marked) by this sweep. */
  jobs: number;
  rows: number;
}

export async function deleteExpiredBulkRows(
  ctx: DbContext,
  input: { now: Date; retentionDays: number; batchSize?: number },
): Promise<ExpiredBulkRows> {
  const swept: ExpiredBulkRows = { jobs: 0, rows: 0 };
  if (input.retentionDays <= 0) return swept;
  const sql = ctx.db.sql;
  const batch = input.batchSize ?? DELETE_BATCH_ROWS;
  const endedBefore = new Date(input.now.getTime() - input.retentionDays * DAY_MS);
  const ended = [...TERMINAL_JOB_STATUSES];
  while (true) {
    const jobs = await sql<{ id: string }[]>`
      SELECT id FROM bulk_jobs
       WHERE finished_at IS NOT NULL AND results_deleted_at IS NULL
         AND finished_at < ${endedBefore} AND status = ANY(${ended}::text[])
       ORDER BY finished_at, id LIMIT ${JOB_BATCH}`;
    if (jobs.length === 0) return swept;
    for (const { id } of jobs) {
      while (true) {
        const deleted = await sql`
          DELETE FROM bulk_job_rows
           WHERE job_id = ${id} AND position IN (
             SELECT position FROM bulk_job_rows WHERE job_id = ${id}
              ORDER BY position LIMIT ${batch})
          RETURNING 1`;
        swept.rows += deleted.length;
        if (deleted.length === 0) break;
      }
      const marked = await sql`
        UPDATE bulk_jobs SET results_deleted_at = ${input.now}
         WHERE id = ${id} AND results_deleted_at IS NULL
        RETURNING 1`;
      swept.jobs += marked.length;
    }
  }
}
