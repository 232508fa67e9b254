/**
 * The lead-search pages (`/app/lead-search…`): the filter form and recent runs, one run's page
 * with live progress and its actions, and the CSV export. Each lives in `lead_search/`.
 */
import type { Hono } from "hono";
import type { DomainContext } from "../../domain/context.ts";
import type { WebEnv } from "./web_env.ts";
import { mountSearchPage } from "./lead_search/search_page.tsx";
import { mountRunPage } from "./lead_search/run_page.tsx";
import { mountLeadsCsv } from "./lead_search/leads_csv.tsx";

export function mountLeadSearchPages(web: Hono<WebEnv>, ctx: DomainContext): void {
  mountSearchPage(web, ctx);
  // The export's path is more specific than the run page's, so it is mounted first.
  mountLeadsCsv(web, ctx);
  mountRunPage(web, ctx);
}
