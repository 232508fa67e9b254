/**
 * The sweeper's verb: clears the leases of active runs whose holder stopped renewing them (a
 * process that died mid-run), so the next runner to poll claims them at once. Idempotent; safe
 * on every instance together. Returns the runs recovered.
 */
import type { RunnerContext } from "../context.ts";

export async function recoverExpiredLeases(ctx: RunnerContext): Promise<string[]> {
  const rows = await ctx.db.sql<{ id: string }[]>`
    UPDATE lead_search_runs SET lease_token = NULL, lease_until = NULL,
                                updated_at = ${new Date(ctx.clock.now())}
     WHERE status IN ('queued', 'processing', 'cancelling')
       AND lease_until <= ${new Date(ctx.clock.now())}
    RETURNING id`;
  return rows.map((r) => r.id);
}
