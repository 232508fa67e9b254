/**
 * The dispatcher's verb: claims due deliveries (`FOR UPDATE SKIP LOCKED` + a lease, so instances
 * share the queue and none sends a delivery another holds), posts each as Standard Webhooks says
 * (headers `webhook-id`, `webhook-timestamp`, `webhook-signature`: `v1,` + HMAC-SHA256 of
 * `id.timestamp.body` under the endpoint's `whsec_` secret, opened from its sealed value
 * (`sealed_secret.ts`; a row an older instance wrote holds it as is until the next start seals it),
 * made by the `standardwebhooks` package), and records the outcome under the lease: a 2xx ends the delivery for good; 410 Gone
 * disables the endpoint; anything else (an error status, a timeout, no connection) schedules the
 * next attempt after `RETRY_DELAYS_MS`, or ends it `failed` when they are spent. Redirects are not
 * followed, and the URL's addresses are checked again before each attempt. A sealed secret that
 * does not open (sealed under another server secret: the start-up secret check refuses that, or
 * altered) fails the attempt like an error status, logged by endpoint id, never the secret.
 *
 * At least once: a process that dies between the receiver's 2xx and the record sends it again
 * after the lease; receivers dedupe on `webhook-id`. Nothing of the answer's body is kept.
 */
import { Webhook } from "standardwebhooks";
import type { DomainContext } from "../context.ts";
import { type ResolveAddresses, webhookUrlProblem } from "./check_webhook_url.ts";
import { SealedSecretError } from "./sealed_secret.ts";
import { DEFAULT_WEBHOOK_SETTINGS, RETRY_DELAYS_MS } from "./webhook_settings.ts";

export interface DeliverOptions {
  /** Deliveries claimed at once. */
  limit?: number;
  /** How long a claim lasts (above the attempt's timeout). */
  leaseMs?: number;
  fetch?: typeof fetch;
  resolve?: ResolveAddresses;
}

interface ClaimedDelivery {
  id: string;
  endpoint_id: string;
  payload: unknown;
  attempts: number;
  url: string;
  secret: string | null;
  secret_sealed: string | null;
  live: boolean;
}

type Attempt =
  | { kind: "delivered"; code: number }
  | { kind: "gone"; code: number }
  | { kind: "failed"; code: number | null; error: string };

/** Returns how many deliveries were attempted. */
export async function deliverDueWebhooks(
  ctx: DomainContext,
  options: DeliverOptions = {},
): Promise<number> {
  const settings = ctx.settings.webhooks ?? DEFAULT_WEBHOOK_SETTINGS;
  const leaseMs = options.leaseMs ?? settings.timeoutMs + 30_000;
  const sql = ctx.db.sql;
  const token = crypto.randomUUID();
  const now = new Date(ctx.clock.now());
  const claimed = await sql<ClaimedDelivery[]>`
    WITH due AS (
      SELECT id FROM webhook_deliveries
       WHERE status = 'pending' AND next_attempt_at <= ${now}
         AND (lease_until IS NULL OR lease_until <= ${now})
       ORDER BY next_attempt_at, id
       LIMIT ${options.limit ?? 20}
       FOR UPDATE SKIP LOCKED
    )
    UPDATE webhook_deliveries AS d
       SET lease_token = ${token}, lease_until = ${new Date(now.getTime() + leaseMs)}
      FROM due, webhook_endpoints AS e
     WHERE d.id = due.id AND e.id = d.endpoint_id
    RETURNING d.id, d.endpoint_id, d.payload, d.attempts, e.url, e.secret, e.secret_sealed,
              (e.disabled_at IS NULL AND e.deleted_at IS NULL) AS live`;
  await Promise.all(claimed.map(async (delivery) => {
    const attempt = delivery.live
      ? await attemptDelivery(ctx, delivery, options)
      : { kind: "failed", code: null, error: "endpoint disabled" } as const;
    await recordAttempt(ctx, delivery, token, attempt, !delivery.live);
  }));
  return claimed.length;
}

