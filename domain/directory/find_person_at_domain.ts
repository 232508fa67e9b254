/**
 * The directory's person of this name at the company with this domain (find's `email` mode).
 * Matches the folded full name as written, or the folded given name + surname, against both the
 * name a record was written with and its given name + surname: "Nagy László" and "László Nagy"
 * (given László, surname Nagy) find each other. Among namesakes, one with a valid address, then
 * the most recently updated, answers. The domain may be a URL, host or email domain.
 */
import type { DbContext } from "../context.ts";
import {
  type DirectoryPerson,
  type DirectoryPersonRow,
  toDirectoryPerson,
} from "./directory_person.ts";
import { companyDomainOf, foldName } from "./normalize.ts";

export interface FindPersonAtDomainInput {
  fullName: string;
  given?: string | null;
  surname?: string | null;
  domain: string;
}

export async function findPersonAtDomain(
  ctx: DbContext,
  input: FindPersonAtDomainInput,
): Promise<DirectoryPerson | null> {
  const domain = companyDomainOf(input.domain);
  const keys = personNameKeys(input);
  if (!domain || keys.length === 0) return null;
  // The person is chosen first, by index, then read through the view by its id: a plan that
  // does not depend on table statistics (a new database has none).
  const rows = await ctx.db.sql<DirectoryPersonRow[]>`
    SELECT d.* FROM directory_people d
     WHERE d.id = (
       SELECT p.id FROM people p
        WHERE p.company_id = (SELECT c.id FROM companies c WHERE c.domain = ${domain})
          AND (p.name_key = ANY(${keys}::text[]) OR p.gs_key = ANY(${keys}::text[]))
        ORDER BY coalesce((SELECT bool_or(e.status = 'valid') FROM person_emails e
                            WHERE e.person_id = p.id), false) DESC,
                 p.updated_at DESC, p.id
        LIMIT 1)`;
  return rows.length ? toDirectoryPerson(rows[0]) : null;
}

/** The folded forms a person's name may be stored under (full name; given + surname). */
export function personNameKeys(
  input: { fullName: string; given?: string | null; surname?: string | null },
): string[] {
  const keys = new Set<string>();
  const full = foldName(input.fullName);
  if (full) keys.add(full);
  if (input.given?.trim() && input.surname?.trim()) {
    keys.add(foldName(`${input.given} ${input.surname}`));
  }
  return [...keys];
}
