import { ServiceError } from "../errors.ts";

import { looksLikeId } from "../shared/new_id.ts";
import type { DbContext } from "../context.ts";
import type { AuditActor } from "../audit/audit_event.ts";
import { recordAuditEvent } from "../audit/record_audit_event.ts";

/**
 * Revokes a key; revoking twice keeps the first revocation time. With `workspaceId` (the web
 * app: a member acts for their own workspace) a key of another workspace is `not_found` and
 * left alone, exactly like a key that does not exist, so ids of other workspaces cannot be
 * probed. Without it (the operator's CLI) any key is found by its id.
 */
export async function revokeApiKey(
  ctx: DbContext,
  input: { keyId: string; workspaceId?: string; actor?: AuditActor },
): Promise<{ keyId: string; workspaceId: string; revokedAt: string }> {
  const { sql } = ctx.db;
  const notFound = () => new ServiceError("not_found", `No API key with id ${input.keyId}`);
  // an id no key can have (made up, or holding what the database cannot store) names none
  if (!looksLikeId("key", input.keyId)) throw notFound();
  const rows = input.workspaceId === undefined
    ? await sql<{ workspace_id: string; revoked_at: Date }[]>`
        UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now())
         WHERE id = ${input.keyId} RETURNING workspace_id, revoked_at`
    : await sql<{ workspace_id: string; revoked_at: Date }[]>`
        UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now())
         WHERE id = ${input.keyId} AND workspace_id = ${input.workspaceId}
        RETURNING workspace_id, revoked_at`;
  if (!rows[0]) throw notFound();
  await recordAuditEvent(ctx, {
    action: "api-key.revoked",
    actor: input.actor,
    workspaceId: rows[0].workspace_id,
    subjectId: input.keyId,
  });
  return {
    keyId: input.keyId,
    workspaceId: rows[0].workspace_id,
    revokedAt: rows[0].revoked_at.toISOString(),
  };
}
