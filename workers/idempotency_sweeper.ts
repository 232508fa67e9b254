/**
 * A cron sweeper (Deno.cron, hourly) that deletes answers stored under idempotency keys once
 * their 30-day replay window has passed. Safe on every instance at once: the sweep is one
 * idempotent UPDATE.
 */
import type { DomainContext } from "../domain/context.ts";
import { expireReplayRecords } from "../domain/idempotency/expire_replay_records.ts";
import { scheduleCronJob } from "./cron_job.ts";

export const SWEEP_SCHEDULE = "17 * * * *";

export async function sweepIdempotencyRecords(ctx: DomainContext): Promise<number> {
  const expired = await expireReplayRecords(ctx.db.sql, { now: new Date(ctx.clock.now()) });
  if (expired > 0) ctx.logger.info("idempotency answers expired", { expired });
  return expired;
}

/** Registers the sweeper where Deno.cron is available. */
export function scheduleIdempotencySweeper(ctx: DomainContext): boolean {
  return scheduleCronJob(ctx.logger, {
    name: "sweep idempotency records",
    schedule: SWEEP_SCHEDULE,
    failureMessage: "idempotency sweep failed",
    run: () => sweepIdempotencyRecords(ctx),
  });
}
