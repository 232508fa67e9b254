/**
 * `/app/bulk/jobs/:jobId`: one bulk job of the workspace. Its progress, live while it runs (app.js
 * polls `/progress`), its counts (refused rows by reason, rows set aside with their lines), and
 * its actions: cancel (the API's cancel verb: answered rows stay charged, the rest of the
 * reservation is released) and the results as CSV (the API's own file, readable while the job
 * runs and until the retention sweep deletes its rows; the page says when that will be, or was).
 * Reading, polling, the download and cancelling count against the `account` budget, as the same
 * operations do in the API. Another workspace's job and an unknown id are the app's 404 page.
 */
import type { Context, Hono } from "hono";
import type { Child } from "hono/jsx";
import type { DomainContext } from "../../../domain/context.ts";

import { type BulkJob, isTerminalJob } from "../../../domain/bulk/bulk_job.ts";
import { cancelBulkJob } from "../../../domain/bulk/cancel_bulk_job.ts";
import { readBulkJob } from "../../../domain/bulk/read_bulk_job.ts";
import {
  type BulkResultRow,
  readBulkResults,
  readFirstBulkResults,
} from "../../../domain/bulk/read_bulk_results.ts";
import { ReasonBadge } from "../tools/reasons.tsx";
import { count } from "../numbers.ts";
import { ServiceError } from "../../../domain/errors.ts";
import { resultsStream } from "../../v1/bulk_results_format.ts";
import { When } from "../dates.tsx";
import { CsrfField, ErrorPage, Notice, Page, points } from "../layout.tsx";
import { refusedByRateLimit } from "../lead_search/parts.tsx";
import { memberPage } from "../member_pages.ts";
import type { WebEnv } from "../web_env.ts";
import {
  BULK_PATH,
  InvalidRows,
  jobNotFound,
  jobPath,
  JobProgress,
  OPERATION_LABELS,
} from "./bulk_parts.tsx";
import { readWorkspaceBalance } from "../../../domain/billing/read_workspace_balance.ts";

type Message = { kind: "error" | "info" | "success"; body: Child };

/** How each refusal reason reads (an unknown one is shown as stored). */
const REASONS: Record<string, string> = {
  "not-found": "Not found",
  "catch-all": "Catch-all domain",
  "unusable-domain": "Domain without mail",
  "free-mail-domain": "Free-mail domain",
  "disposable-domain": "Disposable domain",
  "do-not-contact": "On the do-not-contact list",
  "verification-unavailable": "Mail server could not answer",
  "company-not-found": "Company not found",
  "profile-not-found": "Profile not found",
  "source-rate-limited": "A source was busy",
  "source-timeout": "A source timed out",
  "source-error": "A source failed",
  "internal-error": "Could not be answered",
  // Verify's reasons (a `valid` row has none).
  "mailbox-not-found": "Mailbox not found",
  "domain-not-found": "Domain not found",
  "null-mx": "Domain takes no mail (null MX)",
  "no-mail-server": "No mail server",
  "invalid-syntax": "Not an address",
  "greylisted": "Greylisted",
  "sender-rejected": "Our sender was refused",
  "client-rejected": "Our client was refused",
  "mail-server-unreachable": "Mail server unreachable",
  "timeout": "Timed out",
  "dns-error": "DNS could not answer",
  "tls-error": "TLS failed",
  "unexpected-reply": "Unexpected reply",
  "verifier-unavailable": "Verifier unavailable",
};

const CANCEL_OUTCOMES: Record<string, Message> = {
  cancelled: {
    kind: "success",
    body:
      "Job cancelled. Rows already answered stay charged; the rest of its reservation is back in your balance.",
  },
  "already-terminal": {
    kind: "info",
    body: "This job had already finished, so there was nothing to cancel.",
  },
};

/** Reads the job, or answers the app's 404 page. */
async function jobOr404(
  c: Context<WebEnv>,
  ctx: DomainContext,
): Promise<BulkJob | Response> {
  try {
    return await readBulkJob(ctx, {
      workspaceId: c.get("member").workspaceId,
      jobId: c.req.param("jobId") ?? "",
    });
  } catch (e) {
    if (e instanceof ServiceError && e.code === "not_found") return jobNotFound(c);
    throw e;
  }
}

