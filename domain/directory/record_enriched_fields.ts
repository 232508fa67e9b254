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
    const known = row.field_sources ?? {};
    // A field is ours to write when the record lacks it or an earlier enrichment wrote it.
    const writable = (field: EnrichedField, current: string | null | undefined) =>
      input.sources[field] !== undefined && (current == null || field in known);
    const take = <T>(field: EnrichedField, current: T | null | undefined, value: T | undefined) => {
      if (value === undefined || !writable(field, current as string | null)) return current ?? null;
      if (value !== current) written.add(field);
      return value;
    };

    const { fields } = input;
    let given = row.given;
    let surname = row.surname;
    if (fields.given && fields.surname && writable("given", row.given)) {
      given = take("given", row.given, fields.given);
      surname = take("surname", row.surname, fields.surname);
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
    if (
      fields.companyName && row.company_id && row.company_name === row.company_domain &&
      companyDomainOf(input.email) === row.company_domain && input.sources.companyName &&
      normalizeCompanyName(fields.companyName)
    ) {
      await tx`
        UPDATE companies
           SET name = ${fields.companyName}, name_key = ${normalizeCompanyName(fields.companyName)},
               updated_at = now()
         WHERE id = ${row.company_id} AND name = domain`;
      written.add("companyName");
    }

    const sources = Object.fromEntries(
      [...written].map((field) => [field, input.sources[field]!]),
    );
    await tx`
      UPDATE people
         SET given = ${given}, surname = ${surname},
             gs_key = ${given && surname ? foldName(`${given} ${surname}`) : null},
             title = ${title}, location = ${location}, headline = ${headline},
             network_url = ${networkUrl},
             dedupe_key = CASE WHEN ${networkUrl}::text IS NULL THEN dedupe_key
                               ELSE ${networkUrl}::text END,
             channels = ${tx.json(channels as never)}::jsonb,
             field_sources = field_sources || ${tx.json(sources as never)}::jsonb,
             enriched_at = ${input.enrichedAt}, updated_at = now()
       WHERE id = ${input.personId}`;
    return [...written];
  });
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
