import type { DbContext } from "../context.ts";

/**
 * Ends the replay window of idempotency records older than 30 days: a stored answer is
 * deleted, the record stays as a tombstone so the key can never be reused. Returns how many
 * answers were deleted.
 */
export async function expireReplayRecords(
  ctx: DbContext,
  input: { now: Date },
): Promise<number> {
  const rows = await ctx.db.sql`
    UPDATE idempotency_records SET response = NULL
     WHERE expires_at <= ${input.now} AND response IS NOT NULL
    RETURNING 1`;
  return rows.length;
}
