/**
 * A workspace's API keys as the app lists them: never the key (only its hash is stored), but its
 * name, display prefix, dates and status. Newest first. `status` is read against `now` (the
 * caller's clock), the same instant authentication compares expiry with.
 */

import type { DbContext } from "../context.ts";

export type ApiKeyStatus = "active" | "expired" | "revoked";

export interface ApiKeyListing {
  keyId: string;
  /** Null for keys made before keys had names (the bootstrap key, `admin key create`). */
  name: string | null;
  displayPrefix: string;
  /** ISO 8601. */
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  status: ApiKeyStatus;
}

export async function listApiKeys(
  ctx: DbContext,
  input: { workspaceId: string; now: number },
): Promise<ApiKeyListing[]> {
  const { sql } = ctx.db;
  const rows = await sql<
    {
      id: string;
      name: string | null;
      display_prefix: string;
      created_at: Date;
      last_used_at: Date | null;
      expires_at: Date | null;
      revoked_at: Date | null;
    }[]
  >`SELECT id, name, display_prefix, created_at, last_used_at, expires_at, revoked_at
      FROM api_keys WHERE workspace_id = ${input.workspaceId}
     ORDER BY created_at DESC, id DESC`;
  return rows.map((row) => ({
    keyId: row.id,
    name: row.name,
    displayPrefix: row.display_prefix,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    expiresAt: row.expires_at?.toISOString() ?? null,
    revokedAt: row.revoked_at?.toISOString() ?? null,
    status: row.revoked_at !== null
      ? "revoked"
      : row.expires_at !== null && row.expires_at.getTime() <= input.now
      ? "expired"
      : "active",
  }));
}
