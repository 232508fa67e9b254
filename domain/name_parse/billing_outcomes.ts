import type { DomainContext } from "../context.ts";
import { ServiceError } from "../errors.ts";
import type { ChargeRequest, ChargeResult } from "../billing/charge_units.ts";

export const INSUFFICIENT_CREDITS_MESSAGE = "Insufficient credits";
export const INCOMPLETE_MESSAGE =
  "The charge could not be recorded, so the answer was not delivered and nothing was billed; retry";

/** 402 with `meta = { required, available, shortfall }`. */
export function insufficientCredits(required: number, available: number): ServiceError {
  return new ServiceError("insufficient_credits", INSUFFICIENT_CREDITS_MESSAGE, {
    meta: { required, available, shortfall: Math.max(0, required - available) },
  });
}

/**
 * Charges, or refuses the answer with 503 `incomplete` when the charge cannot be recorded: an
 * answer is delivered only after its charge is durable. (Under an Idempotency-Key a retry finds
 * out from the ledger whether a charge committed before the failure, and then replays free.)
 */
export async function chargeOrIncomplete(
  ctx: DomainContext,
  requests: ChargeRequest[],
): Promise<ChargeResult[]> {
  try {
    return await ctx.charge(requests);
  } catch {
    ctx.logger.warn("charge could not be recorded", { units: requests.length });
    throw new ServiceError("incomplete", INCOMPLETE_MESSAGE);
  }
}
