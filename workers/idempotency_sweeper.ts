/**
 * A cron sweeper (Deno.cron, hourly) that deletes answers stored under idempotency keys once
 * their 30-day replay window has passed. Safe on every instance at once: the sweep is one
 * idempotent UPDATE.
 */
import type { DomainContext } from "../domain/context.ts";
import { expireReplayRecords } from "../domain/idempotency/expire_replay_records.ts";

export const SWEEP_SCHEDULE = "17 * * * *";

export async function sweepIdempotencyRecords(ctx: DomainContext): Promise<number> {
  const expired = await expireReplayRecords(ctx.db.sql, { now: new Date(ctx.clock.now()) });
  if (expired > 0) ctx.logger.info("idempotency answers expired", { expired });
  return expired;
}

/** Registers the sweeper where Deno.cron is available (`--unstable-cron`, Deno Deploy). */
export function scheduleIdempotencySweeper(ctx: DomainContext): boolean {
  if (typeof Deno.cron !== "function") return false;
  Deno.cron("sweep idempotency records", SWEEP_SCHEDULE, async () => {
    try {
      await sweepIdempotencyRecords(ctx);
    } catch (error) {
      ctx.logger.warn("idempotency sweep failed", { errorName: (error as Error).name });
    }
  });
  return true;
}
