/**
 * Whether the service-wide suppression list names a person (migration 025): any of their
 * addresses, profile URLs or names at a company domain. Every operation that returns or stores
 * a person asks this before its work (find, verify, enrich, network search, lead search, domain
 * search; the import and the write-backs of find and enrich), and answers as for a workspace's
 * do-not-contact entry, or its own "nothing found", never billed. One statement: each
 * fingerprint is a primary-key lookup.
 */
import type { DbContext } from "../context.ts";
import type { PersonIdentifiers, PersonKeys } from "./person_keys.ts";

/** What the check needs: the database and the keys (a route's or the CLI's context). */
export type SuppressionContext = DbContext & { personKeys: PersonKeys };

export async function isSuppressed(
  ctx: SuppressionContext,
  input: PersonIdentifiers,
): Promise<boolean> {
  const fingerprints = ctx.personKeys.of(input).map((k) => k.fingerprint);
  if (fingerprints.length === 0) return false;
  const [row] = await ctx.db.sql<{ listed: boolean }[]>`
    SELECT EXISTS (
      SELECT 1 FROM unnest(${fingerprints}::text[]) AS f (fingerprint)
       CROSS JOIN LATERAL (
         SELECT 1 FROM suppressions s WHERE s.fingerprint = f.fingerprint LIMIT 1) AS hit
    ) AS listed`;
  return row.listed;
}

/**
 * Which of several people the list names, by index (a batch: an import's records, a page of
 * lead-search candidates). One statement for the batch.
 */
export async function suppressedAmong(
  ctx: SuppressionContext,
  input: { people: readonly PersonIdentifiers[] },
): Promise<Set<number>> {
  const index: number[] = [];
  const fingerprints: string[] = [];
  input.people.forEach((person, i) => {
    for (const key of ctx.personKeys.of(person)) {
      index.push(i);
      fingerprints.push(key.fingerprint);
    }
  });
  if (fingerprints.length === 0) return new Set();
  const rows = await ctx.db.sql<{ i: number }[]>`
    SELECT DISTINCT f.i FROM unnest(${index}::int[], ${fingerprints}::text[]) AS f (i, fingerprint)
      JOIN suppressions s ON s.fingerprint = f.fingerprint`;
  return new Set(rows.map((r) => Number(r.i)));
}
