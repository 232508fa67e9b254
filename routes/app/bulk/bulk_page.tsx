/**
 * `/app/bulk`: find, enrich or verify for a whole list. A CSV file is uploaded (or rows pasted), the list
 * is read as the API reads a CSV body and quoted with the API's verb in its dry-run form (free,
 * nothing kept): rows to answer, rows set aside with their line numbers, duplicates folded, the
 * worst case and the balance. Starting posts the same list back with the quote page's hidden
 * Idempotency-Key (a double submit answers the same job) to the same verb, which reserves the worst
 * case and queues the job; its page follows it. Past jobs are listed. The quote and the start
 * count against the `bulk` budget, as the API's route does. The list is never logged or kept by
 * the page: it travels back in the start form, and only the job (as in the API) keeps its rows.
 */
import type { Context, Hono } from "hono";
import type { Child } from "hono/jsx";
import { bodyLimit } from "hono/body-limit";
import type { DomainContext } from "../../../domain/context.ts";
import { type Balance } from "../../../domain/billing/balance.ts";
import {
  type BulkJob,
  type BulkOperation,
  type InvalidRow,
} from "../../../domain/bulk/bulk_job.ts";
import { type BulkQuote, createBulkJob } from "../../../domain/bulk/create_bulk_job.ts";
import { listBulkJobs } from "../../../domain/bulk/list_bulk_jobs.ts";
import { ServiceError } from "../../../domain/errors.ts";
import { statusOf } from "../../errors.ts";
import { When } from "../dates.tsx";
import { inSentence } from "../form_message.ts";
import { CsrfField, ErrorPage, Notice, Page, points } from "../layout.tsx";
import { refusedByRateLimit, StatusBadge } from "../lead_search/parts.tsx";
import { memberPage } from "../member_pages.ts";
import { patiently } from "../patiently.ts";
import { formKeyOf, IdempotencyField, newFormKey, textField } from "../tools/tool_call.tsx";
import type { WebEnv } from "../web_env.ts";
import {
  BULK_PATH,
  InvalidRows,
  jobPath,
  MAX_LIST_BYTES,
  OPERATION_LABELS,
  operationOf,
  readList,
} from "./bulk_parts.tsx";
import { readWorkspaceBalance } from "../../../domain/billing/read_workspace_balance.ts";
import { count } from "../numbers.ts";

type Message = { kind: "error" | "info" | "success"; body: Child };

interface ListValues {
  operation: BulkOperation;
  /** The list as text (pasted, or the uploaded file's content after a quote). */
  text: string;
}

interface Quoted {
  quote: BulkQuote;
  invalidRows: InvalidRow[];
  /** The start form's one-time key. */
  formKey: string;
}

const PAST_JOBS = 20;
/** A list typed back into the paste box after a quote at the most; a bigger one stays a file. */
const REFILL_BYTES = 256 * 1024;

const EXAMPLES: Record<BulkOperation, string> = {
  find: "name,company\nAda Lovelace,acme.com\nGrace Hopper,https://www.example.com",
  enrich: "email\nada@acme.com\ngrace@example.com",
  verify: "email\nada@acme.com\ngrace@example.com",
};

