/**
 * The bulk-job loop, a plain async function on the lead-search runner's pattern: claim one
 * active job whose lease is free or expired (`FOR UPDATE SKIP LOCKED` + a new lease token), then
 * answer it page by page. A page is up to `JOB_PAGE_SIZE` unanswered rows, a mail domain's rows
 * together; each row is answered by its operation's own lookup (`answer_bulk_row.ts`); then the
 * rows' answers, the page's settlement from the job's reservation (charge key
 * `bulk:<jobId>:page:<n>`) and the job's counters commit in one transaction that first checks the
 * lease is still ours and the job still `processing`. So a runner killed mid-page left its rows
 * unanswered and uncharged (the next runner answers them again), one killed after the commit
 * left them answered and charged once, and one whose lease was taken over writes nothing.
 * When no row is left the reservation is released with the terminal status.
 *
 * Greylisting: a row whose lookup a mail server greylisted (`verification-unavailable` with
 * `retryAfterSeconds`) is not answered but deferred: it stays unanswered and uncharged with a
 * `retry_at`, the job goes on with its other rows, and the row is asked again once its time has
 * come (with the other deferred rows of its domain, in shared sessions). Past
 * `greylistMaxWaitMs` from its first deferral it is answered as the lookup answered. When only
 * waiting rows are left, the runner lets the job go with its lease set to the earliest `retry_at`
 * and no runner holding it (`greylist-wait`): no runner claims it before then, and after a crash
 * any runner takes it up then.
 *
 * Rows of different domains are answered concurrently (`ROW_CONCURRENCY`), and a domain's rows
 * together: their lookups reach the verifier at once and are verified in shared SMTP sessions
 * (`coalesceByDomain`: one DNS lookup and one catch-all probe for the batch, several people's
 * RCPTs a session within `VERIFY_MAX_RCPT_PER_SESSION`).
 */
import type { DomainContext } from "../context.ts";
import { settleReservation } from "../billing/settle_reservation.ts";
import type { TransactionSql } from "../stores/database.ts";
import { type BulkRowInput, JOB_PAGE_SIZE, type JobRow, type JobStatus } from "./bulk_job.ts";
import { coalesceByDomain } from "../verify/mod.ts";
import { answerBulkRow, type RowAnswer } from "./answer_bulk_row.ts";
import { endBulkJob } from "./end_bulk_job.ts";
import { timed } from "../observability/telemetry.ts";

export const DEFAULT_JOB_LEASE_MS = 60_000;
/** Domains answered at once within a page. */
export const ROW_CONCURRENCY = 16;
/**
 * How a domain's rows share SMTP sessions: lookups arriving within 25 ms go together, at most 8
 * people a batch (14 candidates each at worst: 13 sessions of 9 RCPTs, well inside the 45 s bound).
 */
const SHARED_SESSIONS = { windowMs: 25, maxRequests: 8 };

export interface RunBulkJobOptions {
  leaseMs?: number;
  /** Asked between pages: true hands the job back (lease cleared) for another runner. */
  shouldStop?: () => boolean;
  /** Only this job (tests); otherwise the oldest claimable one. */
  jobId?: string;
  /** Stop after this many pages, keeping the lease (tests: a runner that "dies" mid-job). */
  maxPages?: number;
  /** A pause before each page's work (tests: a window to kill the process mid-job). */
  pageDelayMs?: number;
  /** `BULK_GREYLIST_MAX_WAIT_SECONDS`: how long a greylisted row is asked again (default 1 h). */
  greylistMaxWaitMs?: number;
}

export const DEFAULT_GREYLIST_MAX_WAIT_MS = 3_600_000;
/** The holder of a job let go while its rows wait on greylisting: no runner, until the lease ends. */
const WAITING_LEASE = "greylist-wait";

export type RunBulkJobOutcome =
  | { kind: "idle" }
  | { kind: "finished"; jobId: string; status: JobStatus }
  | { kind: "handed-back"; jobId: string }
  | { kind: "lease-lost"; jobId: string }
  | { kind: "paused"; jobId: string }
  /** Only rows waiting on greylisting are left: the job is let go until `until`. */
  | { kind: "waiting"; jobId: string; until: Date };

interface PendingRow {
  position: number;
  group_key: string;
  input: BulkRowInput;
  first_deferred_at: Date | null;
}

