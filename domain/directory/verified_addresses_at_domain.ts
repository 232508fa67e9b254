/**
 * The valid addresses the directory holds at a mail domain, newest verification first, of people
 * whose given name and surname are known: what find learns a domain's local-part pattern from
 * (`ada.lovelace@`, `alovelace@`, …). The domain is compared as written after the `@`.
 */
import type { DbContext } from "../context.ts";

export interface VerifiedAddress {
  address: string;
  given: string;
  surname: string;
  /** ISO 8601, or null when the address was imported valid without a time. */
  verifiedAt: string | null;
}

export async function verifiedAddressesAtDomain(
  ctx: DbContext,
  input: { domain: string; limit: number },
): Promise<VerifiedAddress[]> {
  const domain = input.domain.trim().toLowerCase().replace(/^@/, "");
  const limit = Math.max(0, Math.min(1000, Math.floor(input.limit)));
  if (!domain || limit === 0) return [];
  const rows = await ctx.db.sql<
    { address: string; given: string; surname: string; verified_at: Date | null }[]
  >`
    SELECT e.address, p.given, p.surname, e.verified_at
      FROM person_emails e JOIN people p ON p.id = e.person_id
     WHERE e.domain = ${domain} AND e.status = 'valid'
       AND p.given IS NOT NULL AND p.surname IS NOT NULL
     ORDER BY e.verified_at DESC NULLS LAST
     LIMIT ${limit}`;
  return rows.map((r) => ({
    address: r.address,
    given: r.given,
    surname: r.surname,
    verifiedAt: r.verified_at ? r.verified_at.toISOString() : null,
  }));
}
