import { ServiceError } from "../errors.ts";

export const INSUFFICIENT_CREDITS_MESSAGE = "Insufficient credits";

/** 402 `insufficient_credits` with `meta = { required, available, shortfall }` (spec §7). */
export function insufficientCredits(required: number, available: number): ServiceError {
  return new ServiceError("insufficient_credits", INSUFFICIENT_CREDITS_MESSAGE, {
    meta: { required, available, shortfall: Math.max(0, required - available) },
  });
}
