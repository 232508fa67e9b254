/**
 * `/app/lead-search/runs/:runId`: one run of the workspace. Its facts, live progress while it is
 * active (app.js polls `/progress`), its leads 25 a page (the API's read verb), and its actions:
 * cancel (the API's cancel verb), continue (the API's start verb with `continueFromRunId`) and
 * the CSV export. Reading, polling and cancelling count against the `account` budget and a
 * continuation against `lead_search`, as the same operations do in the API. Another workspace's
 * run and an unknown id are the app's 404 page.
 */
import type { Context, Hono } from "hono";
import type { Child } from "hono/jsx";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { DomainContext } from "../../../domain/context.ts";

import { ServiceError } from "../../../domain/errors.ts";
import { cancelLeadSearchRun } from "../../../domain/lead_search/cancel_lead_search_run.ts";
import { findContinuation } from "../../../domain/lead_search/find_continuation.ts";
import { isTerminal } from "../../../domain/lead_search/lead_search_run.ts";
import { listLeadSearchRuns } from "../../../domain/lead_search/list_lead_search_runs.ts";
import {
  type LeadSearchRunPage,
  MAX_PAGE,
  readLeadSearchRun,
} from "../../../domain/lead_search/read_lead_search_run.ts";
import { statusOf } from "../../errors.ts";
import { CsrfField, ErrorPage, Notice, Page, points } from "../layout.tsx";
import { memberPage } from "../member_pages.ts";
import type { WebEnv } from "../web_env.ts";
import { countOf } from "./filter_form.ts";
import {
  FilterList,
  isActive,
  LEAD_SEARCH_PATH,
  newFormKey,
  pageMessage,
  refusedByRateLimit,
  runNotFound,
  runPath,
  shortfall,
  startPatiently,
  When,
} from "./parts.tsx";
import { RunProgress } from "./run_progress.tsx";
import { ContinuePanel, Results } from "./run_results.tsx";
import { readWorkspaceBalance } from "../../../domain/billing/read_workspace_balance.ts";
import { count } from "../numbers.ts";

type Message = { kind: "error" | "info" | "success"; body: Child };

/** The query a redirect leaves for the page to report (`?reserved=`, `?replayed=1`, `?cancel=`). */
interface Flash {
  cancel?: string;
  replayed?: boolean;
  reserved?: string;
}

interface RunPageProps {
  runId: string;
  page: number;
  message?: Message;
  flash?: Flash;
  /** The continue form as the member left it (after a refusal). */
  continueCount?: string;
  continueKey?: string;
}

const CANCEL_OUTCOMES: Record<string, Message> = {
  cancelled: {
    kind: "success",
    body:
      "Run cancelled before it started. Nothing was charged and its reservation is back in your balance.",
  },
  cancelling: {
    kind: "info",
    body:
      "Cancelling: the run stops at its next page. Only the leads already delivered are charged; the rest of the reservation goes back to your balance.",
  },
  "already-terminal": {
    kind: "info",
    body: "This run had already finished, so there was nothing to cancel.",
  },
};

