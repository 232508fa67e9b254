import { ServiceError } from "../errors.ts";
import type { Sql } from "../stores/database.ts";

/** Revokes a key; revoking twice keeps the first revocation time. */
export async function revokeApiKey(
  sql: Sql,
  input: { keyId: string },
): Promise<{ keyId: string; workspaceId: string; revokedAt: string }> {
  const rows = await sql<{ workspace_id: string; revoked_at: Date }[]>`
    UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now())
     WHERE id = ${input.keyId} RETURNING workspace_id, revoked_at`;
  if (!rows[0]) throw new ServiceError("not_found", `No API key with id ${input.keyId}`);
  return {
    keyId: input.keyId,
    workspaceId: rows[0].workspace_id,
    revokedAt: rows[0].revoked_at.toISOString(),
  };
}
