/**
 * A workspace's do-not-contact list: every entry, domains before addresses, each kind in
 * alphabetical order of its stored value (an unknown workspace has an empty list).
 */

import type { DoNotContactKind } from "./do_not_contact_entry.ts";
import type { DbContext } from "../context.ts";

export interface DoNotContactListing {
  kind: DoNotContactKind;
  value: string;
  /** ISO 8601. */
  createdAt: string;
}

export async function listDoNotContact(
  ctx: DbContext,
  input: { workspaceId: string },
): Promise<DoNotContactListing[]> {
  const { sql } = ctx.db;
  const rows = await sql<{ kind: DoNotContactKind; value: string; created_at: Date }[]>`
    SELECT kind, value, created_at FROM do_not_contact
     WHERE workspace_id = ${input.workspaceId}
     ORDER BY kind, value`;
  return rows.map((row) => ({
    kind: row.kind,
    value: row.value,
    createdAt: new Date(row.created_at).toISOString(),
  }));
}