export async function runBulkJob(
  ctx: DomainContext,
  options: RunBulkJobOptions = {},
): Promise<RunBulkJobOutcome> {
  const leaseMs = options.leaseMs ?? DEFAULT_JOB_LEASE_MS;
  const sql = ctx.db.sql;
  const leaseToken = crypto.randomUUID();
  const now = () => new Date(ctx.clock.now());
  const leaseEnd = () => new Date(ctx.clock.now() + leaseMs);

  const claimed = await sql<JobRow[]>`
    UPDATE bulk_jobs
       SET status = 'processing', lease_token = ${leaseToken}, lease_until = ${leaseEnd()},
           started_at = coalesce(started_at, ${now()}), updated_at = ${now()}
     WHERE id = (
       SELECT id FROM bulk_jobs
        WHERE status IN ('queued', 'processing')
          AND (lease_until IS NULL OR lease_until <= ${now()})
          ${options.jobId ? sql`AND id = ${options.jobId}` : sql``}
        ORDER BY created_at, id
        LIMIT 1
        FOR UPDATE SKIP LOCKED)
    RETURNING *`;
  const job = claimed[0];
  if (!job) return { kind: "idle" };
  const jobId = job.id;
  ctx.logger.info("bulk job claimed", { jobId });

  const lockOurs = async (tx: TransactionSql) =>
    (await tx<JobRow[]>`
      SELECT * FROM bulk_jobs
       WHERE id = ${jobId} AND lease_token = ${leaseToken} AND status = 'processing'
       FOR UPDATE`)[0];

  // The rest of this claim is one span (tracing on): what its pages cause are its children.
  return await timed(ctx.telemetry, { kind: "bulk_job" }, async () => {
    let pagesThisClaim = 0;
    while (true) {
      const fresh = (await sql<JobRow[]>`SELECT * FROM bulk_jobs WHERE id = ${jobId}`)[0];
      if (!fresh) return { kind: "lease-lost", jobId };
      // Cancelled meanwhile: the cancel released the reservation and ended the job.
      if (fresh.status !== "processing") return { kind: "finished", jobId, status: fresh.status };
      if (fresh.lease_token !== leaseToken) return { kind: "lease-lost", jobId };
      if (options.shouldStop?.()) {
        await sql`UPDATE bulk_jobs SET lease_token = NULL, lease_until = NULL, updated_at = ${now()}
                   WHERE id = ${jobId} AND lease_token = ${leaseToken}`;
        ctx.logger.info("bulk job handed back", { jobId });
        return { kind: "handed-back", jobId };
      }
      if (options.maxPages !== undefined && pagesThisClaim >= options.maxPages) {
        return { kind: "paused", jobId };
      }

      const pending = await sql<PendingRow[]>`
        SELECT position, group_key, input, first_deferred_at FROM bulk_job_rows
         WHERE job_id = ${jobId} AND page IS NULL
           AND (retry_at IS NULL OR retry_at <= ${now()})
         ORDER BY group_key, position
         LIMIT ${JOB_PAGE_SIZE}`;
      if (pending.length === 0) {
        const [next] = await sql<{ at: Date | null }[]>`
          SELECT min(retry_at) AS at FROM bulk_job_rows
           WHERE job_id = ${jobId} AND page IS NULL`;
        if (next?.at) {
          const let_go = await sql`
            UPDATE bulk_jobs
               SET lease_token = ${WAITING_LEASE}, lease_until = ${next.at}, updated_at = ${now()}
             WHERE id = ${jobId} AND lease_token = ${leaseToken} AND status = 'processing'`;
          if (let_go.count === 0) return { kind: "lease-lost", jobId };
          ctx.logger.info("bulk job waits on greylisting", { jobId });
          return { kind: "waiting", jobId, until: next.at };
        }
        const ended = await sql.begin(async (tx) => {
          const current = await lockOurs(tx);
          if (!current) return null;
          await endBulkJob({ tx }, { job: current, status: "completed", at: now() });
          return "completed" as const;
        });
        if (ended === null) return { kind: "lease-lost", jobId };
        ctx.logger.info("bulk job finished", { jobId, status: ended });
        return { kind: "finished", jobId, status: ended };
      }

      if (options.pageDelayMs) await new Promise((r) => setTimeout(r, options.pageDelayMs));
      const answers = await answerPage(ctx, fresh, pending);
      // A job cancelled or taken over meanwhile drops the page unbilled; the loop's top says which.
      const delivered = await sql.begin(async (tx) => {
        const current = await lockOurs(tx);
        if (!current) return false;
        await recordPage(tx, current, answers, {
          at: now(),
          leaseUntil: leaseEnd(),
          greylistMaxWaitMs: options.greylistMaxWaitMs ?? DEFAULT_GREYLIST_MAX_WAIT_MS,
          firstDeferredAt: new Map(pending.map((row) => [row.position, row.first_deferred_at])),
        });
        return true;
      });
      if (delivered) pagesThisClaim++;
    }
  }, (outcome) => outcome.kind);
}

