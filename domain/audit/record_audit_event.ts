/**
 * Appends one act to the audit log (migration 024). `recordAuditEventIn` writes inside the
 * caller's transaction, so the entry stands or falls with the act; `recordAuditEvent` is its own
 * statement, for an act that is one statement already (the entry follows it: an act whose entry
 * failed to write still happened, and the error reaches the caller).
 */
import type { DbContext, TxContext } from "../context.ts";
import type { Sql, TransactionSql } from "../stores/database.ts";
import { actorId, type AuditEvent, SERVICE_ACTOR } from "./audit_event.ts";

export async function recordAuditEvent(ctx: DbContext, input: AuditEvent): Promise<void> {
  await insert(ctx.db.sql, input);
}

export async function recordAuditEventIn(ctx: TxContext, input: AuditEvent): Promise<void> {
  await insert(ctx.tx, input);
}

async function insert(sql: Sql | TransactionSql, input: AuditEvent): Promise<void> {
  const actor = input.actor ?? SERVICE_ACTOR;
  await sql`
    INSERT INTO audit_log (workspace_id, actor_kind, actor_id, action, subject_id, details)
    VALUES (${input.workspaceId}, ${actor.kind}, ${actorId(actor)}, ${input.action},
            ${input.subjectId ?? null}, ${sql.json((input.details ?? {}) as never)})`;
}
