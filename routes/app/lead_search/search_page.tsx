/**
 * `/app/lead-search`: the filter form that starts a run (the same verb as `POST
 * /api/v1/lead-search`, the same `lead_search` budget, a hidden Idempotency-Key per rendered form
 * so a double submit answers the same run, uncharged) and the workspace's recent runs.
 */
import type { Context, Hono } from "hono";
import type { Child } from "hono/jsx";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { DomainContext } from "../../../domain/context.ts";
import { type Balance } from "../../../domain/billing/balance.ts";
import { ServiceError } from "../../../domain/errors.ts";
import { MAX_COUNT } from "../../../domain/lead_search/lead_search_run.ts";
import type { LeadSearchRun } from "../../../domain/lead_search/lead_search_run.ts";
import { listLeadSearchRuns } from "../../../domain/lead_search/list_lead_search_runs.ts";
import { statusOf } from "../../errors.ts";
import { CsrfField, Notice, Page, points } from "../layout.tsx";
import { memberPage } from "../member_pages.ts";
import type { WebEnv } from "../web_env.ts";
import {
  countOf,
  EMPTY_FILTER_FORM,
  FILTER_RULES,
  type FilterFormValues,
  filtersOf,
  HEADCOUNT_RANGES,
  readFilterForm,
  TEXT_FILTER_FIELDS,
} from "./filter_form.ts";
import {
  filterSummary,
  isActive,
  LEAD_SEARCH_PATH,
  newFormKey,
  pageMessage,
  refusedByRateLimit,
  runPath,
  shortfall,
  startPatiently,
  StatusBadge,
  When,
} from "./parts.tsx";
import { readWorkspaceBalance } from "../../../domain/billing/read_workspace_balance.ts";

type Message = { kind: "error" | "info"; body: Child };

export function mountSearchPage(web: Hono<WebEnv>, ctx: DomainContext): void {
  web.get(
    "/lead-search",
    memberPage(ctx),
    (c) => renderSearchPage(c, ctx, { values: EMPTY_FILTER_FORM, formKey: newFormKey() }),
  );

  web.post("/lead-search", memberPage(ctx), async (c) => {
    const member = c.get("member");
    const body = await c.req.parseBody({ all: true });
    const values = readFilterForm(body);
    const sentKey = typeof body.idempotencyKey === "string" ? body.idempotencyKey : "";
    const formKey = sentKey || newFormKey();
    const again = (status: ContentfulStatusCode, message: Message, key = formKey) => {
      c.status(status);
      return renderSearchPage(c, ctx, { values, formKey: key, message });
    };

    const limited = await refusedByRateLimit(c, ctx, "lead_search");
    if (limited) return renderSearchPage(c, ctx, { values, formKey, message: error(limited) });

    try {
      const answer = await startPatiently(ctx, {
        workspaceId: member.workspaceId,
        idempotencyKey: formKey,
        filters: filtersOf(values),
        count: countOf(values.count),
      });
      if (answer.run) {
        const query = answer.replay ? "?replayed=1" : `?reserved=${answer.pointsReserved}`;
        return c.redirect(runPath(answer.run.id) + query, 303);
      }
      // Refused uncharged: the worst case is more than the workspace has.
      return again(402, {
        kind: "error",
        body: await shortfall(ctx, member.workspaceId, answer, Number(countOf(values.count))),
      });
    } catch (e) {
      if (!(e instanceof ServiceError)) throw e;
      if (e.code === "run_already_active") {
        const [latest] = await listLeadSearchRuns(ctx, {
          workspaceId: member.workspaceId,
          limit: 1,
        });
        return again(409, {
          kind: "error",
          body: (
            <>
              A run is already active in this workspace. {latest && isActive(latest)
                ? <a href={runPath(latest.id)}>Open the active run</a>
                : null} and wait for it to finish or cancel it, then start this one.
            </>
          ),
        });
      }
      if (e.code === "idempotency_conflict") {
        // The back button brought back a form that already started a run; a new key starts anew.
        return again(409, {
          kind: "error",
          body:
            "This form already started a run with other filters. It has been renewed: submit it again to start a new run.",
        }, newFormKey());
      }
      if (e.code === "idempotency_in_progress") {
        return again(409, {
          kind: "error",
          body: "This run is still being started. Wait a moment, then reload the page.",
        });
      }
      return again(statusOf(e.code), error(pageMessage(e.message)));
    }
  });
}

const error = (body: Child): Message => ({ kind: "error", body });

async function renderSearchPage(
  c: Context<WebEnv>,
  ctx: DomainContext,
  props: { values: FilterFormValues; formKey: string; message?: Message },
) {
  const member = c.get("member");
  const [balance, runs] = await Promise.all([
    readWorkspaceBalance(ctx, { workspaceId: member.workspaceId }),
    listLeadSearchRuns(ctx, { workspaceId: member.workspaceId }),
  ]);
  const active = runs.find(isActive) ?? null;
  return c.html(
    <Page title="Lead search" section="lead-search" member={member}>
      <p class="muted lead-intro">
        Search the directory for people by title, place and company. A run works in the background:
        leads arrive in pages of 25 on the run’s page, where you can follow its progress, cancel it,
        export the leads as CSV, or continue it later for more.
      </p>
      <Stats balance={balance} price={ctx.prices.lead} />
      {active && !props.message
        ? (
          <Notice kind="info">
            A run is active ({points(active.deliveredCount)} of {points(active.count)}{" "}
            leads so far):{" "}
            <a href={runPath(active.id)}>follow it</a>. One run at a time: a new one can start when
            it ends.
          </Notice>
        )
        : null}
      <SearchForm
        member={member}
        values={props.values}
        formKey={props.formKey}
        price={ctx.prices.lead}
        balance={balance}
        message={props.message}
      />
      <RecentRuns runs={runs} />
    </Page>,
  );
}

