/**
 * A job's rows in input order, each with its input lines, the operation's answer and what it
 * cost, read a chunk at a time so that a 10,000-row download never sits in memory whole. Rows not
 * answered (yet, or ever: a cancelled job) come with `state` `pending` and no answer. A job whose
 * rows the retention sweep deleted answers `results_expired` (410): the job exists, its rows are
 * gone for good, which a 404 would not say.
 */
import type { DomainContext } from "../context.ts";
import { ServiceError } from "../errors.ts";
import type { BulkOperation, BulkRowInput, JobRowRecord } from "./bulk_job.ts";
import { readBulkJob } from "./read_bulk_job.ts";

export interface BulkResultRow {
  lines: number[];
  input: BulkRowInput;
  state: "answered" | "pending";
  answer: Record<string, unknown> | null;
  cost: number;
}

const CHUNK = 500;

export async function readBulkResults(
  ctx: DomainContext,
  input: { workspaceId: string; jobId: string },
): Promise<{ operation: BulkOperation; rows: AsyncIterable<BulkResultRow[]> }> {
  const job = await readBulkJob(ctx, input);
  if (job.resultsDeletedAt) {
    throw new ServiceError(
      "results_expired",
      `This job's results were deleted at ${job.resultsDeletedAt}: a bulk job's rows are kept ` +
        "for BULK_RESULTS_RETENTION_DAYS days after it ends (a setting of the service)",
      { meta: { resultsDeletedAt: job.resultsDeletedAt } },
    );
  }
  const sql = ctx.db.sql;
  // Every row of a job is written when the job is made, so a download that finds fewer than the
  // job's count met the retention sweep half-way: it fails rather than end as a shorter file
  // that looks whole (the answer's status and headers are sent by then).
  const expected = job.counts.rows;
  async function* chunks(): AsyncIterable<BulkResultRow[]> {
    let after = 0;
    let read = 0;
    while (true) {
      const rows = await sql<JobRowRecord[]>`
        SELECT position, lines, input, answer, cost FROM bulk_job_rows
         WHERE job_id = ${job.id} AND position > ${after}
         ORDER BY position LIMIT ${CHUNK}`;
      read += rows.length;
      if (rows.length < CHUNK && read < expected) {
        throw new Error(`the rows of bulk job ${job.id} were deleted while being read`);
      }
      if (rows.length === 0) return;
      after = rows[rows.length - 1].position;
      yield rows.map((row) => ({
        lines: row.lines,
        input: row.input,
        state: row.answer === null ? "pending" : "answered",
        answer: row.answer,
        cost: row.cost ?? 0,
      }));
      if (rows.length < CHUNK) return;
    }
  }
  return { operation: job.operation, rows: chunks() };
}

/**
 * The first rows of a job in input order, for a page to show beside the download: one query of
 * at most `count` rows, none when the retention sweep deleted them.
 */
export async function readFirstBulkResults(
  ctx: DomainContext,
  input: { workspaceId: string; jobId: string; count: number },
): Promise<BulkResultRow[]> {
  const job = await readBulkJob(ctx, input);
  if (job.resultsDeletedAt) return [];
  const rows = await ctx.db.sql<JobRowRecord[]>`
    SELECT position, lines, input, answer, cost FROM bulk_job_rows
     WHERE job_id = ${job.id}
     ORDER BY position LIMIT ${Math.max(0, Math.floor(input.count))}`;
  return rows.map((row) => ({
    lines: row.lines,
    input: row.input,
    state: row.answer === null ? "pending" : "answered",
    answer: row.answer,
    cost: row.cost ?? 0,
  }));
}
