/**
 * The lead-search runner: a loop that claims and delivers runs (`runLeadSearch`), looking for a
 * queued run every `pollMs` when idle (a new run starts within about that), and a Deno.cron
 * sweeper that clears expired leases (a process that died mid-run) so a runner takes the run
 * over. `stop()` lets the current page finish, hands the run back (lease cleared) and resolves.
 * Runs on a Worker thread (`startLeadSearchWorker`, the default) or on the main thread
 * (`LEAD_SEARCH_RUNNER=inline`); several instances on one Postgres share the work through leases.
 *
 * `LEAD_SEARCH_PAGE_DELAY_MS` (tests only; default 0, off): a pause before each page's directory
 * search, so a crash test can kill a process while a run is half delivered
 * (tests/lead_search_crash_test.ts). Read here from the environment, in whichever thread the
 * runner runs, rather than from the config: it is no setting of the service. At or above the
 * lease (`LEAD_SEARCH_LEASE_SECONDS`) a page outlives its claim and an idle runner elsewhere may
 * take the run over before the page is recorded (the crash test does so on purpose); far above
 * it, with runners idle, runs would be stolen page after page and never get on.
 */
import type { DomainContext, RunnerContext } from "../domain/context.ts";
import type { DatabaseTarget } from "../domain/stores/database.ts";
import { runLeadSearch } from "../domain/lead_search/run_lead_search.ts";
import {
  createPagedDirectorySearch,
  type DirectorySearch,
} from "../domain/lead_search/search_directory_page.ts";
import { recoverExpiredLeases } from "../domain/lead_search/recover_expired_leases.ts";
import { scheduleCronJob } from "./cron_job.ts";

export const LEASE_SWEEP_SCHEDULE = "* * * * *";

export interface LeadSearchRunner {
  stop(): Promise<void>;
}

/** `LEAD_SEARCH_PAGE_DELAY_MS` as a number of milliseconds (0 when unset). */
export function pageDelayFromEnv(): number {
  const raw = Deno.env.get("LEAD_SEARCH_PAGE_DELAY_MS")?.trim();
  if (!raw) return 0;
  if (!/^\d+$/.test(raw)) {
    throw new Error(`LEAD_SEARCH_PAGE_DELAY_MS must be an integer >= 0, got "${raw}"`);
  }
  return Number(raw);
}

export function startLeadSearchRunner(
  ctx: RunnerContext,
  options: { pollMs: number; leaseMs: number; pageDelayMs?: number },
): LeadSearchRunner {
  const pageDelayMs = options.pageDelayMs ?? pageDelayFromEnv();
  // One paged search for the runner: it remembers a selective run's further matches between pages.
  const paged = createPagedDirectorySearch();
  const search: DirectorySearch = pageDelayMs > 0
    ? async (sql, input) => {
      await new Promise((resolve) => setTimeout(resolve, pageDelayMs));
      return await paged(sql, input);
    }
    : paged;
  let stopping = false;
  let wake: (() => void) | null = null;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });

  const loop = (async () => {
    while (!stopping) {
      try {
        const outcome = await runLeadSearch(ctx, {
          leaseMs: options.leaseMs,
          shouldStop: () => stopping,
          search,
        });
        if (outcome.kind !== "idle") continue;
      } catch (error) {
        ctx.logger.warn("lead search runner error", {
          errorName: (error as Error)?.name ?? typeof error,
          errorCode: String((error as { code?: unknown })?.code ?? ""),
        });
      }
      if (!stopping) await sleep(options.pollMs);
    }
  })();

  return {
    stop: async () => {
      stopping = true;
      wake?.();
      await loop;
    },
  };
}

/** Registers the expired-lease sweeper where Deno.cron is available. */
export function scheduleLeaseSweeper(ctx: DomainContext): boolean {
  return scheduleCronJob(ctx.logger, {
    name: "recover lead-search runs",
    schedule: LEASE_SWEEP_SCHEDULE,
    failureMessage: "lead-search lease sweep failed",
    run: async () => {
      const recovered = await recoverExpiredLeases(ctx);
      if (recovered.length > 0) {
        ctx.logger.info("lead-search runs recovered", { runs: recovered.length });
      }
    },
  });
}

/** Starts the runner on a Worker thread; `stop()` waits for it to hand its run back. */
export function startLeadSearchWorker(
  options: { database: DatabaseTarget; pollMs: number; leaseMs: number },
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
