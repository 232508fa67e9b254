import type { Hono } from "hono";
import type { DomainContext } from "../../domain/context.ts";
import { readBalance } from "../../domain/billing/balance.ts";
import { Page, points } from "./layout.tsx";
import { memberPage } from "./member_pages.ts";
import type { WebEnv } from "./web_env.ts";

export function mountOverview(web: Hono<WebEnv>, ctx: DomainContext): void {
  web.get("/", memberPage(ctx), async (c) => {
    const member = c.get("member");
    const balance = await readBalance(ctx.db.sql, member.workspaceId);
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
      </Page>,
    );
  });
}
