/**
 * Makes a bulk job from rows the route validated: quotes the worst case (every row at the most
 * its single call may cost), and, unless asked for the quote alone (`dryRun`, free, nothing
 * kept), claims the Idempotency-Key and in one transaction reserves the worst case, inserts the
 * job `queued` and its rows. A retry with the same key and rows answers the same job; a workspace
 * that cannot cover the worst case is refused (402 `insufficient_credits`) before any work.
 * The reservation is settled page by page as rows are answered and released when the job ends.
 */
import type { DomainContext } from "../context.ts";
import { claimCall } from "../billing/billed_call.ts";
import { readBalance } from "../billing/balance.ts";
import { insufficientCredits } from "../billing/insufficient_credits.ts";
import { reservePointsIn } from "../billing/reserve_points.ts";
import { ServiceError } from "../errors.ts";
import { newId } from "../shared/new_id.ts";
import {
  type BulkJob,
  type BulkOperation,
  type InvalidRow,
  type JobRow,
  MAX_JOB_ROWS,
  toBulkJob,
  type ValidRow,
} from "./bulk_job.ts";
import { rowWorstCase } from "./bulk_worst_case.ts";

export const BULK_SCOPE = "bulk";

export interface CreateBulkJobInput {
  workspaceId: string;
  idempotencyKey?: string;
  operation: BulkOperation;
  rows: ValidRow[];
  invalid: InvalidRow[];
  /** Rows folded into an equal earlier row. */
  duplicates: number;
  dryRun: boolean;
}

export interface BulkQuote {
  rows: number;
  invalid: number;
  duplicates: number;
  /** Points the job may cost at most (reserved when it starts). */
  worstCase: number;
  available: number;
  sufficient: boolean;
}

export interface CreateBulkJobAnswer {
  /** The job (null for a dry run). */
  job: BulkJob | null;
  quote: BulkQuote;
  invalidRows: InvalidRow[];
  replay: boolean;
  dryRun: boolean;
}

export async function createBulkJob(
  ctx: DomainContext,
  input: CreateBulkJobInput,
): Promise<CreateBulkJobAnswer> {
  const { workspaceId, operation, rows } = input;
  if (rows.length > MAX_JOB_ROWS) {
    throw new ServiceError("validation_error", `A job holds at most ${MAX_JOB_ROWS} rows`);
  }
  const worstCase = rows.reduce((sum, row) => sum + rowWorstCase(ctx, operation, row.input), 0);
  const sql = ctx.db.sql;
  const quoteWith = (available: number): BulkQuote => ({
    rows: rows.length,
    invalid: input.invalid.length,
    duplicates: input.duplicates,
    worstCase,
    available,
    sufficient: available >= worstCase,
  });
  if (input.dryRun) {
    const { available } = await readBalance(ctx, workspaceId);
    return {
      job: null,
      quote: quoteWith(available),
      invalidRows: input.invalid,
      replay: false,
      dryRun: true,
    };
  }
  if (!input.idempotencyKey) {
    throw new ServiceError("validation_error", "Idempotency-Key is required to start a job");
  }
  if (rows.length === 0) {
    throw new ServiceError("validation_error", "No row is valid: nothing to do", {
      meta: { invalidRows: input.invalid.slice(0, 100) },
    });
  }
  const key = input.idempotencyKey;

  const call = await claimCall(ctx, {
    workspaceId,
    scope: BULK_SCOPE,
    request: { operation, rows: rows.map((row) => [row.lines, row.input]), invalid: input.invalid },
    idempotencyKey: key,
  });
  const answerFor = async (jobId: string, replay: boolean): Promise<CreateBulkJobAnswer> => {
    const row = (await sql<JobRow[]>`
      SELECT * FROM bulk_jobs WHERE id = ${jobId} AND workspace_id = ${workspaceId}`)[0];
    if (!row) throw new ServiceError("not_found", "The job of this Idempotency-Key is gone");
    const { available } = await readBalance(ctx, workspaceId);
    return {
      job: toBulkJob(row, ctx.settings.bulkResultsRetentionDays),
      quote: { ...quoteWith(available), sufficient: true },
      invalidRows: row.invalid,
      replay,
      dryRun: false,
    };
  };
  if (call.kind === "done") return await answerFor((call.stored as { jobId: string }).jobId, true);

  const stopRenewing = call.keepAlive();
  let finished = false;
  try {
    if (call.resumed) {
      // An earlier attempt may have made the job and died before marking the key done.
      const made = (await sql<{ id: string }[]>`
        SELECT id FROM bulk_jobs WHERE workspace_id = ${workspaceId} AND idempotency_key = ${key}`)[
        0
      ];
      if (made) {
        await call.complete({ jobId: made.id });
        finished = true;
        return await answerFor(made.id, true);
      }
    }
    const jobId = newId("job");
    const at = new Date(ctx.clock.now());
    const made = await sql.begin(async (tx) => {
      let reservationId: string | null = null;
      if (worstCase > 0) {
        const reserved = await reservePointsIn({ tx }, {
          workspaceId,
          amount: worstCase,
          operation: `bulk-${operation}`,
        });
        if (!reserved) return false;
        reservationId = reserved.reservationId;
      }
      await tx`
        INSERT INTO bulk_jobs (id, workspace_id, operation, status, row_count, worst_case,
                               invalid, duplicates, reservation_id, idempotency_key,
                               created_at, updated_at)
        VALUES (${jobId}, ${workspaceId}, ${operation}, 'queued', ${rows.length}, ${worstCase},
                ${tx.json(input.invalid as never)}, ${input.duplicates}, ${reservationId},
                ${key}, ${at}, ${at})`;
      for (let start = 0; start < rows.length; start += 1000) {
        const chunk = rows.slice(start, start + 1000).map((row, i) => ({
          job_id: jobId,
          position: start + i + 1,
          lines: row.lines,
          group_key: row.groupKey,
          input: tx.json(row.input as never),
        }));
        await tx`INSERT INTO bulk_job_rows ${tx(chunk)}`;
      }
      return true;
    });
    if (!made) {
      const { available } = await readBalance(ctx, workspaceId);
      throw insufficientCredits(worstCase, available);
    }
    // A crash before this line leaves the key running; the retry finds the job by its key.
    await call.complete({ jobId });
    finished = true;
    ctx.logger.info("bulk job queued", { jobId, operation, rows: rows.length, worstCase });
    return await answerFor(jobId, false);
  } finally {
    await stopRenewing();
    // Nothing is ever charged under a job's key: a refused start forgets it.
    if (!finished) await call.release(false);
  }
}
