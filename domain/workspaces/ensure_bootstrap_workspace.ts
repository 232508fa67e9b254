import { ServiceError } from "../errors.ts";
import { hashApiKey } from "../auth/api_key.ts";
import { createApiKey } from "../auth/create_api_key.ts";
import { grantPointsIn } from "../billing/grant_points.ts";
import type { Sql } from "../stores/database.ts";
import { insertWorkspace } from "./create_workspace.ts";

export const BOOTSTRAP_WORKSPACE_NAME = "default";
const BOOTSTRAP_LOCK_ID = 7_362_110_246;

/**
 * `SVC_BOOTSTRAP_KEY` + `SVC_BOOTSTRAP_POINTS`: makes sure a workspace named `default` exists,
 * that this exact key belongs to it, and that it has been granted at least this many points.
 * Idempotent across restarts and safe when several instances start at once.
 */
export async function ensureBootstrapWorkspace(
  sql: Sql,
  input: { apiKey: string; points: number },
): Promise<{ workspaceId: string; granted: number; created: boolean }> {
  const keyHash = await hashApiKey(input.apiKey);
  return await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${BOOTSTRAP_LOCK_ID})`;
    let created = false;
    let workspaceId = (await tx<{ id: string }[]>`
      SELECT id FROM workspaces WHERE name = ${BOOTSTRAP_WORKSPACE_NAME}`)[0]?.id;
    if (!workspaceId) {
      workspaceId = await insertWorkspace(tx, BOOTSTRAP_WORKSPACE_NAME);
      created = true;
    }
    const key = (await tx<{ workspace_id: string; revoked_at: Date | null }[]>`
      SELECT workspace_id, revoked_at FROM api_keys WHERE key_hash = ${keyHash}`)[0];
    if (!key) {
      await createApiKey(tx, { workspaceId, apiKey: input.apiKey });
    } else if (key.workspace_id !== workspaceId) {
      throw new ServiceError(
        "validation_error",
        "SVC_BOOTSTRAP_KEY already belongs to another workspace",
      );
    } else if (key.revoked_at) {
      throw new ServiceError("validation_error", "SVC_BOOTSTRAP_KEY was revoked; set a new one");
    }
    const granted = Number(
      (await tx<{ granted: string }[]>`
      SELECT granted FROM balances WHERE workspace_id = ${workspaceId}`)[0].granted,
    );
    if (granted < input.points) {
      await grantPointsIn(tx, {
        workspaceId,
        points: input.points - granted,
        note: "bootstrap grant",
      });
    }
    return { workspaceId, granted: Math.max(granted, input.points), created };
  });
}
