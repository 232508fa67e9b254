/**
 * The directory's person behind an email address (enrich's first source): a person holding it as
 * a work address (a valid one first, then the most recently verified), else one listing it among
 * their associated addresses (`channels.emails`). The address is trimmed and lower-cased.
 */
import type { DbContext } from "../context.ts";
import {
  type DirectoryPerson,
  type DirectoryPersonRow,
  toDirectoryPerson,
} from "./directory_person.ts";

export async function findPersonByEmail(
  ctx: DbContext,
  email: string,
): Promise<DirectoryPerson | null> {
  const { sql } = ctx.db;
  const address = email.trim().toLowerCase();
  if (!address.includes("@")) return null;
  // Each person is chosen first, by index, then read through the view by its id: a plan that
  // does not depend on table statistics (a new database has none).
  const work = await sql<DirectoryPersonRow[]>`
    SELECT d.* FROM directory_people d
     WHERE d.id = (
       SELECT e.person_id FROM person_emails e
        WHERE e.address = ${address}
        ORDER BY (e.status = 'valid') DESC, e.verified_at DESC NULLS LAST, e.person_id
        LIMIT 1)`;
  if (work.length) return toDirectoryPerson(work[0]);
  const associated = await sql<DirectoryPersonRow[]>`
    SELECT d.* FROM directory_people d
     WHERE d.id = (
       SELECT p.id FROM people p
        WHERE p.channels -> 'emails' ? ${address}
        ORDER BY p.updated_at DESC, p.id
        LIMIT 1)`;
  return associated.length ? toDirectoryPerson(associated[0]) : null;
}
