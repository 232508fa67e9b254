/**
 * Whether a workspace's do-not-contact list refuses an address: the address itself (or without
 * its `+tag`) is listed, or its domain or any parent domain of it is (`acme.com` refuses
 * `bob@mail.acme.com`, never `bob@notacme.com` or `bob@acme.com.evil.test`). One statement: each
 * key is one primary-key lookup on (workspace, kind, value). The address is trimmed and
 * lower-cased here as well.
 *
 * Several addresses (`emails`: find asks about every candidate before any SMTP) and bare domains
 * (`domain`: the domain and its parents) can be asked in the same statement: true when any of
 * them is refused.
 */
import type { DbContext } from "../context.ts";
import { doNotContactKeys } from "./do_not_contact_entry.ts";

export async function isDoNotContact(
  ctx: DbContext,
  input: { workspaceId: string; email?: string; emails?: readonly string[]; domain?: string },
): Promise<boolean> {
  const addresses = new Set<string>();
  const domains = new Set<string>();
  const emails = [...(input.email !== undefined ? [input.email] : []), ...(input.emails ?? [])];
  for (const email of emails) {
    const keys = doNotContactKeys(email);
    for (const address of keys.addresses) addresses.add(address);
    for (const domain of keys.domains) domains.add(domain);
  }
  if (input.domain !== undefined) {
    // A bare domain's keys are an address's domains; `@domain` is no address any entry holds.
    for (const domain of doNotContactKeys(`@${input.domain}`).domains) domains.add(domain);
  }
  if (addresses.size === 0 && domains.size === 0) return false;
  const kinds = [...[...addresses].map(() => "email"), ...[...domains].map(() => "domain")];
  const values = [...addresses, ...domains];
  // A LATERAL lookup per key (rather than `value = ANY(...)`, which Postgres 15 applies as a
  // filter over all the workspace's entries of a kind when the table has no statistics).
  const [row] = await ctx.db.sql<{ listed: boolean }[]>`
    SELECT EXISTS (
      SELECT 1
        FROM unnest(${kinds}::text[], ${values}::text[]) AS k (kind, value)
       CROSS JOIN LATERAL (
         SELECT 1 FROM do_not_contact d
          WHERE d.workspace_id = ${input.workspaceId} AND d.kind = k.kind AND d.value = k.value
          LIMIT 1) AS hit
    ) AS listed`;
  return row.listed;
}