/** Answers a page: rows of one group in order, up to `ROW_CONCURRENCY` groups at once. */
async function answerPage(
  ctx: DomainContext,
  job: JobRow,
  rows: PendingRow[],
): Promise<Map<number, RowAnswer>> {
  const groups = new Map<string, PendingRow[]>();
  for (const row of rows) {
    const group = groups.get(row.group_key);
    if (group) group.push(row);
    else groups.set(row.group_key, [row]);
  }
  const queue = [...groups.values()];
  const answers = new Map<number, RowAnswer>();
  // A domain's rows at once: their lookups reach the verifier together and share its sessions.
  const shared = { ...ctx, verifier: coalesceByDomain(ctx.verifier, SHARED_SESSIONS) };
  const lane = async () => {
    for (let group = queue.shift(); group; group = queue.shift()) {
      await Promise.all(group.map(async (row) => {
        answers.set(
          row.position,
          await answerBulkRow(shared, {
            workspaceId: job.workspace_id,
            operation: job.operation,
            row: row.input,
          }),
        );
      }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(ROW_CONCURRENCY, queue.length) }, lane));
  return answers;
}

/**
 * Records a page's answers and settles its price from the job's reservation, in the caller's
 * transaction with the job row locked and our lease checked. Rows answered meanwhile by another
 * holder are not written again (then the whole page is refused: nothing is charged twice).
 */
async function recordPage(
  tx: TransactionSql,
  job: JobRow,
  all: Map<number, RowAnswer>,
  input: {
    at: Date;
    leaseUntil: Date;
    greylistMaxWaitMs: number;
    firstDeferredAt: Map<number, Date | null>;
  },
): Promise<void> {
  // Rows greylisted (or paused by a host's 421) still within their wait are deferred, not answered.
  const answers = new Map<number, RowAnswer>();
  const deferred: { position: number; retry_at: string; first_deferred_at: string }[] = [];
  for (const [position, row] of all) {
    // Any operation's free answer that says when to ask again (find's `verification-unavailable`
    // after greylisting or a host's 421; a verify's `greylisted`): the engine's `retryAfterSeconds`.
    const retryAfter = row.cost === 0 ? row.answer.retryAfterSeconds : undefined;
    const first = input.firstDeferredAt.get(position) ?? input.at;
    const retryAt = typeof retryAfter === "number"
      ? new Date(input.at.getTime() + retryAfter * 1000)
      : null;
    if (retryAt && retryAt.getTime() - first.getTime() <= input.greylistMaxWaitMs) {
      deferred.push({
        position,
        retry_at: retryAt.toISOString(),
        first_deferred_at: first.toISOString(),
      });
    } else {
      answers.set(position, row);
    }
  }
  if (deferred.length > 0) {
    const waiting = await tx`
      UPDATE bulk_job_rows AS r
         SET retry_at = v.retry_at, first_deferred_at = v.first_deferred_at
        FROM jsonb_to_recordset(${tx.json(deferred as never)}::jsonb)
               AS v(position integer, retry_at timestamptz, first_deferred_at timestamptz)
       WHERE r.job_id = ${job.id} AND r.position = v.position AND r.page IS NULL`;
    if (waiting.count !== deferred.length) {
      throw new Error("bulk page rows were answered by another runner");
    }
  }
  const page = job.pages + (answers.size > 0 ? 1 : 0);
  const items = [...answers].map(([position, row]) => ({
    position,
    answer: row.answer,
    reason: row.reason,
    found: row.found,
    cost: row.cost,
  }));
  const written = await tx`
    UPDATE bulk_job_rows AS r
       SET answer = v.answer, reason = v.reason, found = v.found, cost = v.cost,
           page = ${page}, answered_at = ${input.at}, retry_at = NULL
      FROM jsonb_to_recordset(${tx.json(items as never)}::jsonb)
             AS v(position integer, answer jsonb, reason text, found boolean, cost integer)
     WHERE r.job_id = ${job.id} AND r.position = v.position AND r.page IS NULL`;
  if (written.count !== items.length) {
    throw new Error("bulk page rows were answered by another runner");
  }
  const [{ waiting }] = await tx<{ waiting: number }[]>`
    SELECT count(*)::int AS waiting FROM bulk_job_rows
     WHERE job_id = ${job.id} AND page IS NULL AND retry_at IS NOT NULL`;
  const amount = items.reduce((sum, item) => sum + item.cost, 0);
  if (amount > 0) {
    if (!job.reservation_id) throw new Error("bulk job has a cost but no reservation");
    const settled = await settleReservation({ tx }, {
      workspaceId: job.workspace_id,
      reservationId: job.reservation_id,
      amount,
      chargeKey: `bulk:${job.id}:page:${page}`,
      operation: `bulk-${job.operation}`,
    });
    if (settled.outcome !== "settled") {
      throw new Error(`bulk page could not be settled: ${settled.outcome}`);
    }
  }
  const refused = { ...job.refused };
  for (const item of items) {
    if (item.reason !== null) refused[item.reason] = (refused[item.reason] ?? 0) + 1;
  }
  await tx`UPDATE bulk_jobs
              SET done_count = done_count + ${items.length},
                  found_count = found_count + ${items.filter((item) => item.found).length},
                  credits_charged = credits_charged + ${amount},
                  refused = ${tx.json(refused as never)}, pages = ${page},
                  waiting_count = ${waiting},
                  lease_until = ${input.leaseUntil}, updated_at = ${input.at}
            WHERE id = ${job.id}`;
}
