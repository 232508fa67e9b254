/**
 * A run as its workspace polls it (spec §4.8): the run's fields and one page of its delivered
 * leads (25 a page, `page` 1-based, `nextPage` null when no delivered lead follows). Free.
 * Another workspace's run and an unknown id are both `not_found`.
 */
import { looksLikeId } from "../shared/new_id.ts";
import type { DomainContext } from "../context.ts";
import { ServiceError } from "../errors.ts";
import {
  type Lead,
  type LeadSearchRun,
  PAGE_SIZE,
  type RunRow,
  toLeadSearchRun,
} from "./lead_search_run.ts";

export interface LeadSearchRunPage extends LeadSearchRun {
  page: number;
  results: Lead[];
  nextPage: number | null;
}

export const RUN_NOT_FOUND_MESSAGE = "No lead-search run with this id in this workspace";

/**
 * An id no run can have (made up, or holding characters the database cannot store) names no run:
 * `not_found` before any query.
 */
export function refuseImpossibleRunId(runId: string): void {
  if (!looksLikeId("run", runId)) throw new ServiceError("not_found", RUN_NOT_FOUND_MESSAGE);
}
/** Far above the last page of the largest run; keeps `page` a small integer. */
export const MAX_PAGE = 1_000_000;

export async function readLeadSearchRun(
  ctx: DomainContext,
  input: { workspaceId: string; runId: string; page?: number },
): Promise<LeadSearchRunPage> {
  const page = input.page ?? 1;
  if (!Number.isInteger(page) || page < 1 || page > MAX_PAGE) {
    throw new ServiceError("validation_error", `page must be an integer from 1 to ${MAX_PAGE}`);
  }
  refuseImpossibleRunId(input.runId);
  const sql = ctx.db.sql;
  const row = (await sql<RunRow[]>`
    SELECT * FROM lead_search_runs
     WHERE id = ${input.runId} AND workspace_id = ${input.workspaceId}`)[0];
  if (!row) throw new ServiceError("not_found", RUN_NOT_FOUND_MESSAGE);
  const first = (page - 1) * PAGE_SIZE + 1;
  const results = await sql<Lead[]>`
    SELECT position, name, title, company, location, network_url AS "networkUrl"
      FROM lead_search_results
     WHERE run_id = ${row.id} AND position BETWEEN ${first} AND ${first + PAGE_SIZE - 1}
     ORDER BY position`;
  return {
    ...toLeadSearchRun(row),
    page,
    results: results.map((r) => ({ ...r })),
    nextPage: row.delivered_count >= first + PAGE_SIZE ? page + 1 : null,
  };
}
