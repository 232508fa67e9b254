/**
 * A page of the audit log, newest first: a workspace's own acts (`workspaceId`), or every act of
 * the service when the operator asks (`workspaceId` undefined; service-wide acts such as an
 * erasure have no workspace and are listed only then). Paged by id: `cursor` is the last entry's
 * id of the previous page, the next page holds older entries.
 */
import type { DbContext } from "../context.ts";
import type { AuditAction, AuditActor, AuditEntry } from "./audit_event.ts";

export const MAX_AUDIT_PAGE = 200;

export interface AuditPage {
  entries: AuditEntry[];
  /** Pass as `cursor` for the next (older) page; null on the last one. */
  nextCursor: number | null;
}

interface Row {
  id: string | number;
  at: Date;
  workspace_id: string | null;
  actor_kind: AuditActor["kind"];
  actor_id: string | null;
  action: AuditAction;
  subject_id: string | null;
  details: Record<string, string | number | boolean | null>;
}

export async function listAuditLog(
  ctx: DbContext,
  input: { workspaceId?: string; cursor?: number; limit?: number },
): Promise<AuditPage> {
  const { sql } = ctx.db;
  const limit = Math.min(Math.max(input.limit ?? 50, 1), MAX_AUDIT_PAGE);
  const before = input.cursor ?? Number.MAX_SAFE_INTEGER;
  const rows = input.workspaceId === undefined
    ? await sql<Row[]>`
        SELECT * FROM audit_log WHERE id < ${before} ORDER BY id DESC LIMIT ${limit + 1}`
    : await sql<Row[]>`
        SELECT * FROM audit_log
         WHERE workspace_id = ${input.workspaceId} AND id < ${before}
         ORDER BY id DESC LIMIT ${limit + 1}`;
  const page = rows.slice(0, limit).map((row): AuditEntry => ({
    id: Number(row.id),
    at: new Date(row.at).toISOString(),
    workspaceId: row.workspace_id,
    actor: { kind: row.actor_kind, id: row.actor_id },
    action: row.action,
    subjectId: row.subject_id,
    details: typeof row.details === "string" ? JSON.parse(row.details) : row.details,
  }));
  return {
    entries: page,
    nextCursor: rows.length > limit ? page[page.length - 1].id : null,
  };
}
