/**
 * A bulk job (find, enrich or verify for a whole list) as the service answers it, its rows, and the
 * mappers from `bulk_jobs` and `bulk_job_rows` (migrations 016 and 017).
 */
import type { FindInput } from "../find/find_work_email.ts";

export const BULK_OPERATIONS = ["find", "enrich", "verify"] as const;
export type BulkOperation = typeof BULK_OPERATIONS[number];

export const JOB_STATUSES = ["queued", "processing", "completed", "cancelled", "failed"] as const;
export type JobStatus = typeof JOB_STATUSES[number];
export const TERMINAL_JOB_STATUSES: readonly JobStatus[] = ["completed", "cancelled", "failed"];

/** The most rows one job may hold (after validation and folding duplicates). */
export const MAX_JOB_ROWS = 10_000;
/** Rows answered, recorded and settled together. */
export const JOB_PAGE_SIZE = 50;

/** One row's request: the operation's own single-call input (`{ email }` for enrich and verify). */
export type BulkRowInput = FindInput | { email: string };

/** A row that passed validation: the first input line it came from, its duplicates after. */
export interface ValidRow {
  lines: number[];
  input: BulkRowInput;
  /** Rows sharing a key are answered together (a mail domain). */
  groupKey: string;
}

/** A row validation set aside: its line and what was wrong (never its content). */
export interface InvalidRow {
  line: number;
  message: string;
}

export interface BulkJobCounts {
  rows: number;
  done: number;
  found: number;
  charged: number;
  /** Answered rows with a reason (not found, refused, a provider that could not answer). */
  refused: Record<string, number>;
  /** Rows validation set aside (not part of the job, never charged). */
  invalid: number;
  /** Rows folded into an equal earlier row. */
  duplicates: number;
  /**
   * Rows not answered yet because a mail server greylisted them: asked again after its delay,
   * up to `BULK_GREYLIST_MAX_WAIT_SECONDS` (then answered `verification-unavailable`).
   */
  waiting: number;
}

export interface BulkJob {
  id: string;
  operation: BulkOperation;
  status: JobStatus;
  counts: BulkJobCounts;
  /** The points held for the job's worst case when it was made. */
  pointsReserved: number;
  invalidRows: InvalidRow[];
  failureReason: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  updatedAt: string;
  /**
   * When the job's rows will be deleted: its end plus the retention period. Null while it runs,
   * or when rows are kept for good (a period of 0).
   */
  resultsExpireAt: string | null;
  /** When the rows were deleted (the results answer 410 `results_expired` from then on). */
  resultsDeletedAt: string | null;
}

export interface JobRow {
  id: string;
  workspace_id: string;
  operation: BulkOperation;
  status: JobStatus;
  row_count: number;
  done_count: number;
  found_count: number;
  credits_charged: string | number;
  worst_case: string | number;
  refused: Record<string, number>;
  invalid: InvalidRow[];
  duplicates: number;
  waiting_count: number;
  reservation_id: string | null;
  idempotency_key: string;
  pages: number;
  lease_token: string | null;
  lease_until: Date | null;
  failure_reason: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  updated_at: Date;
  results_deleted_at: Date | null;
}

export interface JobRowRecord {
  job_id: string;
  position: number;
  lines: number[];
  group_key: string;
  input: BulkRowInput;
  answer: Record<string, unknown> | null;
  reason: string | null;
  found: boolean | null;
  cost: number | null;
  page: number | null;
  answered_at: Date | null;
}

const DAY_MS = 86_400_000;

/** `retentionDays`: how long an ended job's rows are kept (`BULK_RESULTS_RETENTION_DAYS`). */
export function toBulkJob(row: JobRow, retentionDays: number): BulkJob {
  return {
    id: row.id,
    operation: row.operation,
    status: row.status,
    counts: {
      rows: row.row_count,
      done: row.done_count,
      found: row.found_count,
      charged: Number(row.credits_charged),
      refused: row.refused,
      invalid: row.invalid.length,
      duplicates: row.duplicates,
      waiting: row.waiting_count,
    },
    pointsReserved: Number(row.worst_case),
    invalidRows: row.invalid,
    failureReason: row.failure_reason,
    createdAt: row.created_at.toISOString(),
    startedAt: row.started_at?.toISOString() ?? null,
    finishedAt: row.finished_at?.toISOString() ?? null,
    updatedAt: row.updated_at.toISOString(),
    resultsExpireAt: row.finished_at && retentionDays > 0
      ? new Date(row.finished_at.getTime() + retentionDays * DAY_MS).toISOString()
      : null,
    resultsDeletedAt: row.results_deleted_at?.toISOString() ?? null,
  };
}

export function isTerminalJob(status: JobStatus): boolean {
  return TERMINAL_JOB_STATUSES.includes(status);
}

export const JOB_NOT_FOUND_MESSAGE = "No bulk job with this id in this workspace";
