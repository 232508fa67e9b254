/**
 * A workspace's do-not-contact list: every entry, domains before addresses, each kind in
 * alphabetical order of its stored value (an unknown workspace has an empty list).
 */
import type { Sql } from "../stores/database.ts";
import type { DoNotContactKind } from "./do_not_contact_entry.ts";

export interface DoNotContactListing {
  kind: DoNotContactKind;
  value: string;
  /** ISO 8601. */
  createdAt: string;
}

export async function listDoNotContact(
  sql: Sql,
  input: { workspaceId: string },
): Promise<DoNotContactListing[]> {
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
