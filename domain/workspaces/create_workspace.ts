import { ServiceError } from "../errors.ts";
import { controlCharacterMessage, hasControlCharacter } from "../shared/control_characters.ts";
import { newId } from "../shared/new_id.ts";
import { createApiKeyIn } from "../auth/create_api_key.ts";
import { grantPointsIn } from "../billing/grant_points.ts";
import type { DbContext, TxContext } from "../context.ts";
import type { AuditActor } from "../audit/audit_event.ts";

/** Creates a workspace with its balance row, a first API key and an optional first grant. */
export async function createWorkspace(
  ctx: DbContext,
  input: { name: string; points?: number; apiKey?: string; actor?: AuditActor },
): Promise<{ workspaceId: string; keyId: string; apiKey: string }> {
  const name = input.name.trim();
  if (!name || name.length > 200) {
    throw new ServiceError("validation_error", "name must be 1 to 200 characters");
  }
  if (hasControlCharacter(name)) {
    throw new ServiceError("validation_error", controlCharacterMessage("name"));
  }
  return await ctx.db.sql.begin(async (tx) => {
    const taken = await tx`SELECT 1 FROM workspaces WHERE name = ${name}`;
    if (taken.length > 0) {
      throw new ServiceError("validation_error", `a workspace named "${name}" already exists`);
    }
    const workspaceId = await insertWorkspace({ tx }, name);
    const key = await createApiKeyIn({ tx }, {
      workspaceId,
      apiKey: input.apiKey,
      actor: input.actor,
    });
    if (input.points) {
      await grantPointsIn({ tx }, { workspaceId, points: input.points, actor: input.actor });
    }
    return { workspaceId, keyId: key.keyId, apiKey: key.apiKey };
  });
}

/** A workspace and its balance row, as a step of the caller's transaction. */
export async function insertWorkspace(ctx: TxContext, name: string): Promise<string> {
  const { tx } = ctx;
  const workspaceId = newId("ws");
  await tx`INSERT INTO workspaces (id, name) VALUES (${workspaceId}, ${name})`;
  await tx`INSERT INTO balances (workspace_id) VALUES (${workspaceId})`;
  return workspaceId;
}
