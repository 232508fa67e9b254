/**
 * Registers an endpoint for some events, with a fresh signing secret (`whsec_` + 24 random bytes
 * in base64, the Standard Webhooks form), answered this once and stored only sealed
 * (`sealed_secret.ts`).
 */
import type { DomainContext } from "../context.ts";
import { ServiceError } from "../errors.ts";
import { newId } from "../shared/new_id.ts";
import { checkWebhookUrl, type ResolveAddresses } from "./check_webhook_url.ts";
import { type EndpointRow, toWebhookEndpoint, type WebhookEndpoint } from "./webhook_endpoint.ts";
import { WEBHOOK_EVENTS, type WebhookEvent } from "./webhook_events.ts";
import { DEFAULT_WEBHOOK_SETTINGS } from "./webhook_settings.ts";
import type { AuditActor } from "../audit/audit_event.ts";
import { recordAuditEventIn } from "../audit/record_audit_event.ts";

/** Live endpoints per workspace. */
export const MAX_ENDPOINTS = 20;

export async function createWebhookEndpoint(
  ctx: Pick<DomainContext, "db" | "clock" | "settings" | "webhookSecrets">,
  input: {
    workspaceId: string;
    url: string;
    events: string[];
    resolve?: ResolveAddresses;
    actor?: AuditActor;
  },
): Promise<WebhookEndpoint & { secret: string }> {
  const events = [...new Set(input.events)];
  if (events.length === 0) {
    throw new ServiceError("validation_error", "events must name at least one event");
  }
  for (const event of events) {
    if (!(WEBHOOK_EVENTS as readonly string[]).includes(event)) {
      throw new ServiceError(
        "validation_error",
        `events must be among ${WEBHOOK_EVENTS.join(", ")}`,
      );
    }
  }
  const settings = ctx.settings.webhooks ?? DEFAULT_WEBHOOK_SETTINGS;
  await checkWebhookUrl(input.url, settings, input.resolve);
  const secret = `whsec_${
    btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(24))))
  }`;
  const id = newId("whe");
  const sealed = await ctx.webhookSecrets.seal(id, secret);
  const at = new Date(ctx.clock.now());
  const row = await ctx.db.sql.begin(async (tx) => {
    const live = await tx<{ n: number }[]>`
      SELECT count(*)::int AS n FROM webhook_endpoints
       WHERE workspace_id = ${input.workspaceId} AND deleted_at IS NULL`;
    if (live[0].n >= MAX_ENDPOINTS) {
      throw new ServiceError(
        "validation_error",
        `A workspace may have at most ${MAX_ENDPOINTS} webhook endpoints`,
      );
    }
    await recordAuditEventIn({ tx }, {
      action: "webhook-endpoint.created",
      actor: input.actor,
      workspaceId: input.workspaceId,
      subjectId: id,
      details: { events: events.length },
    });
    return (await tx<EndpointRow[]>`
      INSERT INTO webhook_endpoints (id, workspace_id, url, events, secret_sealed, created_at)
      VALUES (${id}, ${input.workspaceId}, ${input.url},
              ${events as WebhookEvent[]}, ${sealed}, ${at})
      RETURNING *`)[0];
  });
  return { ...toWebhookEndpoint(row), secret };
}