export function mountJobPage(web: Hono<WebEnv>, ctx: DomainContext): void {
  web.get("/bulk/jobs/:jobId", memberPage(ctx), async (c) => {
    const limited = await refusedByRateLimit(c, ctx, "account");
    if (limited) return c.html(<ErrorPage title="Slow down" message={limited} />);
    const job = await jobOr404(c, ctx);
    if (job instanceof Response) return job;
    const firstRows = await readFirstBulkResults(ctx, {
      workspaceId: c.get("member").workspaceId,
      jobId: job.id,
      count: FIRST_ROWS,
    });
    return c.html(
      <JobPage
        job={job}
        firstRows={firstRows}
        member={c.get("member")}
        message={await flash(c, ctx, job)}
      />,
    );
  });

  web.get("/bulk/jobs/:jobId/progress", memberPage(ctx), async (c) => {
    // A refused tick is skipped by the poller, which asks again at the next one.
    const limited = await refusedByRateLimit(c, ctx, "account");
    if (limited) return c.html(<p class="muted">{limited}</p>);
    const job = await jobOr404(c, ctx);
    if (job instanceof Response) return job;
    return c.html(<JobProgress job={job} />);
  });

  web.get("/bulk/jobs/:jobId/results.csv", memberPage(ctx), async (c) => {
    const limited = await refusedByRateLimit(c, ctx, "account");
    if (limited) return c.html(<ErrorPage title="Slow down" message={limited} />);
    const jobId = c.req.param("jobId");
    let results;
    try {
      results = await readBulkResults(ctx, { workspaceId: c.get("member").workspaceId, jobId });
    } catch (e) {
      if (e instanceof ServiceError && e.code === "not_found") return jobNotFound(c);
      if (e instanceof ServiceError && e.code === "results_expired") {
        c.status(410);
        return c.html(<ErrorPage title="Results deleted" message={e.message} />);
      }
      throw e;
    }
    return c.body(resultsStream(results.operation, results.rows, "csv"), 200, {
      "Content-Type": "text/csv; charset=utf-8; header=present",
      "Content-Disposition": `attachment; filename="bulk-${
        jobId.replace(/[^A-Za-z0-9_-]/g, "")
      }.csv"`,
      "Cache-Control": "no-store",
    });
  });

  web.post("/bulk/jobs/:jobId/cancel", memberPage(ctx), async (c) => {
    const jobId = c.req.param("jobId");
    const limited = await refusedByRateLimit(c, ctx, "account");
    if (limited) {
      const job = await jobOr404(c, ctx);
      if (job instanceof Response) return job;
      c.status(429);
      return c.html(
        <JobPage
          job={job}
          firstRows={[]}
          member={c.get("member")}
          message={{ kind: "error", body: limited }}
        />,
      );
    }
    try {
      const { status } = await cancelBulkJob(ctx, {
        workspaceId: c.get("member").workspaceId,
        jobId,
      });
      return c.redirect(`${jobPath(jobId)}?cancel=${status}`, 303);
    } catch (e) {
      if (e instanceof ServiceError && e.code === "not_found") return jobNotFound(c);
      throw e;
    }
  });
}

