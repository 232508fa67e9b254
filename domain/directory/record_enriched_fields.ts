/**
 * Writes what enrich's sources stated back to the directory's record of the person: every field
 * the record lacks (or that an earlier enrichment wrote and a source now restates), each with the
 * source that stated it and when (`field_sources`), and the time every source was consulted
 * (`enriched_at`), so the next enrichment of the address answers from the record alone. Fields
 * the record holds of its own (imported, learned, verified) are never overwritten.
 *
 * A profile URL another record holds is taken over only from a record that is nothing but that
 * profile (one learned from the web, with no address): the two are the same person seen twice, and
 * the profile-only record is folded into this one. A record with addresses of its own keeps it.
 *
 * A stated employer names the record's company when that company is known only by the address's
 * domain; a record with no company at all is linked to the company of that name (one without a
 * domain: the employer is a claim about the person, not about any domain). A record whose company
 * has a name of its own keeps it.
 *
 * The record answers the next enrichment alone (`enriched_at`) only when it now holds everything
 * this one stated from outside: a field it could not take (its own value, a URL another person
 * holds, a company of another domain) leaves `enriched_at` empty, so the next enrichment asks the
 * sources again rather than answering with less than this one did.
 */
import type { TransactionSql } from "../stores/database.ts";
import type { DbContext } from "../context.ts";
import type { FieldSource } from "./directory_person.ts";
import { companyDomainOf, foldName, normalizeCompanyName } from "./normalize.ts";

/** The fields enrich may write, by the names `field_sources` keys them with. */
export type EnrichedField =
  | "given"
  | "surname"
  | "title"
  | "companyName"
  | "location"
  | "headline"
  | "networkUrl"
  | "channels.x"
  | "channels.telegram"
  | "channels.emails";

export interface EnrichedFieldsInput {
  personId: string;
  /** The enriched address: a company known only by its domain is named when it is this domain. */
  email: string;
  /** Each field's value (`networkUrl` already in its directory form) and who stated it. */
  fields: Partial<Record<Exclude<EnrichedField, "channels.emails">, string>>;
  associatedEmails: string[];
  sources: Partial<Record<EnrichedField, FieldSource>>;
  /** When the sources were consulted (ISO 8601). */
  enrichedAt: string;
}

interface PersonRow {
  given: string | null;
  surname: string | null;
  title: string | null;
  location: string | null;
  headline: string | null;
  network_url: string | null;
  channels: { x?: string | null; telegram?: string | null; emails?: string[] } | null;
  field_sources: Record<string, FieldSource> | null;
  company_id: string | null;
  company_name: string | null;
  company_domain: string | null;
}

