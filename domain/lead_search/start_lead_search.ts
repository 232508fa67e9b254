/**
 * Starts a lead-search run (spec §4.8): validates filters and count, claims the Idempotency-Key
 * (a retried start with the same key and body answers the same run, uncharged), and in one
 * transaction reserves the worst case (`count` × lead price) and inserts the run `queued`. The
 * database refuses a second active run of the workspace (409 `run_already_active`) and a second
 * continuation of one run (409 `run_already_continued`); the reservation rolls back with the
 * insert. A workspace that cannot cover the worst case is answered with `reason`
 * `insufficient-credits` and no run.
 */
import type { DomainContext } from "../context.ts";
import { claimCall } from "../billing/billed_call.ts";
import { type Balance, readBalanceOrNull } from "../billing/balance.ts";
import { reservePointsIn } from "../billing/reserve_points.ts";
import { ServiceError } from "../errors.ts";
import { looksLikeId, newId } from "../shared/new_id.ts";
import {
  isTerminal,
  type LeadFilters,
  type LeadSearchRun,
  normalizeFilters,
  type RunRow,
  sameFilters,
  toLeadSearchRun,
  validateCount,
} from "./lead_search_run.ts";

export const SCOPE = "lead-search";

export interface StartLeadSearchInput {
  workspaceId: string;
  idempotencyKey?: string;
  filters?: unknown;
  count: unknown;
  continueFromRunId?: string | null;
}

export interface StartLeadSearchAnswer {
  /** The run (`queued` when new); null when refused (`reason`). */
  run: LeadSearchRun | null;
  /** `insufficient-credits` when the worst case could not be reserved; null otherwise. */
  reason: "insufficient-credits" | null;
  /** Starting reserves, it never charges: leads are charged as they are delivered. */
  charged: false;
  pointsCharged: 0;
  /** The points held for this run's worst case (0 on a replay or a refusal). */
  pointsReserved: number;
  replay: boolean;
  balance: Balance | null;
}

export const ACTIVE_RUN_MESSAGE =
  "A lead-search run is already active in this workspace; cancel it or wait for it to finish";
export const ALREADY_CONTINUED_MESSAGE = "This run was already continued by another run";