export function mountBulkPage(web: Hono<WebEnv>, ctx: DomainContext): void {
  // A file of the API's largest list, sent as a form: url-encoding may triple its size.
  const limit = bodyLimit({
    maxSize: MAX_LIST_BYTES * 3,
    onError: (c) => {
      c.status(413);
      return c.html(
        <ErrorPage
          title="The list is too large"
          message="A bulk list may be at most 8 MB (10,000 rows). Split it into several jobs."
        />,
      );
    },
  });

  web.get(
    "/bulk",
    memberPage(ctx),
    (c) =>
      renderBulkPage(c, ctx, {
        values: { operation: operationOf(c.req.query("operation")), text: "" },
      }),
  );

  web.post("/bulk", limit, memberPage(ctx), async (c) => {
    const values = await submittedList(c);
    const again = (message: Message) => renderBulkPage(c, ctx, { values, message });
    if ("problem" in values) {
      c.status(400);
      return again(error(values.problem));
    }
    const limited = await refusedByRateLimit(c, ctx, "bulk");
    if (limited) return again(error(limited));
    try {
      const quoted = await quoteOf(ctx, c.get("member").workspaceId, values);
      return renderBulkPage(c, ctx, { values, quoted: { ...quoted, formKey: newFormKey() } });
    } catch (e) {
      if (!(e instanceof ServiceError) || e.code !== "validation_error") throw e;
      c.status(400);
      return again(error(inSentence(e.message)));
    }
  });

  web.post("/bulk/jobs", limit, memberPage(ctx), async (c) => {
    const member = c.get("member");
    const form = await c.req.parseBody();
    const values = { operation: operationOf(form.operation), text: textField(form, "list") };
    const key = formKeyOf(form);
    const again = async (status: number, message: Message, formKey = key) => {
      c.status(status as 400);
      let quoted: Quoted | undefined;
      try {
        quoted = { ...(await quoteOf(ctx, member.workspaceId, values)), formKey };
      } catch (e) {
        if (!(e instanceof ServiceError) || e.code !== "validation_error") throw e;
      }
      return renderBulkPage(c, ctx, { values, quoted, message });
    };
    const limited = await refusedByRateLimit(c, ctx, "bulk");
    if (limited) return again(429, error(limited));
    try {
      const { rows, invalid, duplicates } = readList(values.operation, values.text);
      const answer = await patiently(() =>
        createBulkJob(ctx, {
          workspaceId: member.workspaceId,
          idempotencyKey: key,
          operation: values.operation,
          rows,
          invalid,
          duplicates,
          dryRun: false,
        })
      );
      const job = answer.job!;
      const query = answer.replay ? "?replayed=1" : `?reserved=${job.pointsReserved}`;
      return c.redirect(jobPath(job.id) + query, 303);
    } catch (e) {
      if (!(e instanceof ServiceError)) throw e;
      switch (e.code) {
        case "insufficient_credits": {
          const meta = e.meta as { required: number; available: number; shortfall: number };
          return again(402, {
            kind: "error",
            body: (
              <>
                Not enough points: this job reserves {points(meta.required)}{" "}
                points for its worst case and {points(meta.available)} are available,{" "}
                {points(meta.shortfall)}{" "}
                short. Nothing was reserved. Shorten the list or get more points.
              </>
            ),
          });
        }
        case "idempotency_conflict":
          return again(409, {
            kind: "error",
            body:
              "This form already started a job with another list. It has been renewed: start again to make a new job.",
          }, newFormKey());
        case "idempotency_in_progress":
          return again(409, {
            kind: "error",
            body: "This job is still being started. Wait a moment, then look at the jobs below.",
          });
        default:
          return again(statusOf(e.code), error(inSentence(e.message)));
      }
    }
  });
}

const error = (body: Child): Message => ({ kind: "error", body });

/** The quote form's list: the uploaded file when one was chosen, else the pasted rows. */
async function submittedList(
  c: Context<WebEnv>,
): Promise<ListValues | (ListValues & { problem: string })> {
  const form = await c.req.parseBody();
  const operation = operationOf(form.operation);
  const pasted = textField(form, "list");
  const file = form.file instanceof File && form.file.size > 0 ? form.file : null;
  if (file && file.size > MAX_LIST_BYTES) {
    return {
      operation,
      text: "",
      problem: "The file is larger than 8 MB. Split it into several jobs.",
    };
  }
  const text = file ? await file.text() : pasted;
  if (text.trim() === "") {
    return { operation, text, problem: "Choose a CSV file or paste rows, with a header row." };
  }
  return { operation, text };
}

