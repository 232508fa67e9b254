import type { DomainContext } from "../context.ts";
import { findWorstCase } from "../find/find_work_email.ts";
import type { BulkOperation, BulkRowInput } from "./bulk_job.ts";

/** The most one row may cost: what its single call would be refused below. */
export function rowWorstCase(
  ctx: Pick<DomainContext, "prices">,
  operation: BulkOperation,
  input: BulkRowInput,
): number {
  if (operation === "enrich") return ctx.prices.enrich;
  if (operation === "verify") return ctx.prices.verify;
  return findWorstCase(ctx, (input as { mode: "email" | "company" | "network" }).mode);
}
