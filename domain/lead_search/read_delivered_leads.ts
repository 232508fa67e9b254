/**
 * Every lead a run of the workspace delivered, in delivery order (the web app's CSV export). Free,
 * like polling. A run holds at most `MAX_COUNT` leads, so one read is enough. Another workspace's
 * run and an unknown id are both `not_found`.
 */
import type { DomainContext } from "../context.ts";
import { ServiceError } from "../errors.ts";
import type { Lead } from "./lead_search_run.ts";
import { refuseImpossibleRunId, RUN_NOT_FOUND_MESSAGE } from "./read_lead_search_run.ts";

export async function readDeliveredLeads(
  ctx: Pick<DomainContext, "db">,
  input: { workspaceId: string; runId: string },
): Promise<Lead[]> {
  refuseImpossibleRunId(input.runId);
  const sql = ctx.db.sql;
  const run = (await sql<{ id: string }[]>`
    SELECT id FROM lead_search_runs
     WHERE id = ${input.runId} AND workspace_id = ${input.workspaceId}`)[0];
  if (!run) throw new ServiceError("not_found", RUN_NOT_FOUND_MESSAGE);
  const leads = await sql<Lead[]>`
    SELECT position, name, title, company, location, network_url AS "networkUrl"
      FROM lead_search_results
     WHERE run_id = ${run.id}
     ORDER BY position`;
  return leads.map((lead) => ({ ...lead }));
}
