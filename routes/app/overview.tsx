/**
 * `/app`: the workspace's balance, the points it spent per day over the last 30 days (a chart,
 * drawn on the server) and its most recent ledger postings.
 */
import type { Hono } from "hono";
import type { DomainContext } from "../../domain/context.ts";
import { readBalance } from "../../domain/billing/balance.ts";
import { type LedgerEntry, recentEntries } from "../../domain/billing/recent_entries.ts";
import { spendingByDay } from "../../domain/billing/spending_by_day.ts";
import { Page, points } from "./layout.tsx";
import { memberPage } from "./member_pages.ts";
import type { WebEnv } from "./web_env.ts";
import { SpendingChart } from "./overview_chart.tsx";
import { operationName } from "./operation_names.ts";
import { When } from "./dates.tsx";

const RECENT_ENTRIES = 20;

/**
 * Each posting kind: its name, how it moves the available points (the sign shown), and what it
 * means, on hover.
 */
const KINDS: Record<string, { label: string; sign: 1 | -1; means: string }> = {
  grant: { label: "Grant", sign: 1, means: "Points added to the workspace" },
  charge: { label: "Charge", sign: -1, means: "Points spent on billable answers" },
  reserve: {
    label: "Reserve",
    sign: -1,
    means: "Points set aside for a lead-search run's worst case",
  },
  settle: {
    label: "Settle",
    sign: -1,
    means: "Leads delivered, paid from the run's reserved points",
  },
  release: { label: "Release", sign: 1, means: "A run's unused reserved points given back" },
};

export function mountOverview(web: Hono<WebEnv>, ctx: DomainContext): void {
  web.get("/", memberPage(ctx), async (c) => {
    const member = c.get("member");
    const { workspaceId } = member;
    const [balance, spending, entries] = await Promise.all([
      readBalance(ctx.db.sql, workspaceId),
      spendingByDay(ctx.db.sql, { workspaceId, now: ctx.clock.now() }),
      recentEntries(ctx.db.sql, { workspaceId, limit: RECENT_ENTRIES }),
    ]);
    return c.html(
      <Page title="Overview" section="overview" member={member}>
        <div class="stats">
          <div class="stat">
            <div class="label">Available</div>
            <div class="value">{points(balance.available)}</div>
          </div>
          <div class="stat">
            <div class="label">Reserved</div>
            <div class="value">{points(balance.reserved)}</div>
          </div>
          <div class="stat">
            <div class="label">Granted</div>
            <div class="value">{points(balance.granted)}</div>
          </div>
        </div>

        <section class="panel" aria-labelledby="spending">
          <div class="section-head">
            <h2 id="spending">Points spent per day</h2>
            <span class="muted">
              Last 30 days (UTC){spending.total > 0 ? ` · ${points(spending.total)} points` : ""}
            </span>
          </div>
          {spending.total === 0
            ? (
              <p class="empty">
                Nothing spent in the last 30 days. Charges from the API and the{" "}
                <a href="/app/tools">tools</a> appear here by day and operation.
              </p>
            )
            : <SpendingChart data={spending} />}
        </section>

        <section aria-labelledby="recent">
          <div class="section-head">
            <h2 id="recent">Recent ledger entries</h2>
            {entries.length > 0 ? <span class="muted">Newest first</span> : null}
          </div>
          {entries.length === 0
            ? (
              <p class="empty">
                No ledger entries yet. Grants, charges and lead-search reservations appear here.
              </p>
            )
            : <EntriesTable entries={entries} />}
        </section>
      </Page>,
    );
  });
}

function EntriesTable(props: { entries: LedgerEntry[] }) {
  return (
    <div class="table-wrap">
      <table class="ledger-rows">
        <thead>
          <tr>
            <th>Time</th>
            <th>Entry</th>
            <th>Operation</th>
            <th class="num">Points</th>
            <th class="num">Units</th>
            <th class="num">Available after</th>
          </tr>
        </thead>
        <tbody>
          {props.entries.map((entry) => {
            const kind = KINDS[entry.kind] ?? { label: entry.kind, sign: -1, means: "" };
            return (
              <tr data-kind={entry.kind}>
                <td class="nowrap ledger-time">
                  <When iso={entry.createdAt} />
                </td>
                <td class="ledger-kind">
                  <span class={`badge ${kind.sign > 0 ? "ok" : ""}`.trim()} title={kind.means}>
                    {kind.label}
                  </span>
                </td>
                <td class="ledger-operation">
                  <OperationCell entry={entry} />
                  {entry.units > 1 ? <span class="ledger-units">· {entry.units} units</span> : null}
                </td>
                <td class={`num nowrap ledger-amount ${kind.sign > 0 ? "amount-plus" : ""}`.trim()}>
                  {kind.sign > 0 ? "+" : "−"}
                  {points(entry.amount)}
                </td>
                <td class="num ledger-units-cell">
                  {entry.kind === "charge" ? points(entry.units) : <span class="muted">—</span>}
                </td>
                <td class="num ledger-after">{points(entry.availableAfter)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** A price's name; a grant's note (`bootstrap grant`) as written, since grants have no price. */
function OperationCell(props: { entry: LedgerEntry }) {
  const { entry } = props;
  if (entry.kind === "grant") {
    const note = entry.operation ?? "";
    return note && note !== "grant"
      ? <span class="muted">{note.charAt(0).toUpperCase() + note.slice(1)}</span>
      : <span class="muted">—</span>;
  }
  return <>{operationName(entry.operation)}</>;
}
