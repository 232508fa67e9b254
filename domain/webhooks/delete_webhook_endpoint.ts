/**
 * Deletes an endpoint: nothing more is sent to it, and its pending deliveries end `failed`. The
 * row stays (soft delete) so the delivery log keeps its history.
 */
import type { DomainContext } from "../context.ts";
import { ServiceError } from "../errors.ts";
import { looksLikeId } from "../shared/new_id.ts";
import { ENDPOINT_NOT_FOUND_MESSAGE } from "./webhook_endpoint.ts";
import type { AuditActor } from "../audit/audit_event.ts";
import { recordAuditEventIn } from "../audit/record_audit_event.ts";

export async function deleteWebhookEndpoint(
  ctx: DomainContext,
  input: { workspaceId: string; endpointId: string; actor?: AuditActor },
): Promise<void> {
  if (!looksLikeId("whe", input.endpointId)) {
    throw new ServiceError("not_found", ENDPOINT_NOT_FOUND_MESSAGE);
  }
  const at = new Date(ctx.clock.now());
  await ctx.db.sql.begin(async (tx) => {
    const gone = await tx`
      UPDATE webhook_endpoints SET deleted_at = ${at}, disabled_at = coalesce(disabled_at, ${at}),
                                   disabled_why = coalesce(disabled_why, 'deleted')
       WHERE id = ${input.endpointId} AND workspace_id = ${input.workspaceId}
         AND deleted_at IS NULL`;
    if (gone.count === 0) throw new ServiceError("not_found", ENDPOINT_NOT_FOUND_MESSAGE);
    await recordAuditEventIn({ tx }, {
      action: "webhook-endpoint.deleted",
      actor: input.actor,
      workspaceId: input.workspaceId,
      subjectId: input.endpointId,
    });
    await tx`UPDATE webhook_deliveries
                SET status = 'failed', next_attempt_at = NULL, last_error = 'endpoint deleted',
                    lease_token = NULL, lease_until = NULL, updated_at = ${at}
              WHERE endpoint_id = ${input.endpointId} AND status = 'pending'`;
  });
}
