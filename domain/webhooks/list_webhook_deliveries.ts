/** The delivery log: the workspace's newest deliveries with their status and attempts. */
import type { DomainContext } from "../context.ts";

export interface WebhookDelivery {
  id: string;
  endpointId: string;
  url: string;
  eventType: string;
  payload: unknown;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

export async function listWebhookDeliveries(
  ctx: DomainContext,
  input: { workspaceId: string; limit: number },
): Promise<WebhookDelivery[]> {
  const rows = await ctx.db.sql<
    {
      id: string;
      endpoint_id: string;
      url: string;
      event_type: string;
      payload: unknown;
      status: WebhookDelivery["status"];
      attempts: number;
      next_attempt_at: Date | null;
      last_status_code: number | null;
      last_error: string | null;
      created_at: Date;
      delivered_at: Date | null;
    }[]
  >`
    SELECT d.*, e.url FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
     WHERE d.workspace_id = ${input.workspaceId}
     ORDER BY d.created_at DESC, d.id DESC LIMIT ${input.limit}`;
  return rows.map((row) => ({
    id: row.id,
    endpointId: row.endpoint_id,
    url: row.url,
    eventType: row.event_type,
    payload: row.payload,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at?.toISOString() ?? null,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    createdAt: row.created_at.toISOString(),
    deliveredAt: row.delivered_at?.toISOString() ?? null,
  }));
}
