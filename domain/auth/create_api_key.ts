import { controlCharacterMessage, hasControlCharacter } from "../shared/control_characters.ts";
import { ServiceError } from "../errors.ts";
import type { TransactionSql } from "../stores/database.ts";
import { displayPrefix, generateApiKey, hashApiKey } from "./api_key.ts";
import { newId } from "../shared/new_id.ts";
import type { DbContext, TxContext } from "../context.ts";
import type { AuditActor } from "../audit/audit_event.ts";
import { recordAuditEventIn } from "../audit/record_audit_event.ts";

export interface CreatedApiKey {
  keyId: string;
  /** Shown once, here; only its hash is stored. */
  apiKey: string;
  name: string | null;
  displayPrefix: string;
  expiresAt: string | null;
}

export const API_KEY_NAME_MAX = 100;

/**
 * Adds a key to a workspace. `apiKey` may be given (bootstrap), otherwise one is generated.
 * `name` (what the app lists the key by) is optional for the CLI and the bootstrap key, but when
 * given it must be 1 to 100 characters after trimming; `expiresAt`, when given, must be after
 * `now` (default: the wall clock), since a key born expired could never be used.
 */
export async function createApiKey(
  ctx: DbContext,
  input: CreateApiKeyInput,
): Promise<CreatedApiKey> {
  return await ctx.db.sql.begin(async (tx) => (await insertApiKey(tx, input, null))!);
}

/** `createApiKey` as a step of the caller's transaction (a new workspace and its first key). */
export async function createApiKeyIn(
  ctx: TxContext,
  input: CreateApiKeyInput,
): Promise<CreatedApiKey> {
  return (await insertApiKey(ctx.tx, input, null))!;
}

/**
 * `createApiKey` for a form that carries a one-time key (the web app's): the first submit creates
 * the key; the same form sent again (a reload of the answer, a double click) creates nothing and
 * says which key the form made, whose secret is not kept and so is never shown again.
 */
export async function createApiKeyOnce(
  ctx: DbContext,
  input: CreateApiKeyInput & { formKey: string },
): Promise<{ created: CreatedApiKey } | { alreadyCreated: { keyId: string } }> {
  const { sql } = ctx.db;
  const created = await sql.begin((tx) => insertApiKey(tx, input, input.formKey));
  if (created) return { created };
  const [row] = await sql<{ id: string }[]>`
    SELECT id FROM api_keys WHERE workspace_id = ${input.workspaceId} AND form_key = ${input.formKey}`;
  return { alreadyCreated: { keyId: row.id } };
}

interface CreateApiKeyInput {
  workspaceId: string;
  name?: string | null;
  expiresAt?: Date | null;
  apiKey?: string;
  now?: number;
  /** Who made it, for the audit log (default: the service). */
  actor?: AuditActor;
}

/** Validates and inserts; null when `formKey` already made a key of this workspace. */
async function insertApiKey(
  sql: TransactionSql,
  input: CreateApiKeyInput,
  formKey: string | null,
): Promise<CreatedApiKey | null> {
  const name = readKeyName(input.name);
  const expiresAt = input.expiresAt ?? null;
  if (expiresAt !== null) {
    if (Number.isNaN(expiresAt.getTime())) {
      throw new ServiceError("validation_error", "expiry must be a date");
    }
    if (expiresAt.getTime() <= (input.now ?? Date.now())) {
      throw new ServiceError("validation_error", "expiry must be in the future");
    }
  }
  const apiKey = input.apiKey ?? generateApiKey();
  const keyId = newId("key");
  const prefix = displayPrefix(apiKey);
  const inserted = await sql`
    INSERT INTO api_keys (id, workspace_id, key_hash, display_prefix, expires_at, name, form_key)
    VALUES (${keyId}, ${input.workspaceId}, ${await hashApiKey(apiKey)},
            ${prefix}, ${expiresAt}, ${name}, ${formKey})
    ON CONFLICT (workspace_id, form_key) WHERE form_key IS NOT NULL DO NOTHING
    RETURNING id`;
  if (inserted.length === 0) return null;
  await recordAuditEventIn({ tx: sql }, {
    action: "api-key.created",
    actor: input.actor,
    workspaceId: input.workspaceId,
    subjectId: keyId,
    details: { expires: expiresAt !== null },
  });
  return {
    keyId,
    apiKey,
    name,
    displayPrefix: prefix,
    expiresAt: expiresAt?.toISOString() ?? null,
  };
}

function readKeyName(raw: string | null | undefined): string | null {
  if (raw === undefined || raw === null) return null;
  const name = raw.trim();
  // Characters as the database counts them (code points), not UTF-16 units.
  const length = [...name].length;
  if (length === 0) throw new ServiceError("validation_error", "name must not be blank");
  if (hasControlCharacter(name)) {
    throw new ServiceError("validation_error", controlCharacterMessage("name"));
  }
  if (length > API_KEY_NAME_MAX) {
    throw new ServiceError(
      "validation_error",
      `name must be at most ${API_KEY_NAME_MAX} characters (it has ${length})`,
    );
  }
  return name;
}
