/**
 * `POST /api/v1/name/parse/batch` (spec §4.2): up to 100 names under a required Idempotency-Key.
 *
 * Each answered row is a billable unit. Rows are read and charged in fixed chunks of positions;
 * the answered rows of a chunk are paid by one posting whose charge key is (key, chunk), so the
 * ledger alone says which rows were answered: a retry of the same batch (same names, enforced by
 * the fingerprint) replays those chunks free and answers (and charges) the rest, also after a
 * 500 or a crash mid-batch. A fault part-way keeps the chunks charged so far. Nothing about the
 * names is stored.
 */
import type { DomainContext } from "../context.ts";
import { type Balance, readBalance, readBalanceOrNull } from "../billing/balance.ts";
import { claimCall } from "../billing/billed_call.ts";
import type { ChargeOutcome, ChargeRequest, ChargeResult } from "../billing/charge_units.ts";
import { findChargedUnits } from "../billing/find_charged_units.ts";
import { insufficientCredits } from "../billing/insufficient_credits.ts";
import type { NameAnswer, NameOutcome, Spelling } from "./name_answer.ts";
import { nameValidationProblem } from "./name_answer.ts";
import { readNames } from "./read_names.ts";

export const BATCH_SCOPE = "name.parse.batch";
export const BATCH_CHUNK = 20;

export interface ParseBatchInput {
  workspaceId: string;
  names: string[];
  spelling: Spelling;
  idempotencyKey: string;
}

export type RowErrorCode =
  | "invalid_input"
  | "validation_error"
  | "insufficient_credits"
  | "incomplete"
  | "idempotency_in_progress"
  | "idempotency_conflict";

export interface RowError {
  code: RowErrorCode;
  message: string;
}

export type BatchRow =
  | { data: NameAnswer & { charged: boolean; pointsCharged: number; replay: boolean } }
  | { error: RowError };

export interface ParsedBatch {
  results: BatchRow[];
  pointsCharged: number;
  replay: boolean;
  balance: Balance | null;
}

const ROW_INCOMPLETE: RowError = {
  code: "incomplete",
  message: "The charge for this row could not be recorded; it was not billed. Retry the batch",
};
const ROW_INSUFFICIENT: RowError = {
  code: "insufficient_credits",
  message: "Insufficient credits",
};
const ROW_IN_PROGRESS: RowError = {
  code: "idempotency_in_progress",
  message: "Another request with this Idempotency-Key took over; retry shortly",
};

/** The part of a batch that the chunk of rows starting at `start` (a multiple of BATCH_CHUNK) is. */
function chunkPart(start: number): string {
  return `rows:${start}-${start + BATCH_CHUNK - 1}`;
}

/** The charge key of the chunk of rows that starts at `start`. */
export function chunkChargeKey(key: string, start: number): string {
  return `${BATCH_SCOPE}:${key}:${chunkPart(start)}`;
}

