/**
 * Resolves `Authorization: Bearer <key>` to the workspace behind the key, or refuses with 401
 * `unauthenticated` and the spec's exact messages, before any billable work. Verified keys are
 * cached in memory for a few seconds (`AUTH_CACHE_SECONDS`), so a revocation reaches a running
 * instance within that time.
 */
import { ServiceError } from "../errors.ts";
import type { Sql } from "../stores/database.ts";
import type { Clock } from "../shared/clock.ts";
import { API_KEY_PATTERN, hashApiKey } from "./api_key.ts";

export const MISSING_KEY_MESSAGE = "Missing API key. Pass it as: Authorization: Bearer <key>";
export const INVALID_KEY_MESSAGE = "Invalid API key";
export const EXPIRED_KEY_MESSAGE = "This API key has expired";

export interface AuthContext {
  workspaceId: string;
  keyId: string;
}

interface KeyRecord {
  keyId: string;
  workspaceId: string;
  expiresAtMs: number | null;
  revoked: boolean;
}

export type Authenticate = (authorization: string | undefined | null) => Promise<AuthContext>;

export function createAuthenticator(
  deps: { sql: Sql; clock: Clock; cacheSeconds: number },
): Authenticate {
  const cache = new Map<string, { record: KeyRecord | null; fetchedAt: number }>();
  const cacheMs = deps.cacheSeconds * 1000;

  async function lookup(key: string): Promise<KeyRecord | null> {
    const now = deps.clock.now();
    const hit = cache.get(key);
    if (hit && now - hit.fetchedAt < cacheMs) return hit.record;
    const hash = await hashApiKey(key);
    const rows = await deps.sql<
      { id: string; workspace_id: string; expires_at: Date | null; revoked_at: Date | null }[]
    >`SELECT id, workspace_id, expires_at, revoked_at FROM api_keys WHERE key_hash = ${hash}`;
    const row = rows[0];
    const record = row
      ? {
        keyId: row.id,
        workspaceId: row.workspace_id,
        expiresAtMs: row.expires_at ? row.expires_at.getTime() : null,
        revoked: row.revoked_at !== null,
      }
      : null;
    if (cacheMs > 0) {
      if (cache.size > 10_000) cache.clear();
      cache.set(key, { record, fetchedAt: now });
    }
    return record;
  }

  return async (authorization) => {
    const header = authorization?.trim();
    if (!header) throw new ServiceError("unauthenticated", MISSING_KEY_MESSAGE);
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match || !API_KEY_PATTERN.test(match[1])) {
      throw new ServiceError("unauthenticated", INVALID_KEY_MESSAGE);
    }
    const record = await lookup(match[1]);
    if (!record || record.revoked) throw new ServiceError("unauthenticated", INVALID_KEY_MESSAGE);
    if (record.expiresAtMs !== null && record.expiresAtMs <= deps.clock.now()) {
      throw new ServiceError("unauthenticated", EXPIRED_KEY_MESSAGE);
    }
    return { workspaceId: record.workspaceId, keyId: record.keyId };
  };
}
