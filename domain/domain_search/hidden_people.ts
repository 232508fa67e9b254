/**
 * The people of a company a workspace must not be shown, counted or learned from: the one place
 * where domain search leaves a person out (the page, its total, the count and the pattern all
 * take this list). Today: anyone with an address the workspace's do-not-contact list names, by
 * the address itself or by its domain. (The searched domain and its parents being listed refuses
 * the whole search before this.) Another list that leaves people out belongs here too.
 *
 * Driven by the workspace's list, which is short, rather than by the company's people, which may
 * be tens of thousands: each entry is an index lookup (`person_emails_address`,
 * `person_emails_domain`), then the person's company is checked by primary key.
 */
import type { DbContext } from "../context.ts";

export async function hiddenPeople(
  ctx: DbContext,
  input: { workspaceId: string; companyId: string },
): Promise<string[]> {
  const rows = await ctx.db.sql<{ id: string }[]>`
    SELECT p.id
      FROM do_not_contact d
      JOIN person_emails e ON e.address = d.value
      JOIN people p ON p.id = e.person_id
     WHERE d.workspace_id = ${input.workspaceId} AND d.kind = 'email'
       AND p.company_id = ${input.companyId}
    UNION
    SELECT p.id
      FROM do_not_contact d
      JOIN person_emails e ON e.domain = d.value
      JOIN people p ON p.id = e.person_id
     WHERE d.workspace_id = ${input.workspaceId} AND d.kind = 'domain'
       AND p.company_id = ${input.companyId}`;
  return rows.map((r) => r.id);
}
