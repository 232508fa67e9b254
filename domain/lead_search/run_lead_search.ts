/**
 * The run loop, a plain async function: claim one active run whose lease is free or expired
 * (`FOR UPDATE SKIP LOCKED` + a new lease token), then deliver it page by page. Each page's
 * leads, its settlement from the run's reservation and the run's counters commit in one
 * transaction that first checks the lease is still ours, so a runner whose lease was taken over
 * can neither deliver nor bill, and that the run is still `processing`: a page searched while a
 * cancel came in is dropped unbilled. Between pages the run is re-read: `cancelling` ends it as
 * `cancelled`. At the end the reservation is released (what was not settled returns to
 * `available`) in the transaction that sets the terminal status and queues the run's webhooks.
 * A directory that cannot answer ends the run `failed`; leads already delivered stay charged.
 *
 * Tolerates running twice: a second runner cannot claim a leased run, and one that lost its lease
 * stops at its next page without writing.
 */
import type { RunnerContext } from "../context.ts";
import { settleReservation } from "../billing/settle_reservation.ts";
import { releaseReservation } from "../billing/release_reservation.ts";
import type { TransactionSql } from "../stores/database.ts";
import { enqueueWebhookEvent } from "../webhooks/enqueue_webhook_event.ts";
import { noTelemetry, timed } from "../observability/telemetry.ts";
import { PAGE_SIZE, type RunRow, type RunStatus } from "./lead_search_run.ts";
import {
  createPagedDirectorySearch,
  type DirectoryLead,
  type DirectorySearch,
} from "./search_directory_page.ts";

export const DEFAULT_LEASE_MS = 30_000;

export interface RunLeadSearchOptions {
  /** How long a claim lasts without a renewal (each page renews it). */
  leaseMs?: number;
  /** Asked between pages: true hands the run back (lease cleared) for another runner. */
  shouldStop?: () => boolean;
  /** Only this run (tests); otherwise the oldest claimable one. */
  runId?: string;
  /** Stop after this many pages, keeping the lease (tests: a runner that "dies" mid-run). */
  maxPages?: number;
  /** The directory search (tests inject failures). */
  search?: DirectorySearch;
}

export type RunLeadSearchOutcome =
  | { kind: "idle" }
  | { kind: "finished"; runId: string; status: RunStatus }
  | { kind: "handed-back"; runId: string }
  | { kind: "lease-lost"; runId: string }
  | { kind: "paused"; runId: string };

const OPERATION = "lead";

export async function runLeadSearch(
  ctx: RunnerContext,
  options: RunLeadSearchOptions = {},
): Promise<RunLeadSearchOutcome> {
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const search = options.search ?? createPagedDirectorySearch();
  const sql = ctx.db.sql;
  const leaseToken = crypto.randomUUID();
  const now = () => new Date(ctx.clock.now());
  const leaseEnd = () => new Date(ctx.clock.now() + leaseMs);

  // `taken_over`: the run still had a lease, expired (its runner stopped renewing it).
  const claimed = await sql<(RunRow & { taken_over: boolean })[]>`
    WITH target AS (
      SELECT id, lease_until IS NOT NULL AS taken_over FROM lead_search_runs
       WHERE status IN ('queued', 'processing', 'cancelling')
         AND (lease_until IS NULL OR lease_until <= ${now()})
         ${options.runId ? sql`AND id = ${options.runId}` : sql``}
       ORDER BY created_at, id
       LIMIT 1
       FOR UPDATE SKIP LOCKED)
    UPDATE lead_search_runs
       SET status = CASE WHEN status = 'queued' THEN 'processing' ELSE status END,
           lease_token = ${leaseToken}, lease_until = ${leaseEnd()},
           started_at = coalesce(started_at, ${now()}), updated_at = ${now()}
      FROM target
     WHERE lead_search_runs.id = target.id
    RETURNING lead_search_runs.*, target.taken_over`;
  let run: RunRow = claimed[0];
  if (!run) return { kind: "idle" };
  const runId = run.id;
  const takenOver = claimed[0].taken_over;
  ctx.logger.info("lead search claimed", { runId, status: run.status, takenOver });
  if (takenOver) ctx.telemetry?.count({ kind: "lease_takeover", runs: 1 });

  /** The run, locked, if our lease still holds it. */
  const lockOurs = async (tx: TransactionSql) =>
    (await tx<RunRow[]>`
      SELECT * FROM lead_search_runs
       WHERE id = ${runId} AND lease_token = ${leaseToken}
         AND status IN ('processing', 'cancelling')
       FOR UPDATE`)[0];

  const finish = async (status: RunStatus, failureReason: string | null = null) => {
    const done = await sql.begin(async (tx) => {
      const current = await lockOurs(tx);
      if (!current) return null;
      const final = current.status === "cancelling" && status === "completed"
        ? "cancelled"
        : status;
      if (current.reservation_id) {
        await releaseReservation({ tx }, {
          workspaceId: current.workspace_id,
          reservationId: current.reservation_id,
          operation: OPERATION,
        });
      }
      await tx`UPDATE lead_search_runs
                  SET status = ${final}, failure_reason = ${failureReason},
                      lease_token = NULL, lease_until = NULL,
                      finished_at = ${now()}, updated_at = ${now()}
                WHERE id = ${runId}`;
      await enqueueWebhookEvent({ tx }, {
        workspaceId: current.workspace_id,
        type: "lead_search.run.completed",
        id: runId,
        status: final,
        at: now(),
      });
      return final;
    });
    if (done === null) return { kind: "lease-lost", runId } as const;
    ctx.logger.info("lead search finished", { runId, status: done });
    return { kind: "finished", runId, status: done } as const;
  };

  // The rest of this claim is one span (tracing on): what its pages cause are its children.
  return await timed(ctx.telemetry ?? noTelemetry, { kind: "lead_search_run" }, async () => {
    let pagesThisClaim = 0;
    while (true) {
      // Between pages: a cancel, a lost lease, or a stop request.
      const fresh = (await sql<RunRow[]>`SELECT * FROM lead_search_runs WHERE id = ${runId}`)[0];
      if (!fresh || fresh.lease_token !== leaseToken) return { kind: "lease-lost", runId };
      run = fresh;
      if (run.status === "cancelling") return await finish("cancelled");
      if (run.delivered_count >= run.count) return await finish("completed");
      if (options.shouldStop?.()) {
        await sql`UPDATE lead_search_runs SET lease_token = NULL, lease_until = NULL,
                                              updated_at = ${now()}
                   WHERE id = ${runId} AND lease_token = ${leaseToken}`;
        ctx.logger.info("lead search handed back", { runId });
        return { kind: "handed-back", runId };
      }
      if (options.maxPages !== undefined && pagesThisClaim >= options.maxPages) {
        return { kind: "paused", runId };
      }

      let leads: DirectoryLead[];
      try {
        leads = await search(ctx, {
          filters: run.filters,
          chainId: run.chain_id,
          after: run.cursor,
          limit: Math.min(PAGE_SIZE, run.count - run.delivered_count),
        });
      } catch (error) {
        ctx.logger.warn("lead search directory unavailable", {
          runId,
          errorName: (error as Error)?.name ?? typeof error,
        });
        return await finish("failed", "search_unavailable");
      }
      if (leads.length === 0) return await finish("completed");

      const delivered = await deliverPage(ctx, {
        runId,
        leaseToken,
        leads,
        leaseUntil: leaseEnd(),
      });
      if (delivered === "lease-lost") return { kind: "lease-lost", runId };
      // Cancelled while this page was searched: it is dropped, and the run ends at the loop's top.
      if (delivered === "delivered") pagesThisClaim++;
    }
  }, (outcome) => outcome.kind);
}

