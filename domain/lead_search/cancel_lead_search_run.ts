/**
 * Cancels a run exactly as spec §3 says: `queued` → `cancelled` at once (nothing charged, the
 * reservation released in the same transaction); `processing` → `cancelling` (the runner stops
 * at its next page; only delivered leads are charged); `cancelling` → the same answer again; a
 * terminal run is left as it is and answered `already-terminal`. Free. The run row is locked, so
 * a cancel and a runner's claim are ordered: a run claimed first is answered `cancelling`.
 */
import type { DomainContext } from "../context.ts";
import { releaseReservation } from "../billing/release_reservation.ts";
import { ServiceError } from "../errors.ts";
import { enqueueWebhookEvent } from "../webhooks/enqueue_webhook_event.ts";
import { isTerminal, type RunRow } from "./lead_search_run.ts";
import { refuseImpossibleRunId, RUN_NOT_FOUND_MESSAGE } from "./read_lead_search_run.ts";

export type CancelAnswer = { status: "cancelled" | "cancelling" | "already-terminal" };

export async function cancelLeadSearchRun(
  ctx: DomainContext,
  input: { workspaceId: string; runId: string },
): Promise<CancelAnswer> {
  refuseImpossibleRunId(input.runId);
  const at = new Date(ctx.clock.now());
  const status = await ctx.db.sql.begin(async (tx) => {
    const run = (await tx<RunRow[]>`
      SELECT * FROM lead_search_runs
       WHERE id = ${input.runId} AND workspace_id = ${input.workspaceId}
       FOR UPDATE`)[0];
    if (!run) throw new ServiceError("not_found", RUN_NOT_FOUND_MESSAGE);
    if (isTerminal(run.status)) return "already-terminal" as const;
    if (run.status === "cancelling") return "cancelling" as const;
    if (run.status === "processing") {
      await tx`UPDATE lead_search_runs SET status = 'cancelling', updated_at = ${at}
                WHERE id = ${run.id}`;
      return "cancelling" as const;
    }
    if (run.reservation_id) {
      await releaseReservation({ tx }, {
        workspaceId: run.workspace_id,
        reservationId: run.reservation_id,
        operation: "lead",
      });
    }
    await tx`UPDATE lead_search_runs
                SET status = 'cancelled', lease_token = NULL, lease_until = NULL,
                    finished_at = ${at}, updated_at = ${at}
              WHERE id = ${run.id}`;
    await enqueueWebhookEvent({ tx }, {
      workspaceId: run.workspace_id,
      type: "lead_search.run.completed",
      id: run.id,
      status: "cancelled",
      at,
    });
    return "cancelled" as const;
  });
  ctx.logger.info("lead search cancel", { runId: input.runId, status });
  return { status };
}