function Stats(props: { balance: Balance; price: number }) {
  return (
    <div class="stats">
      <div class="stat">
        <div class="label">Available</div>
        <div class="value">{points(props.balance.available)}</div>
      </div>
      <div class="stat">
        <div class="label">Reserved</div>
        <div class="value">{points(props.balance.reserved)}</div>
      </div>
      <div class="stat">
        <div class="label">Price per lead</div>
        <div class="value">{points(props.price)}</div>
      </div>
    </div>
  );
}

function SearchForm(
  props: {
    member: WebEnv["Variables"]["member"];
    values: FilterFormValues;
    formKey: string;
    price: number;
    balance: Balance;
    message?: Message;
  },
) {
  const { values, price } = props;
  const example = 100;
  const affordable = price > 0 ? Math.floor(props.balance.available / price) : MAX_COUNT;
  return (
    <section class="panel" aria-labelledby="new-search">
      <h2 id="new-search">New search</h2>
      {props.message ? <Notice kind={props.message.kind}>{props.message.body}</Notice> : null}
      <form method="post" action={LEAD_SEARCH_PATH} class="stack">
        <CsrfField member={props.member} />
        <input type="hidden" name="idempotencyKey" value={props.formKey} />
        <p class="muted lead-rules">{FILTER_RULES}</p>
        <div class="lead-filter-grid">
          {TEXT_FILTER_FIELDS.map((field) => (
            <div class="field">
              <label for={`filter-${field.name}`}>{field.label}</label>
              <textarea
                id={`filter-${field.name}`}
                name={field.name}
                rows={2}
                placeholder={field.placeholder}
                aria-describedby={`filter-${field.name}-hint`}
              >
                {values.text[field.name]}
              </textarea>
              <span class="hint" id={`filter-${field.name}-hint`}>{field.hint}</span>
            </div>
          ))}
        </div>
        <fieldset class="lead-headcount">
          <legend class="label-text">Headcount</legend>
          <div class="lead-checks">
            {HEADCOUNT_RANGES.map((range) => (
              <label>
                <input
                  type="checkbox"
                  name="headcount"
                  value={range}
                  checked={values.headcount.includes(range)}
                />{" "}
                {range}
              </label>
            ))}
          </div>
          <span class="hint">The company’s number of employees; tick any ranges.</span>
        </fieldset>
        <div class="row lead-start">
          <div class="field lead-count">
            <label for="count">Leads wanted</label>
            <input
              id="count"
              name="count"
              type="number"
              min={1}
              max={MAX_COUNT}
              step={1}
              value={values.count}
              required
              aria-describedby="count-hint"
            />
          </div>
          <button type="submit">Start the run</button>
        </div>
        <p class="hint lead-cost" id="count-hint">
          1 to {points(MAX_COUNT)} leads. Cost: {points(price)} points a lead. Starting reserves
          {" "}
          <strong>count × {points(price)}</strong> points (e.g. {example} leads reserve{" "}
          {points(example * price)}{" "}
          points); only delivered leads are charged, and what a run does not use returns to your
          balance when it ends. Your {points(props.balance.available)} available points cover up to
          {" "}
          {points(Math.min(affordable, MAX_COUNT))} leads.
        </p>
      </form>
    </section>
  );
}

function RecentRuns(props: { runs: LeadSearchRun[] }) {
  return (
    <section aria-labelledby="recent-runs">
      <h2 id="recent-runs">Recent runs</h2>
      {props.runs.length === 0
        ? (
          <p class="empty">
            No runs yet. Start one above: its page shows the leads as they arrive.
          </p>
        )
        : (
          <div class="table-wrap">
            <table class="lead-runs lead-cards">
              <thead>
                <tr>
                  <th>Created</th>
                  <th>Status</th>
                  <th class="num">Delivered</th>
                  <th class="num">Points</th>
                  <th>Filters</th>
                </tr>
              </thead>
              <tbody>
                {props.runs.map((run) => (
                  <tr>
                    <td class="lead-nowrap">
                      <a href={runPath(run.id)}>
                        <When iso={run.createdAt} />
                      </a>
                      {run.continueFromRunId
                        ? <div class="muted lead-small">continuation</div>
                        : null}
                    </td>
                    <td class="lead-corner">
                      <StatusBadge status={run.status} />
                    </td>
                    <td class="num" data-label="Delivered">
                      {points(run.deliveredCount)} / {points(run.count)}
                    </td>
                    <td class="num" data-label="Points">{points(run.creditsCharged)}</td>
                    <td class="lead-filter-cell" data-label="Filters">
                      {filterSummary(run.filters)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
    </section>
  );
}