/** The fields written (by `field_sources` name). */
export async function recordEnrichedFields(
  ctx: DbContext,
  input: EnrichedFieldsInput,
): Promise<EnrichedField[]> {
  return await ctx.db.sql.begin(async (tx) => {
    const [row] = await tx<PersonRow[]>`
      SELECT p.given, p.surname, p.title, p.location, p.headline, p.network_url, p.channels,
             p.field_sources, p.company_id, c.name AS company_name, c.domain AS company_domain
        FROM people p LEFT JOIN companies c ON c.id = p.company_id
       WHERE p.id = ${input.personId}
         FOR UPDATE OF p`;
    if (!row) return [];
    const written = new Set<EnrichedField>();
    /** Fields stated from outside that the record does not hold after this write. */
    const missing = new Set<EnrichedField>();
    const known = row.field_sources ?? {};
    // A field is ours to write when the record lacks it or an earlier enrichment wrote it.
    const writable = (field: EnrichedField, current: string | null | undefined) =>
      input.sources[field] !== undefined && (current == null || field in known);
    const take = <T>(field: EnrichedField, current: T | null | undefined, value: T | undefined) => {
      if (value === undefined || !writable(field, current as string | null)) {
        if (value !== undefined && input.sources[field] && value !== current) missing.add(field);
        return current ?? null;
      }
      if (value !== current) written.add(field);
      return value;
    };

    const { fields } = input;
    let given = row.given;
    let surname = row.surname;
    if (fields.given && fields.surname && writable("given", row.given)) {
      given = take("given", row.given, fields.given);
      surname = take("surname", row.surname, fields.surname);
    } else {
      for (
        const [field, value, current] of [["given", fields.given, row.given], [
          "surname",
          fields.surname,
          row.surname,
        ]] as const
      ) {
        if (value !== undefined && input.sources[field] && value !== current) missing.add(field);
      }
    }
    const title = take("title", row.title, fields.title);
    const location = take("location", row.location, fields.location);
    const headline = take("headline", row.headline, fields.headline);
    const channels = {
      x: take("channels.x", row.channels?.x, fields["channels.x"]),
      telegram: take("channels.telegram", row.channels?.telegram, fields["channels.telegram"]),
      emails: [...(row.channels?.emails ?? [])],
    };
    for (const address of input.associatedEmails) {
      if (!channels.emails.includes(address) && input.sources["channels.emails"]) {
        channels.emails.push(address);
        written.add("channels.emails");
      }
    }
    let networkUrl = row.network_url;
    if (fields.networkUrl && row.network_url === null && input.sources.networkUrl) {
      if (await releaseProfileUrl(tx, fields.networkUrl, input.personId)) {
        networkUrl = fields.networkUrl;
        written.add("networkUrl");
      }
    }
    if (fields.networkUrl && input.sources.networkUrl && networkUrl !== fields.networkUrl) {
      missing.add("networkUrl");
    }
    let companyId = row.company_id;
    const companyKey = fields.companyName ? normalizeCompanyName(fields.companyName) : "";
    if (fields.companyName && input.sources.companyName) {
      const standIn = row.company_id !== null && row.company_name === row.company_domain;
      if (
        standIn && companyKey && companyDomainOf(input.email) === row.company_domain
      ) {
        await tx`
          UPDATE companies
             SET name = ${fields.companyName}, name_key = ${companyKey}, updated_at = now()
           WHERE id = ${row.company_id} AND name = domain`;
        written.add("companyName");
      } else if (row.company_id === null && companyKey) {
        companyId = await companyNamed(tx, fields.companyName, companyKey);
        written.add("companyName");
      } else if (standIn || row.company_name !== fields.companyName) {
        missing.add("companyName");
      }
    }

    const sources = Object.fromEntries(
      [...written].map((field) => [field, input.sources[field]!]),
    );
    await tx`
      UPDATE people
         SET given = ${given}, surname = ${surname},
             gs_key = ${given && surname ? foldName(`${given} ${surname}`) : null},
             title = ${title}, location = ${location}, headline = ${headline},
             company_id = ${companyId}, network_url = ${networkUrl},
             dedupe_key = CASE WHEN ${networkUrl}::text IS NULL THEN dedupe_key
                               ELSE ${networkUrl}::text END,
             channels = ${tx.json(channels as never)}::jsonb,
             field_sources = field_sources || ${tx.json(sources as never)}::jsonb,
             enriched_at = ${missing.size === 0 ? input.enrichedAt : null}, updated_at = now()
       WHERE id = ${input.personId}`;
    return [...written];
  });
}

/** The company of that name without a domain (kept once per normal name), made if none is. */
async function companyNamed(tx: TransactionSql, name: string, nameKey: string): Promise<string> {
  const [made] = await tx<{ id: string }[]>`
    INSERT INTO companies (name, name_key) VALUES (${name}, ${nameKey})
    ON CONFLICT (name_key) WHERE domain IS NULL DO NOTHING
    RETURNING id`;
  if (made) return made.id;
  const [held] = await tx<{ id: string }[]>`
    SELECT id FROM companies WHERE name_key = ${nameKey} AND domain IS NULL`;
  return held.id;
}

/**
 * Whether `url` is free for `personId`: nobody holds it, or a profile-only record (no address)
 * does, which is then folded away. A record with addresses keeps its URL.
 */
async function releaseProfileUrl(
  tx: TransactionSql,
  url: string,
  personId: string,
): Promise<boolean> {
  const [holder] = await tx<{ id: string; has_emails: boolean }[]>`
    SELECT p.id, EXISTS (SELECT 1 FROM person_emails e WHERE e.person_id = p.id) AS has_emails
      FROM people p
     WHERE p.network_url = ${url} AND p.id <> ${personId}
       FOR UPDATE`;
  if (!holder) return true;
  if (holder.has_emails) return false;
  await tx`DELETE FROM people WHERE id = ${holder.id}`;
  return true;
}
