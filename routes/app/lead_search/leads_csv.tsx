/**
 * `/app/lead-search/runs/:runId/leads.csv`: every lead the run delivered, once, in delivery order,
 * as a CSV file (`../csv.ts`: RFC 4180, UTF-8 with a byte-order mark). Free, like polling, and counted against the `account` budget. A lead carries
 * no contact data, so neither does the file.
 */
import type { Hono } from "hono";
import type { DomainContext } from "../../../domain/context.ts";
import { ServiceError } from "../../../domain/errors.ts";
import type { Lead } from "../../../domain/lead_search/lead_search_run.ts";
import { readDeliveredLeads } from "../../../domain/lead_search/read_delivered_leads.ts";
import { ErrorPage } from "../layout.tsx";
import { memberPage } from "../member_pages.ts";
import type { WebEnv } from "../web_env.ts";
import { refusedByRateLimit, runNotFound } from "./parts.tsx";
import { csvFile } from "../csv.ts";

export const CSV_COLUMNS = ["name", "title", "company", "location", "networkUrl"] as const;

export function mountLeadsCsv(web: Hono<WebEnv>, ctx: DomainContext): void {
  web.get("/lead-search/runs/:runId/leads.csv", memberPage(ctx), async (c) => {
    const limited = await refusedByRateLimit(c, ctx, "account");
    if (limited) return c.html(<ErrorPage title="Slow down" message={limited} />);
    const runId = c.req.param("runId");
    let leads: Lead[];
    try {
      leads = await readDeliveredLeads(ctx, { workspaceId: c.get("member").workspaceId, runId });
    } catch (e) {
      if (e instanceof ServiceError && e.code === "not_found") return runNotFound(c);
      throw e;
    }
    const filename = `leads-${runId.replace(/[^A-Za-z0-9_-]/g, "")}.csv`;
    return c.body(leadsCsv(leads), 200, {
      "Content-Type": "text/csv; charset=utf-8; header=present",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
    });
  });
}

export function leadsCsv(leads: Lead[]): string {
  return csvFile(CSV_COLUMNS, leads.map((lead) => CSV_COLUMNS.map((column) => lead[column])));
}
