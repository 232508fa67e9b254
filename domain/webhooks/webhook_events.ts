/** The events a webhook endpoint may subscribe to, and the thin payload every delivery carries. */
export const WEBHOOK_EVENTS = ["lead_search.run.completed", "bulk.job.completed"] as const;
export type WebhookEvent = typeof WEBHOOK_EVENTS[number];

/**
 * Standard Webhooks' thin payload: what ended and how; the receiver reads the rest from the API
 * with its key (nothing personal travels in a webhook).
 */
export interface WebhookPayload {
  type: WebhookEvent;
  timestamp: string;
  data: { id: string; status: string };
}
