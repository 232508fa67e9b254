/**
 * Sends due webhook deliveries from the durable queue (`deliverDueWebhooks`): a loop on the main
 * thread looks every second (the first retry is due 5 s after a failure, finer than the minute
 * cron), and the minute cron job sends too, so an instance woken only by the cron (Deno Deploy)
 * still delivers. Instances share the queue through leases.
 */
import { deliverDueWebhooks } from "../domain/webhooks/deliver_webhooks.ts";
import type { DomainContext } from "../domain/context.ts";
import type { CronJob } from "./cron_job.ts";
import { startPollingLoop } from "./polling_loop.ts";

export const WEBHOOK_POLL_MS = 1_000;

export function startWebhookDispatcher(ctx: DomainContext, options = { pollMs: WEBHOOK_POLL_MS }) {
  return startPollingLoop({
    pollMs: options.pollMs,
    logger: ctx.logger,
    failureMessage: "webhook dispatcher error",
    step: async () => (await deliverDueWebhooks(ctx)) > 0,
  });
}

export const WEBHOOK_CRON_JOB: CronJob = {
  name: "send webhooks",
  schedule: "* * * * *",
  failureMessage: "webhook sweep failed",
  run: async ({ ctx, signal }) => {
    while (!signal.aborted && (await deliverDueWebhooks(ctx)) > 0) {
      // Until the due deliveries are sent.
    }
  },
};
