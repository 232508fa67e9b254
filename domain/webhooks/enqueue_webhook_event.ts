/**
 * Queues an event for every live endpoint of the workspace that subscribed to it, inside the
 * caller's transaction: the job or run ends and its deliveries exist together, or neither does,
 * so a crash can lose no callback. Each delivery's id is its `webhook-id` (receivers dedupe on it).
 */
import { newId } from "../shared/new_id.ts";
import type { TxContext } from "../context.ts";
import type { WebhookEvent, WebhookPayload } from "./webhook_events.ts";

export async function enqueueWebhookEvent(
  ctx: TxContext,
  input: { workspaceId: string; type: WebhookEvent; id: string; status: string; at: Date },
): Promise<number> {
  const { tx } = ctx;
  const endpoints = await tx<{ id: string }[]>`
    SELECT id FROM webhook_endpoints
     WHERE workspace_id = ${input.workspaceId} AND disabled_at IS NULL AND deleted_at IS NULL
       AND ${input.type} = ANY (events)`;
  if (endpoints.length === 0) return 0;
  const payload: WebhookPayload = {
    type: input.type,
    timestamp: input.at.toISOString(),
    data: { id: input.id, status: input.status },
  };
  const rows = endpoints.map((endpoint) => ({
    id: newId("msg"),
    endpoint_id: endpoint.id,
    workspace_id: input.workspaceId,
    event_type: input.type,
    payload: tx.json(payload as never),
    status: "pending",
    next_attempt_at: input.at,
    created_at: input.at,
    updated_at: input.at,
  }));
  await tx`INSERT INTO webhook_deliveries ${tx(rows)}`;
  return rows.length;
}
