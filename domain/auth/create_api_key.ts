import type { Sql, TransactionSql } from "../stores/database.ts";
import { displayPrefix, generateApiKey, hashApiKey } from "./api_key.ts";
import { newId } from "../shared/new_id.ts";

export interface CreatedApiKey {
  keyId: string;
  /** Shown once, here; only its hash is stored. */
  apiKey: string;
  expiresAt: string | null;
}

/** Adds a key to a workspace. `apiKey` may be given (bootstrap), otherwise one is generated. */
export async function createApiKey(
  sql: Sql | TransactionSql,
  input: { workspaceId: string; expiresAt?: Date | null; apiKey?: string },
): Promise<CreatedApiKey> {
  const apiKey = input.apiKey ?? generateApiKey();
  const keyId = newId("key");
  const expiresAt = input.expiresAt ?? null;
  await sql`INSERT INTO api_keys (id, workspace_id, key_hash, display_prefix, expires_at)
            VALUES (${keyId}, ${input.workspaceId}, ${await hashApiKey(apiKey)},
                    ${displayPrefix(apiKey)}, ${expiresAt})`;
  return { keyId, apiKey, expiresAt: expiresAt?.toISOString() ?? null };
}