async function quoteOf(ctx: DomainContext, workspaceId: string, values: ListValues) {
  const { rows, invalid, duplicates } = readList(values.operation, values.text);
  const answer = await createBulkJob(ctx, {
    workspaceId,
    operation: values.operation,
    rows,
    invalid,
    duplicates,
    dryRun: true,
  });
  return { quote: answer.quote, invalidRows: answer.invalidRows };
}

async function renderBulkPage(
  c: Context<WebEnv>,
  ctx: DomainContext,
  props: { values: ListValues; quoted?: Quoted; message?: Message },
) {
  const member = c.get("member");
  const [balance, jobs] = await Promise.all([
    readWorkspaceBalance(ctx, { workspaceId: member.workspaceId }),
    listBulkJobs(ctx, { workspaceId: member.workspaceId, limit: PAST_JOBS }),
  ]);
  const { values, quoted } = props;
  return c.html(
    <Page title="Bulk" section="bulk" member={member}>
      <p class="muted lead-intro">
        Find, enrich or verify email addresses for a whole list, up to 10,000 rows. See what it
        costs first (free); a started job works in the background, its page shows its progress, and
        the results download as CSV. Each row is billed exactly as the single call with the same
        outcome: refusals and domains without mail are free.
      </p>
      <BulkStats balance={balance} ctx={ctx} />
      {props.message ? <Notice kind={props.message.kind}>{props.message.body}</Notice> : null}
      {quoted ? <QuotePanel member={member} values={values} quoted={quoted} /> : null}
      <ListForm member={member} values={values} ctx={ctx} />
      <PastJobs jobs={jobs} />
    </Page>,
  );
}

function BulkStats(props: { balance: Balance; ctx: DomainContext }) {
  const { prices } = props.ctx;
  return (
    <div class="stats">
      <div class="stat">
        <div class="label">Available</div>
        <div class="value">{points(props.balance.available)}</div>
      </div>
      <div class="stat">
        <div class="label">Find, a row</div>
        <div class="value">{points(prices.findEmail)}</div>
      </div>
      <div class="stat">
        <div class="label">Enrich, a row</div>
        <div class="value">{points(prices.enrich)}</div>
      </div>
      <div class="stat">
        <div class="label">Verify, a row</div>
        <div class="value">{points(prices.verify)}</div>
      </div>
    </div>
  );
}

function ListForm(
  props: { member: WebEnv["Variables"]["member"]; values: ListValues; ctx: DomainContext },
) {
  const { values } = props;
  const refill = values.text.length <= REFILL_BYTES ? values.text : "";
  return (
    <section class="panel" aria-labelledby="new-list">
      <h2 id="new-list">A list</h2>
      <form method="post" action={BULK_PATH} enctype="multipart/form-data" class="stack">
        <CsrfField member={props.member} />
        <fieldset class="lead-headcount">
          <legend class="label-text">Operation</legend>
          <div class="lead-checks">
            {(["find", "enrich", "verify"] as const).map((operation) => (
              <label>
                <input
                  type="radio"
                  name="operation"
                  value={operation}
                  checked={values.operation === operation}
                />{" "}
                {OPERATION_LABELS[operation]}
              </label>
            ))}
          </div>
        </fieldset>
        <div class="field">
          <label for="bulk-file">CSV file</label>
          <input type="file" id="bulk-file" name="file" accept=".csv,text/csv,text/plain" />
          <span class="hint">
            UTF-8, a header row naming the columns; other columns are ignored.
          </span>
        </div>
        <div class="field">
          <label for="bulk-list">Or paste rows</label>
          {/* A newline first: the parser drops one after <textarea>, so a list's own stays. */}
          <textarea
            id="bulk-list"
            name="list"
            rows={8}
            spellcheck={false}
            placeholder={EXAMPLES.find}
            aria-describedby="bulk-list-hint"
          >
            {"\n" + refill}
          </textarea>
          <span class="hint" id="bulk-list-hint">
            Find: <code>name,company</code> (a domain or website; <code>mode</code> may be{" "}
            <code>company</code> with <code>company</code> a name, or <code>network</code> with{" "}
            <code>networkUrl</code>). Enrich or verify: <code>email</code>{" "}
            (verify keeps a malformed address as a row, answered{" "}
            <code>invalid-syntax</code>, free). The header is line 1; a bad row is reported with its
            line and never charged.
          </span>
        </div>
        <div>
          <button type="submit">See the quote</button>
        </div>
      </form>
    </section>
  );
}