/**
 * Records one page and settles its price from the run's reservation in one transaction, under
 * the charge key `lead-search:<runId>:page:<n>`. Only a `processing` run takes a page: the status
 * is read under the row lock a cancel also takes, so a page whose search was under way when the
 * cancel answered `cancelling` is `not-delivered` (nothing written, nothing charged; spec §3).
 * `lease-lost` when the lease is no longer ours (nothing written).
 */
async function deliverPage(
  ctx: RunnerContext,
  input: { runId: string; leaseToken: string; leads: DirectoryLead[]; leaseUntil: Date },
): Promise<"delivered" | "not-delivered" | "lease-lost"> {
  const deliveredAt = new Date(ctx.clock.now());
  return await ctx.db.sql.begin(async (tx) => {
    const run = (await tx<RunRow[]>`
      SELECT * FROM lead_search_runs
       WHERE id = ${input.runId} AND lease_token = ${input.leaseToken}
         AND status IN ('processing', 'cancelling')
       FOR UPDATE`)[0];
    if (!run) return "lease-lost" as const;
    if (run.status !== "processing") return "not-delivered" as const;
    const page = run.pages + 1;
    // Only people still in the directory: an erasure (privacy/) deletes the records of a
    // suppressed person, and no import or write-back brings them back, so the directory is the
    // lead search's suppression check. The rows are held FOR SHARE until this page commits, so
    // an erasure under way either removed them before (skipped here) or waits and then redacts
    // the page's rows.
    const ids = input.leads.map((lead) => lead.personId);
    const present = new Set(
      (await tx<{ id: string }[]>`
        SELECT id FROM people WHERE id = ANY(${ids}::text[]) FOR SHARE`).map((r) => r.id),
    );
    const leads = input.leads.filter((lead) => present.has(lead.personId))
      .slice(0, run.count - run.delivered_count);
    if (leads.length === 0) return "delivered" as const;
    const rows = leads.map((lead, i) => ({
      run_id: run.id,
      position: run.delivered_count + i + 1,
      chain_id: run.chain_id,
      person_id: lead.personId,
      page,
      name: lead.name,
      title: lead.title,
      company: lead.company,
      location: lead.location,
      network_url: lead.networkUrl,
      delivered_at: deliveredAt,
    }));
    await tx`INSERT INTO lead_search_results ${tx(rows)}`;
    const amount = leads.length * run.lead_price;
    if (amount > 0 && run.reservation_id) {
      const settled = await settleReservation({ tx }, {
        workspaceId: run.workspace_id,
        reservationId: run.reservation_id,
        amount,
        chargeKey: `lead-search:${run.id}:page:${page}`,
        operation: "lead",
      });
      if (settled.outcome !== "settled") {
        // Another holder billed this page, or the reservation is closed: write nothing.
        throw new Error(`lead-search page could not be settled: ${settled.outcome}`);
      }
    }
    await tx`UPDATE lead_search_runs
                SET delivered_count = delivered_count + ${leads.length},
                    credits_charged = credits_charged + ${amount},
                    pages = ${page}, cursor = ${leads[leads.length - 1].personId},
                    lease_until = ${input.leaseUntil}, updated_at = ${deliveredAt}
              WHERE id = ${run.id}`;
    return "delivered" as const;
  });
}