export async function parseNamesBatch(
  ctx: DomainContext,
  input: ParseBatchInput,
): Promise<ParsedBatch> {
  const { workspaceId, names, idempotencyKey: key } = input;
  const call = await claimCall(ctx, {
    workspaceId,
    scope: BATCH_SCOPE,
    request: { names, spelling: input.spelling },
    idempotencyKey: key,
  });
  const holdsKey = call.kind === "claimed";

  // Rows are only ever charged under a held record, so a freshly created one has none yet.
  const fresh = holdsKey && !call.resumed;
  const answeredBefore = fresh
    ? new Set<number>()
    : await chargedPositions(ctx, workspaceId, key, names.length);
  let anyChargedUnderKey = answeredBefore.size > 0;
  const stopRenewing = call.keepAlive();
  let finished = false;
  try {
    // Before any row runs: can the workspace pay one answer for every row that is not a replay?
    // (Rows that may turn out unsplittable count; blank or over-long rows never run.)
    const payable = names.filter((name, i) =>
      !answeredBefore.has(i) && nameValidationProblem(name) === null
    ).length;
    const required = payable * ctx.prices.nameParse;
    if (holdsKey && required > 0) {
      const available = call.available ?? (await readBalance(ctx, workspaceId)).available;
      if (available < required) throw insufficientCredits(required, available);
    }

    const results: BatchRow[] = new Array(names.length);
    let pointsCharged = 0;
    let balance: Balance | null = null;

    // Every chunk is read first; then all are charged in one call (one round trip, one
    // transaction, in order), each chunk under its own key with its own outcome. If reading
    // fails part-way, the chunks read so far are charged before the error goes on.
    const chunks: { start: number; toCharge: { position: number; answer: NameAnswer }[] }[] = [];
    let readFailed: { error: unknown } | null = null;
    for (let start = 0; start < names.length; start += BATCH_CHUNK) {
      let outcomes: NameOutcome[];
      try {
        outcomes = await readNames(
          ctx.nameModel,
          names.slice(start, start + BATCH_CHUNK),
          input.spelling,
        );
      } catch (error) {
        readFailed = { error };
        break;
      }
      const toCharge: { position: number; answer: NameAnswer }[] = [];
      outcomes.forEach((outcome, offset) => {
        const position = start + offset;
        if (outcome.kind === "refused") {
          results[position] = { error: outcome.refusal };
        } else if (answeredBefore.has(position)) {
          results[position] = {
            data: { ...outcome.answer, charged: false, pointsCharged: 0, replay: true },
          };
        } else if (!holdsKey) {
          results[position] = { error: ROW_IN_PROGRESS };
        } else {
          toCharge.push({ position, answer: outcome.answer });
        }
      });
      if (toCharge.length > 0) chunks.push({ start, toCharge });
    }

    if (chunks.length > 0) {
      // A batch of one chunk whose other rows were all answered (or refused for their input)
      // marks the record done in the same transaction as its charge: one round trip fewer. With
      // several chunks each charge is decided on its own (an earlier one may find the balance
      // short), so the record is completed afterwards, once every row is known to be answered.
      const last = chunks[chunks.length - 1];
      const completes = !readFailed && chunks.length === 1 &&
        last.start + BATCH_CHUNK >= names.length && !hasUnansweredRow(results);
      const requests: ChargeRequest[] = chunks.map((chunk) => ({
        workspaceId,
        amount: chunk.toCharge.length * ctx.prices.nameParse,
        units: chunk.toCharge.length,
        chargeKey: call.chargeKey(chunkPart(chunk.start)),
        operation: "nameParse",
        idempotency: call.idempotency(completes && chunk === last ? { response: null } : undefined),
      }));
      let charged: ChargeResult[] | null = null;
      try {
        charged = await ctx.charge(requests);
      } catch {
        ctx.logger.warn("batch charge could not be recorded", {
          units: requests.reduce((sum, request) => sum + request.units!, 0),
        });
        for (const chunk of chunks) {
          for (const { position } of chunk.toCharge) results[position] = { error: ROW_INCOMPLETE };
        }
      }
      charged?.forEach((result, i) => {
        const chunk = chunks[i];
        balance = result.balance;
        for (const { position, answer } of chunk.toCharge) {
          results[position] = rowFor(result.outcome, answer, ctx.prices.nameParse);
        }
        if (result.outcome === "charged") {
          anyChargedUnderKey = true;
          pointsCharged += requests[i].amount;
        }
        if (
          completes && chunk === last &&
          (result.outcome === "charged" || result.outcome === "duplicate")
        ) {
          finished = true;
        }
      });
    }
    if (readFailed) throw readFailed.error;

    const answered = results.filter((row) => "data" in row) as { data: { replay: boolean } }[];
    if (holdsKey && !finished && !hasUnansweredRow(results)) {
      await call.complete();
      finished = true;
    }
    return {
      results,
      pointsCharged,
      replay: answered.length > 0 && answered.every((row) => row.data.replay),
      balance: balance ?? await readBalanceOrNull(ctx, workspaceId),
    };
  } finally {
    await stopRenewing();
    if (holdsKey && !finished) await call.release(anyChargedUnderKey);
  }
}

/**
 * True when some row so far got no answer for a reason other than its own input (a row that
 * could not be paid or charged, or that another request holds): the record stays open.
 */
function hasUnansweredRow(results: readonly (BatchRow | undefined)[]): boolean {
  return results.some((row) =>
    row !== undefined && "error" in row && row.error.code !== "invalid_input" &&
    row.error.code !== "validation_error"
  );
}

/** The row a charge outcome gives: an answer (charged now, or a replay) or a row error. */
function rowFor(outcome: ChargeOutcome, answer: NameAnswer, price: number): BatchRow {
  switch (outcome) {
    case "charged":
      return { data: { ...answer, charged: true, pointsCharged: price, replay: false } };
    case "duplicate":
      return { data: { ...answer, charged: false, pointsCharged: 0, replay: true } };
    case "insufficient":
      return { error: ROW_INSUFFICIENT };
    case "lease_lost":
      return { error: ROW_IN_PROGRESS };
  }
}

/** Positions of this batch in chunks already charged under the key: those rows replay. */
async function chargedPositions(
  ctx: DomainContext,
  workspaceId: string,
  key: string,
  count: number,
): Promise<Set<number>> {
  const starts = Array.from({ length: Math.ceil(count / BATCH_CHUNK) }, (_, i) => i * BATCH_CHUNK);
  const chargeKeys = starts.map((start) => chunkChargeKey(key, start));
  const charged = await findChargedUnits(ctx, { workspaceId, chargeKeys });
  const positions = new Set<number>();
  starts.forEach((start, i) => {
    if (!charged.has(chargeKeys[i])) return;
    for (let p = start; p < Math.min(start + BATCH_CHUNK, count); p++) positions.add(p);
  });
  return positions;
}
