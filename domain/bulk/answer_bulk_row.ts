/**
 * One row of a bulk job, answered by the operation's own lookup (`lookupFind`, `enrichWork`,
 * `lookupVerification`): the same work, refusals and billable parts as the single call, so a row
 * costs exactly what the single call with the same outcome would (refusals and providers that
 * could not answer: 0). A verify row counts as found when its status is `valid`.
 * What differs is who pays: the row's parts are settled from the job's reservation by the runner.
 * A fault in the work (a bug) answers the row `internal-error`, free, as a single call's 500 is.
 */
import type { DomainContext } from "../context.ts";
import type { WorkOutcome } from "../billing/billed_call.ts";
import { enrichWork } from "../enrich/enrich_email.ts";
import { type FindInput, lookupFind } from "../find/find_work_email.ts";
import { lookupVerification } from "../verify_email/lookup_verification.ts";
import type { BulkOperation, BulkRowInput } from "./bulk_job.ts";

export interface RowAnswer {
  answer: Record<string, unknown>;
  reason: string | null;
  found: boolean;
  cost: number;
}

export async function answerBulkRow(
  ctx: DomainContext,
  input: { workspaceId: string; operation: BulkOperation; row: BulkRowInput },
): Promise<RowAnswer> {
  let outcome: WorkOutcome<{ reason: string | null }>;
  let found: boolean;
  try {
    if (input.operation === "find") {
      const find = await lookupFind(ctx, input.workspaceId, input.row as FindInput);
      outcome = find;
      found = find.answer.found;
    } else if (input.operation === "verify") {
      const email = (input.row as { email: string }).email;
      const verified = await lookupVerification(ctx, input.workspaceId, email);
      outcome = verified;
      found = verified.answer.status === "valid";
    } else {
      const enriched = await enrichWork(ctx, {
        workspaceId: input.workspaceId,
        email: (input.row as { email: string }).email,
      });
      outcome = enriched;
      found = enriched.answer.found;
    }
  } catch (error) {
    ctx.logger.warn("bulk row failed", { errorName: (error as Error)?.name ?? typeof error });
    return {
      answer: { found: false, reason: "internal-error" },
      reason: "internal-error",
      found: false,
      cost: 0,
    };
  }
  const cost = outcome.parts.reduce((sum, part) => sum + ctx.prices[part.price], 0);
  return {
    answer: outcome.answer as unknown as Record<string, unknown>,
    reason: outcome.answer.reason,
    found,
    cost,
  };
}
