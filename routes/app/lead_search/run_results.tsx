/**
 * The parts of a run's page below its progress: the continue panel (continue a finished run, with
 * what it would cost) and the results table, a lead a row, with the profile link.
 */
import {
  isTerminal,
  type Lead,
  MAX_COUNT,
  PAGE_SIZE,
} from "../../../domain/lead_search/lead_search_run.ts";
import type { LeadSearchRunPage } from "../../../domain/lead_search/read_lead_search_run.ts";
import { CsrfField, points } from "../layout.tsx";
import type { WebEnv } from "../web_env.ts";
import { isActive, runPath } from "./parts.tsx";

export function ContinuePanel(
  props: {
    run: LeadSearchRunPage;
    continued: boolean;
    member: WebEnv["Variables"]["member"];
    price: number;
    count?: string;
    formKey: string;
  },
) {
  const { run } = props;
  return (
    <section class="panel" aria-labelledby="run-continue">
      <h2 id="run-continue">Continue</h2>
      {!isTerminal(run.status)
        ? (
          <p class="muted">
            Once this run has finished you can continue it for more leads with the same filters.
          </p>
        )
        : props.continued
        ? (
          <p class="muted">
            This run has been continued (see “Continued by”); continue the newest run of the chain
            for more leads.
          </p>
        )
        : (
          <form method="post" action={`${runPath(run.id)}/continue`} class="stack">
            <CsrfField member={props.member} />
            <input type="hidden" name="idempotencyKey" value={props.formKey} />
            <p class="muted">
              Find more people with the same filters. Leads delivered by this run or the runs it
              continues are skipped, never delivered or charged again.
            </p>
            <div class="row">
              <div class="field">
                <label for="continue-count">More leads</label>
                <input
                  id="continue-count"
                  name="count"
                  type="number"
                  min={1}
                  max={MAX_COUNT}
                  step={1}
                  value={props.count ?? String(run.count)}
                  required
                />
              </div>
              <button type="submit">Continue the run</button>
            </div>
            <p class="lead-cost">
              Reserves count × {points(props.price)}{" "}
              points at the start; only delivered leads are charged.
            </p>
          </form>
        )}
    </section>
  );
}

export function Results(props: { run: LeadSearchRunPage }) {
  const { run } = props;
  const pages = Math.max(1, Math.ceil(run.deliveredCount / PAGE_SIZE));
  const base = runPath(run.id);
  const pager = (
    <nav class="lead-pager" aria-label="Pages of leads">
      {run.page > 1
        ? (
          <a
            class="button subtle"
            href={`${base}?page=${Math.min(run.page - 1, pages)}`}
            rel="prev"
          >
            ← Previous
          </a>
        )
        : <span class="button subtle" aria-disabled="true">← Previous</span>}
      <span class="muted">Page {points(run.page)} of {points(pages)}</span>
      {run.nextPage
        ? <a class="button subtle" href={`${base}?page=${run.nextPage}`} rel="next">Next →</a>
        : <span class="button subtle" aria-disabled="true">Next →</span>}
    </nav>
  );
  return (
    <section aria-labelledby="run-leads">
      <h2 id="run-leads">Leads</h2>
      {run.results.length === 0
        ? (
          <p class="empty">
            {run.page > pages
              ? (
                <>
                  No leads on page {points(run.page)}: this run has {points(pages)}{" "}
                  {pages === 1 ? "page" : "pages"}. <a href={base}>Go to the first page</a>.
                </>
              )
              : isActive(run)
              ? "No leads yet. This page refreshes by itself when the run ends; reload it to see the leads delivered so far."
              : "This run delivered no leads: nobody in the directory matched its filters, or everyone who did was delivered by an earlier run of its chain."}
          </p>
        )
        : (
          <>
            <div class="table-wrap">
              <table class="lead-results lead-cards">
                <thead>
                  <tr>
                    <th class="num">#</th>
                    <th>Name</th>
                    <th>Title</th>
                    <th>Company</th>
                    <th>Location</th>
                    <th>Profile</th>
                  </tr>
                </thead>
                <tbody>
                  {run.results.map((lead) => <LeadRow key={lead.position} lead={lead} />)}
                </tbody>
              </table>
            </div>
            {pages > 1 || run.page > 1 ? pager : null}
          </>
        )}
    </section>
  );
}

function LeadRow(props: { lead: Lead }) {
  const { lead } = props;
  return (
    <tr>
      <td class="num muted lead-corner">{lead.position}</td>
      <td class="lead-name">{lead.name}</td>
      <td data-label="Title">{lead.title ?? <span class="muted">—</span>}</td>
      <td data-label="Company">{lead.company ?? <span class="muted">—</span>}</td>
      <td data-label="Location">{lead.location ?? <span class="muted">—</span>}</td>
      <td data-label="Profile">
        <ProfileLink url={lead.networkUrl} />
      </td>
    </tr>
  );
}

/** Only http(s) addresses become links: a learned profile's URL came from the web. */
function ProfileLink(props: { url: string | null }) {
  if (!props.url) return <span class="muted">—</span>;
  let parsed: URL | null = null;
  try {
    parsed = new URL(props.url);
  } catch { /* shown as text */ }
  if (!parsed || (parsed.protocol !== "https:" && parsed.protocol !== "http:")) {
    return <span class="mono">{props.url}</span>;
  }
  // The path names the profile; the host is the same network on every row (the title has it all).
  const shown = parsed.pathname.replace(/^\/|\/$/g, "") || parsed.host;
  return (
    <a href={parsed.href} title={parsed.href} rel="noopener noreferrer" target="_blank">
      {shown}
    </a>
  );
}