/** What the redirect after a start, a replayed start or a cancel asks the page to say. */
async function flash(
  c: Context<WebEnv>,
  ctx: DomainContext,
  job: BulkJob,
): Promise<Message | undefined> {
  const cancel = c.req.query("cancel");
  if (cancel && cancel in CANCEL_OUTCOMES) return CANCEL_OUTCOMES[cancel];
  if (c.req.query("replayed") === "1") {
    return {
      kind: "info",
      body: "This form had already started this job (a second submit): nothing was reserved again.",
    };
  }
  const reserved = c.req.query("reserved");
  // The page reloads itself when the job ends: a start's news no longer holds then.
  if (reserved && /^\d{1,12}$/.test(reserved) && !isTerminalJob(job.status)) {
    const balance = await readWorkspaceBalance(ctx, { workspaceId: c.get("member").workspaceId });
    return {
      kind: "success",
      body: (
        <>
          Job started: {points(Number(reserved))}{" "}
          points reserved for its worst case. Each row is charged as its single call would be; what
          the job does not use goes back when it ends. Balance now:{" "}
          <strong>{points(balance.available)}</strong> available,{" "}
          <strong>{points(balance.reserved)}</strong> reserved.
        </>
      ),
    };
  }
  return undefined;
}

function JobPage(
  props: {
    job: BulkJob;
    firstRows: BulkResultRow[];
    member: WebEnv["Variables"]["member"];
    message?: Message;
  },
) {
  const { job, member, message } = props;
  const running = !isTerminalJob(job.status);
  const refused = Object.entries(job.counts.refused).filter(([, n]) => n > 0);
  return (
    <Page title={`Bulk job: ${OPERATION_LABELS[job.operation]}`} section="bulk" member={member}>
      <p class="lead-crumbs">
        <a href={BULK_PATH}>← Bulk</a>
        <span class="muted mono">{job.id}</span>
      </p>
      {message ? <Notice kind={message.kind}>{message.body}</Notice> : null}
      <section class="panel" aria-label="Progress">
        {running
          ? (
            <div
              data-poll-url={`${jobPath(job.id)}/progress`}
              data-poll-ms="1000"
              data-reload-when-done
            >
              <JobProgress job={job} />
            </div>
          )
          : <JobProgress job={job} />}
        <div class="lead-actions">
          {running
            ? (
              <form
                method="post"
                action={`${jobPath(job.id)}/cancel`}
                data-confirm="Cancel this job? Rows already answered stay charged."
              >
                <CsrfField member={member} />
                <button type="submit" class="danger">Cancel job</button>
              </form>
            )
            : null}
          {job.resultsDeletedAt
            ? null
            : (
              <a class="button subtle" href={`${jobPath(job.id)}/results.csv`} download>
                Download results (CSV{running ? ", so far" : ""})
              </a>
            )}
        </div>
        <ResultsRetention job={job} />
      </section>

      {props.firstRows.length > 0 ? <FirstRows job={job} rows={props.firstRows} /> : null}

      <div class="lead-run-grid">
        <section class="panel" aria-labelledby="job-details">
          <h2 id="job-details">Details</h2>
          <dl class="facts">
            <dt>Operation</dt>
            <dd>{OPERATION_LABELS[job.operation]}</dd>
            <dt>Rows</dt>
            <dd>{points(job.counts.rows)}</dd>
            <dt>Duplicates folded</dt>
            <dd>{points(job.counts.duplicates)}</dd>
            <dt>Waiting on greylisting</dt>
            <dd>{points(job.counts.waiting)}</dd>
            <dt>Reserved at start</dt>
            <dd>{points(job.pointsReserved)}</dd>
            <dt>Charged</dt>
            <dd>{points(job.counts.charged)}</dd>
            {job.failureReason
              ? (
                <>
                  <dt>Failure</dt>
                  <dd>{job.failureReason}</dd>
                </>
              )
              : null}
            <dt>Created</dt>
            <dd>
              <When iso={job.createdAt} />
            </dd>
            <dt>Started</dt>
            <dd>
              <When iso={job.startedAt} />
            </dd>
            <dt>Finished</dt>
            <dd>
              <When iso={job.finishedAt} />
            </dd>
          </dl>
        </section>
        <section class="panel" aria-labelledby="job-outcomes">
          <h2 id="job-outcomes">Rows without an address</h2>
          {refused.length === 0
            ? <p class="muted">None so far.</p>
            : (
              <dl class="facts bulk-reasons">
                {refused.map(([reason, n]) => (
                  <>
                    <dt>{REASONS[reason] ?? reason}</dt>
                    <dd data-reason={reason}>{points(n)}</dd>
                  </>
                ))}
              </dl>
            )}
          <p class="muted">
            Each is billed as its single call with the same outcome would be: refusals, domains
            without mail and sources that could not answer are free.
          </p>
          {job.invalidRows.length > 0 ? <InvalidRows rows={job.invalidRows} /> : null}
        </section>
      </div>
    </Page>
  );
}

