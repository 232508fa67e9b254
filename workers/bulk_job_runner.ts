/**
 * The bulk-job runner: claims and answers jobs (`runBulkJob`) on the main thread, which holds the
 * lookups' ports (the verifier, the name model, the providers) that a row needs; a lead-search
 * runner's Worker has only a database. Rows wait on DNS, SMTP and HTTP, not on the CPU, so the
 * HTTP thread keeps its time. Instances share jobs through leases; a job whose holder died is
 * claimed again once its lease ran out (the claim takes expired leases).
 *
 * `pageDelayMs` (`BULK_PAGE_DELAY_MS`, tests only; default 0): a pause before each page's work, so
 * a crash test can kill a process while a job is half answered (tests/bulk_crash_test.ts).
 */
import type { DomainContext } from "../domain/context.ts";
import { runBulkJob } from "../domain/bulk/run_bulk_job.ts";
import { startPollingLoop } from "./polling_loop.ts";

export function startBulkJobRunner(
  ctx: DomainContext,
  options: { pollMs: number; leaseMs: number; pageDelayMs?: number; greylistMaxWaitMs?: number },
) {
  const pageDelayMs = options.pageDelayMs ?? 0;
  return startPollingLoop({
    pollMs: options.pollMs,
    logger: ctx.logger,
    failureMessage: "bulk job runner error",
    step: async (stopping) =>
      (await runBulkJob(ctx, {
        leaseMs: options.leaseMs,
        shouldStop: stopping,
        pageDelayMs,
        greylistMaxWaitMs: options.greylistMaxWaitMs,
      })).kind !== "idle",
  });
}
