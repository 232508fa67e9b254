/**
 * A cron sweeper (Deno.cron, hourly) that deletes answers stored under idempotency keys once
 * their 30-day replay window has passed. Safe on every instance at once: the sweep is one
 * idempotent UPDATE.
 */
import type { DomainContext } from "../domain/context.ts";
import { expireReplayRecords } from "../domain/idempotency/expire_replay_records.ts";
import type { CronJob } from "./cron_job.ts";

export const SWEEP_SCHEDULE = "17 * * * *";

export async function sweepIdempotencyRecords(ctx: DomainContext): Promise<number> {
  const expired = await expireReplayRecords(ctx, { now: new Date(ctx.clock.now()) });
  if (expired > 0) ctx.logger.info("idempotency answers expired", { expired });
  return expired;
}

/** The hourly job (registered by main.ts). */
export const IDEMPOTENCY_SWEEP_JOB: CronJob = {
  name: "sweep idempotency records",
  schedule: SWEEP_SCHEDULE,
  failureMessage: "idempotency sweep failed",
  run: ({ ctx }) => sweepIdempotencyRecords(ctx),
};
