/**
 * `VACUUM (ANALYZE)` of the whole database. Embedded PGlite runs Postgres as one standalone
 * backend with no autovacuum, so without this its tables never get planner statistics, dead rows
 * are only pruned page by page, and old transaction ids are never frozen: after about two billion
 * transactions Postgres would refuse every write to avoid wraparound. A database-wide VACUUM
 * freezes the catalogs too. A server Postgres has autovacuum for this and is left to it.
 */
import type { Sql } from "./database.ts";

export async function vacuumDatabase(sql: Sql): Promise<void> {
  // VACUUM cannot run inside a transaction block; a plain statement runs outside one.
  await sql`VACUUM (ANALYZE)`;
}