async function attemptDelivery(
  ctx: DomainContext,
  delivery: ClaimedDelivery,
  options: DeliverOptions,
): Promise<Attempt> {
  const settings = ctx.settings.webhooks ?? DEFAULT_WEBHOOK_SETTINGS;
  const problem = await webhookUrlProblem(delivery.url, settings, options.resolve);
  if (problem) return { kind: "failed", code: null, error: "endpoint address refused" };
  const secret = await signingSecret(ctx, delivery);
  if (secret === null) return { kind: "failed", code: null, error: "signing secret does not open" };
  const body = JSON.stringify(delivery.payload);
  const at = new Date(ctx.clock.now());
  const signature = new Webhook(secret).sign(delivery.id, at, body);
  try {
    const response = await (options.fetch ?? fetch)(delivery.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "contact-data-webhooks/1",
        "webhook-id": delivery.id,
        "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
        "webhook-signature": signature,
      },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(settings.timeoutMs),
    });
    await response.body?.cancel();
    if (response.status >= 200 && response.status < 300) {
      return { kind: "delivered", code: response.status };
    }
    if (response.status === 410) return { kind: "gone", code: 410 };
    return { kind: "failed", code: response.status, error: `HTTP ${response.status}` };
  } catch (error) {
    const name = (error as Error)?.name;
    return {
      kind: "failed",
      code: null,
      error: name === "TimeoutError" || name === "AbortError" ? "timeout" : "connection failed",
    };
  }
}

/** The endpoint's secret, or null (logged by endpoint id) when its sealed value does not open. */
async function signingSecret(
  ctx: DomainContext,
  delivery: ClaimedDelivery,
): Promise<string | null> {
  if (delivery.secret_sealed === null) return delivery.secret;
  try {
    return await ctx.webhookSecrets.open(delivery.endpoint_id, delivery.secret_sealed);
  } catch (error) {
    if (!(error instanceof SealedSecretError)) throw error;
    ctx.logger.error("webhook secret does not open", {
      endpointId: delivery.endpoint_id,
      deliveryId: delivery.id,
      error: error.message,
    });
    return null;
  }
}

async function recordAttempt(
  ctx: DomainContext,
  delivery: ClaimedDelivery,
  token: string,
  attempt: Attempt,
  final: boolean,
): Promise<void> {
  const at = new Date(ctx.clock.now());
  const attempts = delivery.attempts + 1;
  await ctx.db.sql.begin(async (tx) => {
    const ours = { id: delivery.id, token };
    if (attempt.kind === "delivered") {
      await tx`UPDATE webhook_deliveries
                  SET status = 'delivered', attempts = ${attempts}, next_attempt_at = NULL,
                      last_status_code = ${attempt.code}, last_error = NULL, delivered_at = ${at},
                      lease_token = NULL, lease_until = NULL, updated_at = ${at}
                WHERE id = ${ours.id} AND lease_token = ${ours.token}`;
      return;
    }
    if (attempt.kind === "gone") {
      const written = await tx`UPDATE webhook_deliveries
                  SET status = 'failed', attempts = ${attempts}, next_attempt_at = NULL,
                      last_status_code = 410, last_error = 'endpoint gone (410)',
                      lease_token = NULL, lease_until = NULL, updated_at = ${at}
                WHERE id = ${ours.id} AND lease_token = ${ours.token}`;
      if (written.count === 0) return;
      await tx`UPDATE webhook_endpoints
                  SET disabled_at = coalesce(disabled_at, ${at}),
                      disabled_why = coalesce(disabled_why, 'answered 410 Gone')
                WHERE id = ${delivery.endpoint_id}`;
      await tx`UPDATE webhook_deliveries
                  SET status = 'failed', next_attempt_at = NULL, last_error = 'endpoint gone (410)',
                      updated_at = ${at}
                WHERE endpoint_id = ${delivery.endpoint_id} AND status = 'pending'
                  AND lease_token IS NULL`;
      return;
    }
    const delay = final ? undefined : RETRY_DELAYS_MS[attempts - 1];
    const next = delay === undefined ? null : new Date(at.getTime() + delay);
    await tx`UPDATE webhook_deliveries
                SET status = ${next ? "pending" : "failed"}, attempts = ${attempts},
                    next_attempt_at = ${next}, last_status_code = ${attempt.code},
                    last_error = ${attempt.error}, lease_token = NULL, lease_until = NULL,
                    updated_at = ${at}
              WHERE id = ${ours.id} AND lease_token = ${ours.token}`;
  });
  ctx.logger.info("webhook attempt", {
    deliveryId: delivery.id,
    outcome: attempt.kind,
    code: attempt.code ?? undefined,
    attempts,
  });
}
