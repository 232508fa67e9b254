/**
 * A daily `Deno.cron` job that vacuums and analyzes the embedded PGlite database (see
 * `vacuum_database.ts` for why it needs one). PGlite answers one statement at a time, so requests
 * wait while it runs; the schedule puts it at a quiet hour (03:23 UTC). On a server Postgres the
 * job does nothing: its autovacuum does this.
 */
import type { DomainContext } from "../domain/context.ts";
import { vacuumDatabase } from "../domain/stores/vacuum_database.ts";
import type { CronJob } from "./cron_job.ts";

export const MAINTENANCE_SCHEDULE = "23 3 * * *";

export async function maintainEmbeddedDatabase(ctx: DomainContext): Promise<void> {
  const started = performance.now();
  await vacuumDatabase(ctx.db.sql);
  ctx.logger.info("embedded database vacuumed and analyzed", {
    durationMs: Math.round(performance.now() - started),
  });
}

/** The daily job (registered by main.ts); it does nothing on a server Postgres. */
export const EMBEDDED_DATABASE_MAINTENANCE_JOB: CronJob = {
  name: "maintain the embedded database",
  schedule: MAINTENANCE_SCHEDULE,
  failureMessage: "embedded database maintenance failed",
  run: async ({ ctx }) => {
    if (ctx.db.kind === "pglite") await maintainEmbeddedDatabase(ctx);
  },
};
