/**
 * "Send again": a delivery that ended (delivered or failed) is queued for one more attempt now,
 * under its same `webhook-id` (a receiver that kept it dedupes); past the retry schedule it is
 * tried once. Only to a live endpoint.
 */
import type { DomainContext } from "../context.ts";
import { ServiceError } from "../errors.ts";
import { looksLikeId } from "../shared/new_id.ts";

const NOT_FOUND_MESSAGE = "No finished delivery with this id to a live endpoint of this workspace";

export async function redeliverWebhook(
  ctx: DomainContext,
  input: { workspaceId: string; deliveryId: string },
): Promise<void> {
  // (an id no delivery can have names none, and may hold what the database cannot)
  if (!looksLikeId("msg", input.deliveryId)) throw new ServiceError("not_found", NOT_FOUND_MESSAGE);
  const at = new Date(ctx.clock.now());
  const queued = await ctx.db.sql`
    UPDATE webhook_deliveries AS d
       SET status = 'pending', next_attempt_at = ${at}, delivered_at = NULL, updated_at = ${at}
      FROM webhook_endpoints AS e
     WHERE d.id = ${input.deliveryId} AND d.workspace_id = ${input.workspaceId}
       AND d.status <> 'pending' AND e.id = d.endpoint_id
       AND e.disabled_at IS NULL AND e.deleted_at IS NULL`;
  if (queued.count === 0) {
    throw new ServiceError("not_found", NOT_FOUND_MESSAGE);
  }
}
