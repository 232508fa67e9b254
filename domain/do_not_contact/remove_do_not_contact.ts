/**
 * Takes an address or a domain off a workspace's do-not-contact list. Idempotent: removing an
 * entry that is not listed answers `removed: false`. The entry is read as `addDoNotContact`
 * reads it, so any spelling of a listed entry removes it; throws `validation_error` for a
 * malformed or ambiguous entry.
 */

import {
  type DoNotContactKind,
  type DoNotContactTarget,
  parseDoNotContactEntry,
} from "./do_not_contact_entry.ts";
import type { DbContext } from "../context.ts";
import type { AuditActor } from "../audit/audit_event.ts";
import { recordAuditEvent } from "../audit/record_audit_event.ts";

export interface RemoveDoNotContactResult {
  workspaceId: string;
  kind: DoNotContactKind;
  value: string;
  removed: boolean;
}

export async function removeDoNotContact(
  ctx: DbContext,
  input: { workspaceId: string; actor?: AuditActor } & DoNotContactTarget,
): Promise<RemoveDoNotContactResult> {
  const { sql } = ctx.db;
  const { kind, value } = parseDoNotContactEntry(input);
  const { workspaceId } = input;
  const rows = await sql`
    DELETE FROM do_not_contact
     WHERE workspace_id = ${workspaceId} AND kind = ${kind} AND value = ${value}
    RETURNING 1`;
  if (rows.length === 1) {
    await recordAuditEvent(ctx, {
      action: "do-not-contact.removed",
      actor: input.actor,
      workspaceId,
      details: { kind },
    });
  }
  return { workspaceId, kind, value, removed: rows.length === 1 };
}