export function mountRunPage(web: Hono<WebEnv>, ctx: DomainContext): void {
  web.get("/lead-search/runs/:runId", memberPage(ctx), async (c) => {
    const limited = await refusedByRateLimit(c, ctx, "account");
    if (limited) return c.html(<ErrorPage title="Slow down" message={limited} />);
    const pageText = c.req.query("page") || "1";
    if (!/^[1-9][0-9]{0,6}$/.test(pageText) || Number(pageText) > MAX_PAGE) {
      c.status(400);
      return c.html(
        <ErrorPage title="No such page" message="The page number must be a whole number from 1." />,
      );
    }
    return await renderRunPage(c, ctx, {
      runId: c.req.param("runId"),
      page: Number(pageText),
      flash: {
        cancel: c.req.query("cancel"),
        replayed: c.req.query("replayed") === "1",
        reserved: c.req.query("reserved"),
      },
    });
  });

  web.get("/lead-search/runs/:runId/progress", memberPage(ctx), async (c) => {
    // A refused tick is skipped by the poller, which asks again at the next one.
    const limited = await refusedByRateLimit(c, ctx, "account");
    if (limited) return c.html(<p class="muted">{limited}</p>);
    try {
      const run = await readLeadSearchRun(ctx, {
        workspaceId: c.get("member").workspaceId,
        runId: c.req.param("runId"),
      });
      return c.html(<RunProgress run={run} />);
    } catch (e) {
      if (e instanceof ServiceError && e.code === "not_found") return runNotFound(c);
      throw e;
    }
  });

  web.post("/lead-search/runs/:runId/cancel", memberPage(ctx), async (c) => {
    const runId = c.req.param("runId");
    const limited = await refusedByRateLimit(c, ctx, "account");
    if (limited) return await renderRunPage(c, ctx, { runId, page: 1, message: error(limited) });
    try {
      const { status } = await cancelLeadSearchRun(ctx, {
        workspaceId: c.get("member").workspaceId,
        runId,
      });
      return c.redirect(`${runPath(runId)}?cancel=${status}`, 303);
    } catch (e) {
      if (e instanceof ServiceError && e.code === "not_found") return runNotFound(c);
      throw e;
    }
  });

  web.post("/lead-search/runs/:runId/continue", memberPage(ctx), async (c) => {
    const runId = c.req.param("runId");
    const member = c.get("member");
    const body = await c.req.parseBody();
    const count = typeof body.count === "string" ? body.count.trim() : "";
    const sentKey = typeof body.idempotencyKey === "string" ? body.idempotencyKey : "";
    const key = sentKey || newFormKey();
    const again = (status: ContentfulStatusCode, message: Message, continueKey = key) => {
      c.status(status);
      return renderRunPage(c, ctx, { runId, page: 1, message, continueCount: count, continueKey });
    };
    const limited = await refusedByRateLimit(c, ctx, "lead_search");
    if (limited) return await again(429, error(limited));
    try {
      const answer = await startPatiently(ctx, {
        workspaceId: member.workspaceId,
        idempotencyKey: key,
        count: countOf(count),
        continueFromRunId: runId,
      });
      if (answer.run) {
        const query = answer.replay ? "?replayed=1" : `?reserved=${answer.pointsReserved}`;
        return c.redirect(runPath(answer.run.id) + query, 303);
      }
      return await again(402, {
        kind: "error",
        body: await shortfall(ctx, member.workspaceId, answer, Number(countOf(count))),
      });
    } catch (e) {
      if (!(e instanceof ServiceError)) throw e;
      switch (e.code) {
        case "run_already_continued": {
          const next = await findContinuation(ctx, { workspaceId: member.workspaceId, runId });
          return await again(409, {
            kind: "error",
            body: (
              <>
                This run was already continued{next
                  ? (
                    <>
                      {" "}by <a href={runPath(next.id)}>another run</a>
                    </>
                  )
                  : null}; a run can be continued once. Continue that one for more leads.
              </>
            ),
          });
        }
        case "run_already_active": {
          const [latest] = await listLeadSearchRuns(ctx, {
            workspaceId: member.workspaceId,
            limit: 1,
          });
          return await again(409, {
            kind: "error",
            body: (
              <>
                Another run is active in this workspace
                {latest && isActive(latest)
                  ? (
                    <>
                      {" "}(<a href={runPath(latest.id)}>open it</a>)
                    </>
                  )
                  : null}. Continue this one when it has finished, or cancel it.
              </>
            ),
          });
        }
        case "idempotency_conflict":
          return await again(409, {
            kind: "error",
            body:
              "This form already continued the run with another count. It has been renewed: submit it again.",
          }, newFormKey());
        case "idempotency_in_progress":
          return await again(409, {
            kind: "error",
            body: "The continuation is still being started. Wait a moment, then reload the page.",
          });
        default:
          return await again(statusOf(e.code), error(pageMessage(e.message)));
      }
    }
  });
}

const error = (body: Child): Message => ({ kind: "error", body });

/**
 * What the redirect after a start, a replayed start or a cancel asks the page to say. The page
 * reloads itself when the run ends, with the same address: news that no longer holds (a start's
 * reservation, a cancel still stopping) is then left out.
 */
