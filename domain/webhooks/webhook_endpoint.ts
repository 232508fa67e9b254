/** A webhook endpoint as the API answers it (never its secret after registration). */
import type { WebhookEvent } from "./webhook_events.ts";

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: WebhookEvent[];
  /** Null while deliveries go to it; set when it answered 410 Gone. */
  disabledAt: string | null;
  disabledWhy: string | null;
  createdAt: string;
}

export interface EndpointRow {
  id: string;
  workspace_id: string;
  url: string;
  events: WebhookEvent[];
  /** Null once sealed: set only on rows an older instance wrote, until the next start seals them. */
  secret: string | null;
  secret_sealed: string | null;
  disabled_at: Date | null;
  disabled_why: string | null;
  deleted_at: Date | null;
  created_at: Date;
}

export function toWebhookEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    disabledAt: row.disabled_at?.toISOString() ?? null,
    disabledWhy: row.disabled_why,
    createdAt: row.created_at.toISOString(),
  };
}

export const ENDPOINT_NOT_FOUND_MESSAGE = "No webhook endpoint with this id in this workspace";