function QuotePanel(
  props: { member: WebEnv["Variables"]["member"]; values: ListValues; quoted: Quoted },
) {
  const { quote, invalidRows, formKey } = props.quoted;
  const { values } = props;
  const short = Math.max(0, quote.worstCase - quote.available);
  return (
    <section class="panel bulk-quote" aria-labelledby="quote">
      <h2 id="quote">Quote: {OPERATION_LABELS[values.operation]}</h2>
      <dl class="facts" data-quote-rows={quote.rows} data-quote-worst-case={quote.worstCase}>
        <dt>Rows to answer</dt>
        <dd>
          <strong>{points(quote.rows)}</strong>
        </dd>
        <dt>Set aside</dt>
        <dd>
          {quote.invalid === 0 ? "None" : `${points(quote.invalid)} (never charged)`}
        </dd>
        <dt>Duplicates folded</dt>
        <dd>{points(quote.duplicates)}</dd>
        <dt>Reserved at start</dt>
        <dd>
          <strong>{points(quote.worstCase)}</strong>{" "}
          points at the most; only rows billed as their single call are charged, the rest comes back
          when the job ends.
        </dd>
        <dt>Available</dt>
        <dd>{points(quote.available)}</dd>
      </dl>
      {invalidRows.length > 0
        ? <InvalidRows rows={invalidRows} open={invalidRows.length <= 10} />
        : null}
      {quote.rows === 0
        ? <Notice kind="error">No row is valid: there is nothing to start.</Notice>
        : !quote.sufficient
        ? (
          <Notice kind="error">
            Not enough points: {points(quote.worstCase)} needed, {points(quote.available)}{" "}
            available, {points(short)} short. Shorten the list or get more points.
          </Notice>
        )
        : (
          <form method="post" action={`${BULK_PATH}/jobs`} class="bulk-start">
            <CsrfField member={props.member} />
            <IdempotencyField value={formKey} />
            <input type="hidden" name="operation" value={values.operation} />
            <input type="hidden" name="list" value={values.text} />
            <button type="submit">
              Start the job ({count(quote.rows, "row")}, reserves {points(quote.worstCase)})
            </button>
          </form>
        )}
    </section>
  );
}

function PastJobs(props: { jobs: BulkJob[] }) {
  return (
    <section aria-labelledby="past-jobs">
      <h2 id="past-jobs">Jobs</h2>
      {props.jobs.length === 0
        ? <p class="empty">No jobs yet. Quote a list above, then start it.</p>
        : (
          <div class="table-wrap">
            <table class="card-rows bulk-jobs">
              <thead>
                <tr>
                  <th>Created</th>
                  <th>Operation</th>
                  <th>Status</th>
                  <th class="num">Answered</th>
                  <th class="num">Found</th>
                  <th class="num">Points</th>
                </tr>
              </thead>
              <tbody>
                {props.jobs.map((job) => (
                  <tr data-job-id={job.id}>
                    <td class="card-title nowrap">
                      <a href={jobPath(job.id)}>
                        <When iso={job.createdAt} />
                      </a>
                    </td>
                    <td data-label="Operation">{OPERATION_LABELS[job.operation]}</td>
                    <td class="card-corner">
                      <StatusBadge status={job.status} />
                    </td>
                    <td class="num" data-label="Answered">
                      {points(job.counts.done)} / {points(job.counts.rows)}
                    </td>
                    <td class="num" data-label="Found">{points(job.counts.found)}</td>
                    <td class="num" data-label="Points">{points(job.counts.charged)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
    </section>
  );
}
