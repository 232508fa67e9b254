/**
 * The directory's people of a name, at any company or at one named company (network search).
 * Matches the folded name in either order ("Nagy László" and "László Nagy") against the name a
 * record was written with and its given name + surname; people with a profile URL first, then the
 * most recently updated. The company, when given, is matched on its normal name or an alias.
 */
import type { DbContext } from "../context.ts";
import {
  type DirectoryPerson,
  type DirectoryPersonRow,
  toDirectoryPerson,
} from "./directory_person.ts";
import { foldName, normalizeCompanyName } from "./normalize.ts";

export async function findPeopleByName(
  ctx: DbContext,
  input: { firstName: string; lastName: string; company?: string | null; limit?: number },
): Promise<DirectoryPerson[]> {
  const keys = [
    ...new Set([
      foldName(`${input.firstName} ${input.lastName}`),
      foldName(`${input.lastName} ${input.firstName}`),
    ]),
  ].filter(Boolean);
  if (keys.length === 0) return [];
  const company = input.company ? normalizeCompanyName(input.company) : "";
  const limit = input.limit ?? 5;
  // People are chosen by index first, then read through the view by id (no plan that depends on
  // statistics a new database does not have).
  const rows = await ctx.db.sql<DirectoryPersonRow[]>`
    SELECT d.* FROM directory_people d
     WHERE d.id IN (
       SELECT p.id FROM people p
        WHERE (p.name_key = ANY(${keys}::text[]) OR p.gs_key = ANY(${keys}::text[]))
          AND (${company} = '' OR p.company_id IN (
                SELECT c.id FROM companies c
                 WHERE c.name_key = ${company} OR c.alias_keys @> ARRAY[${company}]::text[]))
        ORDER BY (p.network_url IS NOT NULL) DESC, p.updated_at DESC, p.id
        LIMIT ${limit})`;
  return rows.map(toDirectoryPerson);
}