async function flashMessage(
  c: Context<WebEnv>,
  ctx: DomainContext,
  run: LeadSearchRunPage,
  flash: Flash,
): Promise<Message | undefined> {
  if (flash.cancel === "cancelling") {
    return run.status === "cancelling" ? CANCEL_OUTCOMES.cancelling : undefined;
  }
  if (flash.cancel && flash.cancel in CANCEL_OUTCOMES) return CANCEL_OUTCOMES[flash.cancel];
  if (flash.replayed) {
    return {
      kind: "info",
      body: "This form had already started this run (a second submit): nothing was reserved again.",
    };
  }
  if (flash.reserved && /^\d{1,9}$/.test(flash.reserved) && isActive(run)) {
    const balance = await readWorkspaceBalance(ctx, { workspaceId: c.get("member").workspaceId });
    return {
      kind: "success",
      body: (
        <>
          Run started: {points(Number(flash.reserved))}{" "}
          points reserved for its worst case. Only delivered leads are charged; what the run does
          not use goes back when it ends. Balance now: <strong>{points(balance.available)}</strong>
          {" "}
          available, <strong>{points(balance.reserved)}</strong> reserved.
        </>
      ),
    };
  }
  return undefined;
}

async function renderRunPage(c: Context<WebEnv>, ctx: DomainContext, props: RunPageProps) {
  const member = c.get("member");
  let run: LeadSearchRunPage;
  try {
    run = await readLeadSearchRun(ctx, {
      workspaceId: member.workspaceId,
      runId: props.runId,
      page: props.page,
    });
  } catch (e) {
    if (e instanceof ServiceError && e.code === "not_found") return runNotFound(c);
    throw e;
  }
  const active = isActive(run);
  const message = props.message ??
    (props.flash ? await flashMessage(c, ctx, run, props.flash) : undefined);
  const continuation = isTerminal(run.status)
    ? await findContinuation(ctx, { workspaceId: member.workspaceId, runId: run.id })
    : null;
  const progressUrl = `${runPath(run.id)}/progress`;
  return c.html(
    <Page title="Lead-search run" section="lead-search" member={member}>
      <p class="lead-crumbs">
        <a href={LEAD_SEARCH_PATH}>← Lead search</a>
        <span class="muted mono">{run.id}</span>
      </p>
      {message ? <Notice kind={message.kind}>{message.body}</Notice> : null}
      <section class="panel" aria-label="Progress">
        {active
          ? (
            <div data-poll-url={progressUrl} data-poll-ms="1000" data-reload-when-done>
              <RunProgress run={run} />
            </div>
          )
          : <RunProgress run={run} />}
        <div class="lead-actions">
          {run.status === "queued" || run.status === "processing"
            ? (
              <form
                method="post"
                action={`${runPath(run.id)}/cancel`}
                data-confirm="Cancel this run? Leads already delivered stay charged."
              >
                <CsrfField member={member} />
                <button type="submit" class="danger">Cancel run</button>
              </form>
            )
            : null}
          {run.deliveredCount > 0
            ? (
              <a class="button subtle" href={`${runPath(run.id)}/leads.csv`} download>
                Export CSV ({count(run.deliveredCount, "lead")})
              </a>
            )
            : null}
        </div>
      </section>

      <Results run={run} />

      <div class="lead-run-grid">
        <section class="panel" aria-labelledby="run-details">
          <h2 id="run-details">Details</h2>
          <dl class="facts">
            <dt>Leads wanted</dt>
            <dd>{points(run.count)}</dd>
            {run.failureReason
              ? (
                <>
                  <dt>Failure</dt>
                  <dd>{run.failureReason}</dd>
                </>
              )
              : null}
            <dt>Filters</dt>
            <dd>
              <FilterList filters={run.filters} />
            </dd>
            <dt>Created</dt>
            <dd>
              <When iso={run.createdAt} />
            </dd>
            <dt>Started</dt>
            <dd>
              <When iso={run.startedAt} />
            </dd>
            <dt>Finished</dt>
            <dd>
              <When iso={run.finishedAt} />
            </dd>
            {run.continueFromRunId
              ? (
                <>
                  <dt>Continues</dt>
                  <dd>
                    <a class="mono" href={runPath(run.continueFromRunId)}>
                      {run.continueFromRunId}
                    </a>
                  </dd>
                </>
              )
              : null}
            {continuation
              ? (
                <>
                  <dt>Continued by</dt>
                  <dd>
                    <a class="mono" href={runPath(continuation.id)}>{continuation.id}</a>
                  </dd>
                </>
              )
              : null}
          </dl>
        </section>
        <ContinuePanel
          run={run}
          continued={continuation !== null}
          member={member}
          price={ctx.prices.lead}
          count={props.continueCount}
          formKey={props.continueKey ?? newFormKey()}
        />
      </div>
    </Page>,
  );
}
