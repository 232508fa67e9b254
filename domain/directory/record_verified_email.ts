/**
 * Writes what find verified back into the directory: the company of the domain (made when new,
 * named `companyName` or else its domain), the person of that name there (the one a lookup by
 * name at the domain would find, else a new record under the key `folded name@domain`), and the
 * address with its status and time. Safe to repeat; a later call overwrites the address's status.
 */
import { ServiceError } from "../errors.ts";
import type { TransactionSql } from "../stores/database.ts";
import type { DbContext } from "../context.ts";
import type { EmailStatus } from "./directory_person.ts";
import { EMAIL_STATUSES } from "./directory_person.ts";
import { personNameKeys } from "./find_person_at_domain.ts";
import { companyDomainOf, foldName, normalizeCompanyName } from "./normalize.ts";

export interface RecordVerifiedEmailInput {
  fullName: string;
  given: string | null;
  surname: string | null;
  /** The company's domain (a URL, host or email domain is reduced to the registrable domain). */
  domain: string;
  companyName?: string | null;
  address: string;
  status: EmailStatus;
  verifiedAt: Date | string | null;
  /** What stated the address (default `find`). */
  source?: string;
}

export interface RecordedEmail {
  personId: string;
  companyId: string;
  /** Whether the person record was made by this call. */
  personCreated: boolean;
}

export async function recordVerifiedEmail(
  ctx: DbContext,
  input: RecordVerifiedEmailInput,
): Promise<RecordedEmail> {
  const domain = companyDomainOf(input.domain);
  if (!domain) throw new ServiceError("validation_error", "domain is not a registrable domain");
  const address = input.address.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+$/.test(address)) {
    throw new ServiceError("validation_error", "address is not an email address");
  }
  if (!EMAIL_STATUSES.includes(input.status)) {
    throw new ServiceError(
      "validation_error",
      `status must be one of ${EMAIL_STATUSES.join(", ")}`,
    );
  }
  const fullName = input.fullName.trim().replace(/\s+/g, " ");
  const nameKey = foldName(fullName);
  if (!nameKey) throw new ServiceError("validation_error", "fullName is blank");
  const given = input.given?.trim() || null;
  const surname = input.surname?.trim() || null;
  const split = given && surname ? { given, surname } : null;
  const companyName = input.companyName?.trim() || null;
  const verifiedAt = input.verifiedAt === null ? null : new Date(input.verifiedAt);
  if (verifiedAt && Number.isNaN(verifiedAt.getTime())) {
    throw new ServiceError("validation_error", "verifiedAt is not a time");
  }

  return await ctx.db.sql.begin(async (tx) => {
    const companyId = await companyAtDomain(tx, domain, companyName);
    const keys = personNameKeys({ fullName, given, surname });
    const [existing] = await tx<{ id: string }[]>`
      SELECT id FROM people
       WHERE company_id = ${companyId}
         AND (name_key = ANY(${keys}::text[]) OR gs_key = ANY(${keys}::text[]))
       ORDER BY updated_at DESC, id
       LIMIT 1`;
    let personId: string;
    let personCreated = false;
    if (existing) {
      personId = existing.id;
      if (split) {
        await tx`
          UPDATE people
             SET given = ${split.given}, surname = ${split.surname},
                 gs_key = ${foldName(`${split.given} ${split.surname}`)}, updated_at = now()
           WHERE id = ${personId} AND given IS NULL`;
      }
    } else {
      const [row] = await tx<{ id: string; inserted: boolean }[]>`
        INSERT INTO people (full_name, given, surname, name_key, gs_key, company_id, dedupe_key)
        VALUES (${fullName}, ${split?.given ?? null}, ${split?.surname ?? null}, ${nameKey},
                ${split ? foldName(`${split.given} ${split.surname}`) : null}, ${companyId},
                ${`${nameKey}@${domain}`})
        ON CONFLICT (dedupe_key) DO UPDATE SET updated_at = people.updated_at
        RETURNING id, (xmax = 0) AS inserted`;
      personId = row.id;
      personCreated = row.inserted;
    }
    await tx`
      INSERT INTO person_emails (person_id, address, status, verified_at, source)
      VALUES (${personId}, ${address}, ${input.status}, ${verifiedAt}, ${input.source ?? "find"})
      ON CONFLICT (person_id, address) DO UPDATE
        SET status = excluded.status, verified_at = excluded.verified_at, source = excluded.source`;
    return { personId, companyId, personCreated };
  });
}

/** The company with this domain, made when new; a name stands in for a domain placeholder. */
async function companyAtDomain(
  tx: TransactionSql,
  domain: string,
  companyName: string | null,
): Promise<string> {
  const name = companyName && normalizeCompanyName(companyName) ? companyName : domain;
  const nameKey = normalizeCompanyName(name);
  for (let attempt = 0; attempt < 2; attempt++) {
    const [found] = await tx<{ id: string; name: string }[]>`
      SELECT id, name FROM companies WHERE domain = ${domain}`;
    if (found) {
      if (found.name === domain && name !== domain) {
        await tx`UPDATE companies SET name = ${name}, name_key = ${nameKey}, updated_at = now()
                  WHERE id = ${found.id}`;
      }
      return found.id;
    }
    const [made] = await tx<{ id: string }[]>`
      INSERT INTO companies (name, name_key, domain) VALUES (${name}, ${nameKey}, ${domain})
      ON CONFLICT (domain) DO NOTHING
      RETURNING id`;
    if (made) return made.id;
  }
  throw new Error(`company for ${domain} could not be read or made`);
}
