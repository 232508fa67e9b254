/**
 * `/app`: the workspace's balance, the points it spent per day over the last 30 days (a chart,
 * drawn on the server) and its latest ledger lines (one per call, run or job: `ledger.tsx`).
 */
import type { Hono } from "hono";
import type { DomainContext } from "../../domain/context.ts";

import { readLedgerLines } from "../../domain/billing/ledger_lines.ts";
import { spendingByDay } from "../../domain/billing/spending_by_day.ts";
import { Page, points } from "./layout.tsx";
import { memberPage } from "./member_pages.ts";
import type { WebEnv } from "./web_env.ts";
import { SpendingChart } from "./overview_chart.tsx";
import { LEDGER_PATH, LedgerLines } from "./ledger.tsx";
import { readWorkspaceBalance } from "../../domain/billing/read_workspace_balance.ts";

const RECENT_LINES = 20;

export function mountOverview(web: Hono<WebEnv>, ctx: DomainContext): void {
  web.get("/", memberPage(ctx), async (c) => {
    const member = c.get("member");
    const { workspaceId } = member;
    const [balance, spending, ledger] = await Promise.all([
      readWorkspaceBalance(ctx, { workspaceId: workspaceId }),
      spendingByDay(ctx, { workspaceId, now: ctx.clock.now() }),
      readLedgerLines(ctx, { workspaceId, limit: RECENT_LINES }),
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
            <h2 id="recent">Recent ledger</h2>
            {ledger.lines.length > 0
              ? (
                <span class="muted">
                  One line per call, run or job · <a href={LEDGER_PATH}>the whole ledger</a>
                </span>
              )
              : null}
          </div>
          {ledger.lines.length === 0
            ? (
              <p class="empty">
                No ledger entries yet. Grants, calls, lead-search runs and bulk jobs appear here.
              </p>
            )
            : <LedgerLines lines={ledger.lines} />}
        </section>
      </Page>,
    );
  });
}
