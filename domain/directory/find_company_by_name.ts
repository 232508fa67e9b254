/**
 * A company by its name or one of its aliases, compared by normal name (case, punctuation,
 * diacritics and legal forms ignored: "ACME, Inc." finds "Acme"). One with a domain is preferred,
 * then a match on the name over one on an alias. Null when none matches (find's `company` mode
 * then asks the company resolver).
 */
import type { DbContext } from "../context.ts";
import { normalizeCompanyName } from "./normalize.ts";

export interface CompanyMatch {
  id: string;
  name: string;
  domain: string | null;
}

export async function findCompanyByName(
  ctx: DbContext,
  name: string,
): Promise<CompanyMatch | null> {
  const key = normalizeCompanyName(name);
  if (!key) return null;
  // Two index lookups (the name's btree, the aliases' GIN) rather than one OR, which a planner
  // without statistics reads as a table scan.
  const rows = await ctx.db.sql<CompanyMatch[]>`
    SELECT id, name, domain FROM (
      SELECT id, name, domain, created_at, true AS by_name FROM companies WHERE name_key = ${key}
      UNION ALL
      SELECT id, name, domain, created_at, false FROM companies
       WHERE alias_keys @> ARRAY[${key}]::text[]
    ) m
     ORDER BY (domain IS NOT NULL) DESC, by_name DESC, created_at, id
     LIMIT 1`;
  return rows[0] ?? null;
}
