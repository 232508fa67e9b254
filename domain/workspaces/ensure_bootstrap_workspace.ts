import { ServiceError } from "../errors.ts";
import { hashApiKey } from "../auth/api_key.ts";
import { createApiKeyIn } from "../auth/create_api_key.ts";
import { grantPointsIn } from "../billing/grant_points.ts";
import type { DbContext } from "../context.ts";
import { insertWorkspace } from "./create_workspace.ts";

export const BOOTSTRAP_WORKSPACE_NAME = "default";
/** What the app lists a bootstrap key by. */
export const BOOTSTRAP_KEY_NAME = "SVC_BOOTSTRAP_KEY";
const BOOTSTRAP_LOCK_ID = 7_362_110_246;

/**
 * `SVC_BOOTSTRAP_KEY` + `SVC_BOOTSTRAP_POINTS`: makes sure a workspace named `default` exists,
 * that this exact key belongs to it, and that it has been granted at least this many points.
 * The key is marked as a bootstrap key (`api_keys.bootstrap`); any other bootstrap key of the
 * workspace — one an earlier SVC_BOOTSTRAP_KEY installed — is revoked (`revokedKeyIds`), keys
 * users created are left alone. Idempotent across restarts and safe when several instances start
 * at once.
 */
export async function ensureBootstrapWorkspace(
  ctx: DbContext,
  input: { apiKey: string; points: number },
): Promise<
  { workspaceId: string; granted: number; created: boolean; revokedKeyIds: string[] }
> {
  const keyHash = await hashApiKey(input.apiKey);
  return await ctx.db.sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${BOOTSTRAP_LOCK_ID})`;
    let created = false;
    let workspaceId = (await tx<{ id: string }[]>`
      SELECT id FROM workspaces WHERE name = ${BOOTSTRAP_WORKSPACE_NAME}`)[0]?.id;
    if (!workspaceId) {
      workspaceId = await insertWorkspace({ tx }, BOOTSTRAP_WORKSPACE_NAME);
      created = true;
    }
    const key = (await tx<{ workspace_id: string; revoked_at: Date | null }[]>`
      SELECT workspace_id, revoked_at FROM api_keys WHERE key_hash = ${keyHash}`)[0];
    if (!key) {
      await createApiKeyIn({ tx }, {
        workspaceId,
        apiKey: input.apiKey,
        name: BOOTSTRAP_KEY_NAME,
      });
    } else if (key.workspace_id !== workspaceId) {
      throw new ServiceError(
        "validation_error",
        "SVC_BOOTSTRAP_KEY already belongs to another workspace",
      );
    } else if (key.revoked_at) {
      throw new ServiceError("validation_error", "SVC_BOOTSTRAP_KEY was revoked; set a new one");
    }
    // Marked here too: a key installed before bootstrap keys were marked becomes one now.
    await tx`UPDATE api_keys SET bootstrap = true WHERE key_hash = ${keyHash} AND NOT bootstrap`;
    const revokedKeyIds = (await tx<{ id: string }[]>`
      UPDATE api_keys SET revoked_at = now()
       WHERE workspace_id = ${workspaceId} AND bootstrap AND revoked_at IS NULL
         AND key_hash <> ${keyHash}
      RETURNING id`).map((row) => row.id);
    const granted = Number(
      (await tx<{ granted: string }[]>`
      SELECT granted FROM balances WHERE workspace_id = ${workspaceId}`)[0].granted,
    );
    if (granted < input.points) {
      await grantPointsIn({ tx }, {
        workspaceId,
        points: input.points - granted,
        note: "bootstrap grant",
      });
    }
    return { workspaceId, granted: Math.max(granted, input.points), created, revokedKeyIds };
  });
}
