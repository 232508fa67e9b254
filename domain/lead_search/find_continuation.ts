/**
 * The run that continued a run of the workspace, or null: a run is continued at most once (a
 * unique index), so the web app can link to the continuation instead of offering a second one.
 */
import type { DomainContext } from "../context.ts";
import { type LeadSearchRun, type RunRow, toLeadSearchRun } from "./lead_search_run.ts";

export async function findContinuation(
  ctx: Pick<DomainContext, "db">,
  input: { workspaceId: string; runId: string },
): Promise<LeadSearchRun | null> {
  const row = (await ctx.db.sql<RunRow[]>`
    SELECT * FROM lead_search_runs
     WHERE continue_from = ${input.runId} AND workspace_id = ${input.workspaceId}`)[0];
  return row ? toLeadSearchRun(row) : null;
}