export async function startLeadSearch(
  ctx: DomainContext,
  input: StartLeadSearchInput,
): Promise<StartLeadSearchAnswer> {
  const count = validateCount(input.count);
  const given = input.filters === undefined ? undefined : normalizeFilters(input.filters);
  const continueFrom = input.continueFromRunId ?? null;
  if (continueFrom !== null && typeof continueFrom !== "string") {
    throw new ServiceError("validation_error", "continueFromRunId must be a string");
  }
  const { workspaceId } = input;
  const sql = ctx.db.sql;

  const call = await claimCall(ctx, {
    workspaceId,
    scope: SCOPE,
    request: { filters: given ?? null, count, continueFromRunId: continueFrom },
    idempotencyKey: input.idempotencyKey,
  });
  const replayOf = async (runId: string): Promise<StartLeadSearchAnswer> => {
    const row = (await sql<RunRow[]>`
      SELECT * FROM lead_search_runs WHERE id = ${runId} AND workspace_id = ${workspaceId}`)[0];
    if (!row) throw new ServiceError("not_found", "The run of this Idempotency-Key is gone");
    return {
      run: toLeadSearchRun(row),
      reason: null,
      charged: false,
      pointsCharged: 0,
      pointsReserved: 0,
      replay: true,
      balance: await readBalanceOrNull(ctx, workspaceId),
    };
  };
  if (call.kind === "done") return await replayOf((call.stored as { runId: string }).runId);

  const stopRenewing = call.keepAlive();
  let finished = false;
  try {
    if (call.kind === "claimed" && call.resumed && input.idempotencyKey) {
      // An earlier attempt may have made the run and died before marking the key done.
      const made = (await sql<{ id: string }[]>`
        SELECT id FROM lead_search_runs
         WHERE workspace_id = ${workspaceId} AND idempotency_key = ${input.idempotencyKey}`)[0];
      if (made) {
        await call.complete({ runId: made.id });
        finished = true;
        return await replayOf(made.id);
      }
    }

    let filters: LeadFilters = given ?? {};
    let chainId: string | null = null;
    if (continueFrom !== null) {
      // (an id no run can have names none, and may hold what the database cannot)
      const source = looksLikeId("run", continueFrom)
        ? (await sql<RunRow[]>`
        SELECT * FROM lead_search_runs
         WHERE id = ${continueFrom} AND workspace_id = ${workspaceId}`)[0]
        : undefined;
      if (!source) {
        throw new ServiceError(
          "invalid_continuation",
          "continueFromRunId names no run of this workspace",
        );
      }
      if (!isTerminal(source.status)) {
        throw new ServiceError(
          "invalid_continuation",
          "Only a finished run (completed, cancelled or failed) can be continued",
        );
      }
      if (given !== undefined && !sameFilters(given, source.filters)) {
        throw new ServiceError(
          "invalid_continuation",
          "filters must be omitted or equal to the continued run's filters",
        );
      }
      filters = source.filters;
      chainId = source.chain_id;
    }

    const price = ctx.prices.lead;
    const worstCase = count * price;
    const runId = newId("run");
    const at = new Date(ctx.clock.now());
    const made = await sql.begin(async (tx) => {
      let reservationId: string | null = null;
      let balance: Balance | null = null;
      if (worstCase > 0) {
        const reserved = await reservePointsIn({ tx }, {
          workspaceId,
          amount: worstCase,
          operation: "lead",
        });
        if (!reserved) return null;
        reservationId = reserved.reservationId;
        balance = reserved.balance;
      }
      const rows = await tx<RunRow[]>`
        INSERT INTO lead_search_runs
          (id, workspace_id, status, filters, count, lead_price, reservation_id, chain_id,
           continue_from, idempotency_key, created_at, updated_at)
        VALUES (${runId}, ${workspaceId}, 'queued', ${tx.json(filters as never)}, ${count},
                ${price}, ${reservationId}, ${chainId ?? runId}, ${continueFrom},
                ${input.idempotencyKey ?? null}, ${at}, ${at})
        RETURNING *`;
      return { row: rows[0], balance };
    }).catch((error) => {
      throw uniqueViolation(error) ?? error;
    });

    if (made === null) {
      return {
        run: null,
        reason: "insufficient-credits",
        charged: false,
        pointsCharged: 0,
        pointsReserved: 0,
        replay: false,
        balance: await readBalanceOrNull(ctx, workspaceId),
      };
    }
    // A crash before this line leaves the key running; the retry finds the run by its key.
    await call.complete({ runId });
    finished = true;
    ctx.logger.info("lead search queued", { runId, count, reserved: worstCase });
    return {
      run: toLeadSearchRun(made.row),
      reason: null,
      charged: false,
      pointsCharged: 0,
      pointsReserved: worstCase,
      replay: false,
      balance: made.balance ?? await readBalanceOrNull(ctx, workspaceId),
    };
  } finally {
    await stopRenewing();
    // Nothing is ever charged under a start's key: a refused start forgets it.
    if (!finished) await call.release(false);
  }
}

/** The database's refusals of a second active run or a second continuation, as our codes. */
function uniqueViolation(error: unknown): ServiceError | null {
  const e = error as { code?: string; constraint_name?: string };
  if (e?.code !== "23505") return null;
  if (e.constraint_name === "lead_search_one_active_run_per_workspace") {
    return new ServiceError("run_already_active", ACTIVE_RUN_MESSAGE);
  }
  if (e.constraint_name === "lead_search_runs_continue_from_key") {
    return new ServiceError("run_already_continued", ALREADY_CONTINUED_MESSAGE);
  }
  return null;
}
