/**
 * Pieces the Bulk pages share: paths, a job's progress (the job page shows it inside a polling
 * element while the job runs; `/progress` answers it alone for app.js), the 404 page, and the
 * reading of a submitted list with the API route's own CSV reader and row checks, so a row the API
 * would set aside (with its line number) is set aside here too.
 */
import type { Context } from "hono";
import {
  type BulkJob,
  type BulkOperation,
  type InvalidRow,
  isTerminalJob,
} from "../../../domain/bulk/bulk_job.ts";
import { readCsvRows, type ReadRows, validateRows } from "../../v1/bulk_rows.ts";
import { ErrorPage, points } from "../layout.tsx";
import { inSentence } from "../form_message.ts";
import { StatusBadge } from "../lead_search/parts.tsx";
import type { WebEnv } from "../web_env.ts";
import { count, noun } from "../numbers.ts";

export const BULK_PATH = "/app/bulk";
export const jobPath = (jobId: string) => `${BULK_PATH}/jobs/${encodeURIComponent(jobId)}`;

/** A list's text at the most: the API's body limit for a bulk job. */
export const MAX_LIST_BYTES = 8 * 1024 * 1024;

export const OPERATION_LABELS: Record<BulkOperation, string> = {
  find: "Find email",
  enrich: "Enrich email",
  verify: "Verify email",
};

export function operationOf(value: unknown): BulkOperation {
  return value === "enrich" || value === "verify" ? value : "find";
}

/** The rows of a list as the API reads a CSV body (throws `validation_error` as it does). */
export function readList(operation: BulkOperation, text: string): ReadRows {
  return validateRows(operation, readCsvRows(operation, text));
}

export function JobProgress(props: { job: BulkJob }) {
  const { job } = props;
  const { counts } = job;
  const percent = counts.rows === 0 ? 100 : Math.round((counts.done / counts.rows) * 100);
  return (
    <div class="lead-progress" data-done={isTerminalJob(job.status) ? "true" : "false"}>
      <div class="lead-progress-head">
        <StatusBadge status={job.status} />
        <span class="lead-progress-counts">
          <strong>{points(counts.done)}</strong> of {count(counts.rows, "row")} answered{" · "}
          <strong>{points(counts.found)}</strong> {job.operation === "verify" ? "valid" : "found"}
          {" · "}
          <strong>{points(counts.charged)}</strong> {noun(counts.charged, "point")} charged
          {counts.waiting > 0
            ? (
              <>
                {" · "}
                <strong data-waiting>{points(counts.waiting)}</strong> waiting on greylisting
              </>
            )
            : null}
        </span>
      </div>
      <progress
        max={Math.max(counts.rows, 1)}
        value={counts.rows === 0 ? 1 : counts.done}
        aria-label={`${counts.done} of ${count(counts.rows, "row")} answered`}
      >
        {percent}%
      </progress>
      <p class="muted lead-progress-note">{statusNote(job)}</p>
      {counts.waiting > 0 && !isTerminalJob(job.status)
        ? (
          <p class="muted lead-progress-note">
            Some mail servers greylist: they turn away a first attempt and accept the same one after
            a delay of minutes. Those rows are asked again after the delay (for a bounded time, an
            hour by default), and charged only once they are answered.
          </p>
        )
        : null}
    </div>
  );
}

function statusNote(job: BulkJob): string {
  switch (job.status) {
    case "queued":
      return "Waiting for a runner to pick it up; that usually takes about a second.";
    case "processing":
      return "Answering rows in pages of 50; each page is charged as it is answered, like the single calls.";
    case "completed":
      return `${
        job.counts.rows === 1 ? "The row is" : `All ${count(job.counts.rows, "row")} are`
      } answered. What the job did not use went back to your balance.`;
    case "cancelled":
      return "Cancelled. Rows already answered stay charged; the rest of the reservation went back to your balance.";
    case "failed":
      return "The job stopped. Answered rows stay charged; the rest went back to your balance.";
  }
}

/** The app's 404 page, for another workspace's job and an unknown id alike. */
export function jobNotFound(c: Context<WebEnv>) {
  c.status(404);
  return c.html(
    <ErrorPage
      title="Page not found"
      message="There is no bulk job with this id in this workspace."
    />,
  );
}

/** Rows listed with their line (the rest are in the API's answer and counted here). */
const SHOWN_INVALID = 100;

/** The rows validation set aside, by line and what was wrong (never their content). */
export function InvalidRows(props: { rows: InvalidRow[]; open?: boolean }) {
  const shown = props.rows.slice(0, SHOWN_INVALID);
  return (
    <details class="bulk-invalid" open={props.open ?? false}>
      <summary>
        {count(props.rows.length, "row")} set aside (never charged)
      </summary>
      <ul>
        {shown.map((row) => (
          <li data-line={row.line}>
            <span class="mono">Line {row.line}</span>: {inSentence(row.message)}
          </li>
        ))}
      </ul>
      {props.rows.length > shown.length
        ? <p class="muted">… and {points(props.rows.length - shown.length)} more.</p>
        : null}
    </details>
  );
}
