/**
 * A workspace's most recent lead-search runs, newest first, for the web app's list. The one
 * active run (if any) is always among them: no run can start while another is active, so the
 * active run is the newest.
 */
import type { DomainContext } from "../context.ts";
import { type LeadSearchRun, type RunRow, toLeadSearchRun } from "./lead_search_run.ts";

/** How many runs the list shows by default; older ones stay readable by their id. */
export const RECENT_RUNS = 20;

export async function listLeadSearchRuns(
  ctx: Pick<DomainContext, "db">,
  input: { workspaceId: string; limit?: number },
): Promise<LeadSearchRun[]> {
  const limit = Math.min(Math.max(1, Math.floor(input.limit ?? RECENT_RUNS)), 100);
  const rows = await ctx.db.sql<RunRow[]>`
    SELECT * FROM lead_search_runs
     WHERE workspace_id = ${input.workspaceId}
     ORDER BY created_at DESC, id DESC
     LIMIT ${limit}`;
  return rows.map(toLeadSearchRun);
}
