/**
 * Resolves `Authorization: Bearer <key>` to the workspace behind the key, or refuses with 401
 * `unauthenticated` and the spec's exact messages, before any billable work. The scheme is read
 * in any case (RFC 9110 §11.1), the key's hex digits too (`api_key.ts`). Verified keys are
 * cached in memory for a few seconds (`AUTH_CACHE_SECONDS`), so a revocation reaches a running
 * instance within that time.
 *
 * A used key's `last_used_at` (shown in the app) is written at most once a minute per key: this
 * process remembers when it last wrote it, and the statement itself skips a row written within
 * the minute by another instance. The write is fire-and-forget: a request never waits on it,
 * and a failure is logged, never the request's failure.
 */
import { ServiceError } from "../errors.ts";
import type { Sql } from "../stores/database.ts";
import type { Clock } from "../shared/clock.ts";
import type { Logger } from "../shared/logger.ts";
import { hashApiKey, normalizeApiKey } from "./api_key.ts";

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

/** How often one key's `last_used_at` is written at most. */
export const LAST_USED_WRITE_MS = 60_000;

export function createAuthenticator(
  deps: { sql: Sql; clock: Clock; cacheSeconds: number; logger?: Logger },
): Authenticate {
  const cache = new Map<string, { record: KeyRecord | null; fetchedAt: number }>();
  const cacheMs = deps.cacheSeconds * 1000;
  /** Key id → when this process last wrote its `last_used_at` (clock ms). */
  const lastWrites = new Map<string, number>();

  function noteUse(keyId: string): void {
    const now = deps.clock.now();
    const last = lastWrites.get(keyId);
    if (last !== undefined && now - last < LAST_USED_WRITE_MS) return;
    if (lastWrites.size > 10_000) lastWrites.clear();
    lastWrites.set(keyId, now);
    // `.then` starts the query (postgres.js queries are lazy) without awaiting it.
    deps.sql`UPDATE api_keys SET last_used_at = now()
              WHERE id = ${keyId}
                AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`
      .then(undefined, (error: unknown) => {
        deps.logger?.warn("api key last_used_at not written", {
          keyId,
          errorName: (error as Error)?.name ?? typeof error,
        });
      });
  }

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
    // No key passed as `Bearer <key>`: no header, an empty one, `Bearer` with nothing (or only
    // spaces) after it, or another scheme (`Basic …`, a bare key). A token that is there but is
    // no key of ours is invalid.
    const match = /^Bearer(?:[ \t]+(.*))?$/i.exec(authorization?.trim() ?? "");
    const token = match?.[1]?.trim();
    if (!token) throw new ServiceError("unauthenticated", MISSING_KEY_MESSAGE);
    const key = normalizeApiKey(token);
    if (!key) throw new ServiceError("unauthenticated", INVALID_KEY_MESSAGE);
    const record = await lookup(key);
    if (!record || record.revoked) throw new ServiceError("unauthenticated", INVALID_KEY_MESSAGE);
    if (record.expiresAtMs !== null && record.expiresAtMs <= deps.clock.now()) {
      throw new ServiceError("unauthenticated", EXPIRED_KEY_MESSAGE);
    }
    noteUse(record.keyId);
    return { workspaceId: record.workspaceId, keyId: record.keyId };
  };
}
