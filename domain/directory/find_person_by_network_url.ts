/**
 * The directory's person behind a profile URL (find's `network` mode). The URL is normalized
 * first, so `http://www.network.example/in/ada/?trk=1` finds `https://network.example/in/ada`.
 * Null when the URL is not one or nobody in the directory has it.
 */
import type { DbContext } from "../context.ts";
import {
  type DirectoryPerson,
  type DirectoryPersonRow,
  toDirectoryPerson,
} from "./directory_person.ts";
import { normalizeNetworkUrl } from "./normalize.ts";

export async function findPersonByNetworkUrl(
  ctx: DbContext,
  networkUrl: string,
): Promise<DirectoryPerson | null> {
  const url = normalizeNetworkUrl(networkUrl);
  if (!url) return null;
  const rows = await ctx.db.sql<DirectoryPersonRow[]>`
    SELECT * FROM directory_people WHERE network_url = ${url}`;
  return rows.length ? toDirectoryPerson(rows[0]) : null;
}
