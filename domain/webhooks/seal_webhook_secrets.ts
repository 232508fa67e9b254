/**
 * Seals the signing secrets that rows still hold as written (endpoints an older instance
 * registered), run at start-up. Each row is sealed on its own and only while it still holds its
 * secret, so instances starting at once, or a second run, seal each row once.
 */
import type { DomainContext } from "../context.ts";

/** Returns how many rows this call sealed. */
export async function sealWebhookSecrets(
  ctx: Pick<DomainContext, "db" | "webhookSecrets">,
): Promise<number> {
  const rows = await ctx.db.sql<{ id: string; secret: string }[]>`
    SELECT id, secret FROM webhook_endpoints WHERE secret IS NOT NULL ORDER BY id`;
  let sealed = 0;
  for (const row of rows) {
    const value = await ctx.webhookSecrets.seal(row.id, row.secret);
    const written = await ctx.db.sql`
      UPDATE webhook_endpoints SET secret_sealed = ${value}, secret = NULL
       WHERE id = ${row.id} AND secret IS NOT NULL`;
    sealed += written.count;
  }
  return sealed;
}
