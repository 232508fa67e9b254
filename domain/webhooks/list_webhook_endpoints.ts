import type { DomainContext } from "../context.ts";
import { type EndpointRow, toWebhookEndpoint, type WebhookEndpoint } from "./webhook_endpoint.ts";

/** The workspace's endpoints that were not deleted, newest first (no secrets). */
export async function listWebhookEndpoints(
  ctx: DomainContext,
  input: { workspaceId: string },
): Promise<WebhookEndpoint[]> {
  const rows = await ctx.db.sql<EndpointRow[]>`
    SELECT * FROM webhook_endpoints
     WHERE workspace_id = ${input.workspaceId} AND deleted_at IS NULL
     ORDER BY created_at DESC, id DESC`;
  return rows.map(toWebhookEndpoint);
}
