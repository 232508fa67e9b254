/**
 * The lead-search runner: a loop that claims and delivers runs (`runLeadSearch`), looking for a
 * queued run every `pollMs` when idle (a new run starts within about that), and a Deno.cron
 * job, every minute, that clears expired leases (a process that died mid-run) so a runner takes
 * the run over. `stop()` lets the current page finish, hands the run back (lease cleared) and
 * resolves. Runs on a Worker thread (`startLeadSearchWorker`, the default) or on the main thread
 * (`LEAD_SEARCH_RUNNER=inline`); several instances on one Postgres share the work through leases.
 *
 * On Deno Deploy an app is stopped a while after its last request, runner and all. The minute
 * job then also delivers runs itself (`driveLeadSearchRuns`, for up to 50 s, handing the run
 * back when its time is up): a cron invocation wakes the app, so a started run completes with
 * no request keeping it awake, resuming from its last recorded page.
 *
 * `LEAD_SEARCH_PAGE_DELAY_MS` (tests only; default 0, off): a pause before each page's directory
 * search, so a crash test can kill a process while a run is half delivered
 * (tests/lead_search_crash_test.ts). Read here from the environment, in whichever thread the
 * runner runs, rather than from the config: it is no setting of the service. At or above the
 * lease (`LEAD_SEARCH_LEASE_SECONDS`) a page outlives its claim and an idle runner elsewhere may
 * take the run over before the page is recorded (the crash test does so on purpose); far above
 * it, with runners idle, runs would be stolen page after page and never get on.
 */
import type { RunnerContext } from "../domain/context.ts";
import type { DatabaseTarget } from "../domain/stores/database.ts";
import { runLeadSearch } from "../domain/lead_search/run_lead_search.ts";
import {
  createPagedDirectorySearch,
  type DirectorySearch,
} from "../domain/lead_search/search_directory_page.ts";
import { recoverExpiredLeases } from "../domain/lead_search/recover_expired_leases.ts";
import type { CronJob } from "./cron_job.ts";
import { startPollingLoop } from "./polling_loop.ts";

export const LEASE_SWEEP_SCHEDULE = "* * * * *";

/** How long one cron invocation may deliver runs (below the minute between invocations). */
export const CRON_DRIVE_BUDGET_MS = 50_000;

export interface LeadSearchRunner {
  stop(): Promise<void>;
}

/** The runner's directory search, with the test-only pause before each page. */
function runnerSearch(pageDelayMs: number): DirectorySearch {
  // One paged search per runner: it remembers a selective run's further matches between pages.
  const paged = createPagedDirectorySearch();
  return pageDelayMs > 0
    ? async (ctx, input) => {
      await new Promise((resolve) => setTimeout(resolve, pageDelayMs));
      return await paged(ctx, input);
    }
    : paged;
}

export function startLeadSearchRunner(
  ctx: RunnerContext,
  options: { pollMs: number; leaseMs: number; pageDelayMs?: number },
): LeadSearchRunner {
  const search = runnerSearch(options.pageDelayMs ?? 0);
  return startPollingLoop({
    pollMs: options.pollMs,
    logger: ctx.logger,
    failureMessage: "lead search runner error",
    step: async (stopping) =>
      (await runLeadSearch(ctx, { leaseMs: options.leaseMs, shouldStop: stopping, search }))
        .kind !== "idle",
  });
}

/**
 * Delivers claimable runs one after another until none is left, `budgetMs` has passed or
 * `signal` aborts; a run still going then is handed back (lease cleared) for the next runner.
 * Returns how many runs it worked on.
 */
export async function driveLeadSearchRuns(
  ctx: RunnerContext,
  options: { leaseMs: number; budgetMs: number; signal?: AbortSignal; pageDelayMs?: number },
): Promise<number> {
  const search = runnerSearch(options.pageDelayMs ?? 0);
  const deadline = performance.now() + options.budgetMs;
  const shouldStop = () => options.signal?.aborted === true || performance.now() >= deadline;
  let runs = 0;
  while (!shouldStop()) {
    const outcome = await runLeadSearch(ctx, { leaseMs: options.leaseMs, shouldStop, search });
    if (outcome.kind === "idle") break;
    runs++;
  }
  return runs;
}

/**
 * The minute job (registered by main.ts): clears expired leases and, on Deno Deploy
 * (`driveFromCron`), delivers runs for up to `CRON_DRIVE_BUDGET_MS`.
 */
export const LEAD_SEARCH_CRON_JOB: CronJob = {
  name: "recover lead-search runs",
  schedule: LEASE_SWEEP_SCHEDULE,
  failureMessage: "lead-search lease sweep failed",
  run: async ({ ctx, leadSearch, signal }) => {
    const recovered = await recoverExpiredLeases(ctx);
    if (recovered.length > 0) {
      ctx.logger.info("lead-search runs recovered", { runs: recovered.length });
      ctx.telemetry.count({ kind: "lease_takeover", runs: recovered.length });
    }
    if (leadSearch.driveFromCron) {
      const runs = await driveLeadSearchRuns(ctx, {
        leaseMs: leadSearch.leaseMs,
        budgetMs: CRON_DRIVE_BUDGET_MS,
        signal,
      });
      if (runs > 0) ctx.logger.info("lead-search runs driven from cron", { runs });
    }
  },
};

/** Starts the runner on a Worker thread; `stop()` waits for it to hand its run back. */
export function startLeadSearchWorker(
  options: { database: DatabaseTarget; pollMs: number; leaseMs: number; pageDelayMs: number },
): LeadSearchRunner {
  const worker = new Worker(new URL("./lead_search_worker.ts", import.meta.url).href, {
    type: "module",
  });
  const answered = (type: string) =>
    new Promise<void>((resolve) => {
      worker.addEventListener("message", (event) => {
        if ((event as MessageEvent<{ type: string }>).data?.type === type) resolve();
      });
    });
  const started = answered("started");
  worker.postMessage({ type: "start", ...options });
  return {
    stop: async () => {
      await started;
      const stopped = answered("stopped");
      worker.postMessage({ type: "stop" });
      await stopped;
      worker.terminate();
    },
  };
}
