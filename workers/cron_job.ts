/**
 * The service's background jobs on `Deno.cron`. main.ts registers them while its module is
 * evaluated, before Deno.serve (Deno Deploy finds a deployment's crons there, and needs no
 * `--unstable-cron`: deno.json enables it), and attaches the service once `startService` has
 * built it. A job that fires before that, or once the service is stopping, does nothing.
 * A failed run logs one line with the error's kind, never its text, and the next run goes on.
 */
import type { LeadSearchConfig } from "../domain/config/config.ts";
import type { DomainContext } from "../domain/context.ts";
import type { Logger } from "../domain/shared/logger.ts";

/** What a job works with: the built service. */
export interface CronService {
  ctx: DomainContext;
  leadSearch: LeadSearchConfig;
  /** Aborted when the service stops: a long job hands its work back. */
  signal: AbortSignal;
}

export interface CronJob {
  name: string;
  schedule: string;
  failureMessage: string;
  run(service: CronService): Promise<unknown>;
}

export interface CronJobs {
  /** Whether `Deno.cron` took the jobs (false where it is unavailable). */
  readonly registered: boolean;
  /** The jobs run against this service from now on. */
  attach(service: Omit<CronService, "signal">): void;
  /** No job starts any more; the running ones are told to stop and awaited. */
  detach(): Promise<void>;
}

export function registerCronJobs(logger: Logger, jobs: readonly CronJob[]): CronJobs {
  let service: CronService | null = null;
  let controller: AbortController | null = null;
  const running = new Set<Promise<void>>();
  const registered = typeof Deno.cron === "function";
  if (registered) {
    for (const job of jobs) {
      Deno.cron(job.name, job.schedule, async () => {
        const current = service;
        if (!current) return;
        const run = job.run(current).then(() => {}, (error) => {
          logger.warn(job.failureMessage, { errorName: (error as Error)?.name ?? typeof error });
        });
        running.add(run);
        try {
          await run;
        } finally {
          running.delete(run);
        }
      });
    }
  }
  return {
    registered,
    attach(next) {
      controller = new AbortController();
      service = { ...next, signal: controller.signal };
    },
    async detach() {
      service = null;
      controller?.abort();
      await Promise.all([...running]);
    },
  };
}
