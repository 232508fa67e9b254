/**
 * Puts an address or a domain on a workspace's do-not-contact list. Idempotent: adding an entry
 * that is already listed changes nothing and answers `created: false`. Throws
 * `validation_error` for a malformed or ambiguous entry and `not_found` for an unknown workspace.
 */
import { ServiceError } from "../errors.ts";

import {
  type DoNotContactKind,
  type DoNotContactTarget,
  parseDoNotContactEntry,
} from "./do_not_contact_entry.ts";
import type { DbContext } from "../context.ts";
import type { AuditActor } from "../audit/audit_event.ts";
import { recordAuditEvent } from "../audit/record_audit_event.ts";

export interface AddDoNotContactResult {
  workspaceId: string;
  kind: DoNotContactKind;
  /** The entry as stored (lower case, ASCII domain). */
  value: string;
  created: boolean;
}

export async function addDoNotContact(
  ctx: DbContext,
  input: { workspaceId: string; actor?: AuditActor } & DoNotContactTarget,
): Promise<AddDoNotContactResult> {
  const { sql } = ctx.db;
  const { kind, value } = parseDoNotContactEntry(input);
  const { workspaceId } = input;
  try {
    const rows = await sql`
      INSERT INTO do_not_contact (workspace_id, kind, value)
      VALUES (${workspaceId}, ${kind}, ${value})
      ON CONFLICT (workspace_id, kind, value) DO NOTHING
      RETURNING 1`;
    if (rows.length === 1) {
      // The entry's kind only: the value is the workspace's own list, not the log's to copy.
      await recordAuditEvent(ctx, {
        action: "do-not-contact.added",
        actor: input.actor,
        workspaceId,
        details: { kind },
      });
    }
    return { workspaceId, kind, value, created: rows.length === 1 };
  } catch (error) {
    if ((error as { code?: string }).code === "23503") {
      throw new ServiceError("not_found", `No workspace with id ${workspaceId}`);
    }
    throw error;
  }
}