/** How many of a job's rows its page shows; the download has them all. */
const FIRST_ROWS = 20;

/** What a row of the first-rows table says: who, at which company, the address, the outcome. */
function rowCells(operation: BulkJob["operation"], row: BulkResultRow) {
  const input = row.input as unknown as Record<string, unknown>;
  const answer = (row.answer ?? {}) as Record<string, unknown>;
  const person = (answer.person ?? {}) as Record<string, unknown>;
  const company = (answer.company ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => typeof value === "string" && value !== "" ? value : null;
  if (operation === "find") {
    return {
      name: text(input.name) ?? text(input.networkUrl),
      company: text(input.domain) ?? text(input.companyName) ?? text(company.domain),
      email: text(answer.email),
    };
  }
  return {
    name: text(person.name),
    company: text(person.companyName),
    email: text(input.email),
  };
}

function RowStatus(props: { row: BulkResultRow }) {
  const { row } = props;
  if (row.state === "pending") return <span class="badge">Waiting</span>;
  const answer = row.answer as Record<string, unknown>;
  if (answer.found === true) {
    return answer.status === "catch-all" || answer.status === "unknown"
      ? <span class="badge warn">Found, {String(answer.status)}</span>
      : <span class="badge ok">Found</span>;
  }
  return <ReasonBadge reason={typeof answer.reason === "string" ? answer.reason : "not-found"} />;
}

function FirstRows(props: { job: BulkJob; rows: BulkResultRow[] }) {
  const { job, rows } = props;
  const more = job.counts.rows - rows.length;
  return (
    <section class="panel bulk-first-rows" aria-labelledby="job-rows">
      <div class="section-head">
        <h2 id="job-rows">
          {rows.length < job.counts.rows ? `First ${count(rows.length, "row")}` : "Rows"}
        </h2>
        <a class="button subtle" href={`${jobPath(job.id)}/results.csv`} download>
          Download all {count(job.counts.rows, "row")} (CSV)
        </a>
      </div>
      <div class="table-wrap" data-label="The job's first rows">
        <table class="card-rows bulk-rows">
          <thead>
            <tr>
              <th class="num">Line</th>
              <th>Name</th>
              <th>Company</th>
              <th>Email</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const cells = rowCells(job.operation, row);
              return (
                <tr data-state={row.state}>
                  <td class="num" data-label="Line">{row.lines.join(", ")}</td>
                  <td data-label="Name">{cells.name ?? <span class="muted">—</span>}</td>
                  <td data-label="Company">{cells.company ?? <span class="muted">—</span>}</td>
                  <td data-label="Email" class="mono">
                    {cells.email ?? <span class="muted">—</span>}
                  </td>
                  <td data-label="Status">
                    <RowStatus row={row} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {more > 0 ? <p class="muted">{count(more, "more row")} in the download.</p> : null}
    </section>
  );
}

/**
 * What becomes of the job's rows: deleted (and when), or when they will be for an ended job under
 * a retention period (`BULK_RESULTS_RETENTION_DAYS`). The rows hold submitted personal data.
 */
function ResultsRetention(props: { job: BulkJob }) {
  const { job } = props;
  if (job.resultsDeletedAt) {
    return (
      <p class="muted" data-results-deleted>
        The results of this job were deleted on <When iso={job.resultsDeletedAt} />{" "}
        (rows are kept for a set time after a job ends). Its counts and charges stay below.
      </p>
    );
  }
  if (job.resultsExpireAt) {
    return (
      <p class="muted" data-results-expire>
        The results will be deleted on{" "}
        <When iso={job.resultsExpireAt} />: download them before then.
      </p>
    );
  }
  return null;
}
