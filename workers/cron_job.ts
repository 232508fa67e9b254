/**
 * Registers a background job with `Deno.cron` (`--unstable-cron`, Deno Deploy) where it exists.
 * A failed run logs one line with the error's kind, never its text, and the next run goes on.
 */
import type { Logger } from "../domain/shared/logger.ts";

export function scheduleCronJob(
  logger: Logger,
  job: { name: string; schedule: string; failureMessage: string; run: () => Promise<unknown> },
): boolean {
  if (typeof Deno.cron !== "function") return false;
  Deno.cron(job.name, job.schedule, async () => {
    try {
      await job.run();
    } catch (error) {
      logger.warn(job.failureMessage, { errorName: (error as Error).name });
    }
  });
  return true;
}
