import type { TransactionSql } from "../stores/database.ts";

/** A value as a `jsonb` parameter of a statement in `tx` (postgres.js's `json`, typed loosely). */
export function asJson(tx: TransactionSql, value: unknown) {
  return tx.json(value as never);
}
