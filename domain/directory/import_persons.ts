/**
 * The people of an import batch: one entry per person (later records of the same person merged
 * in), and their match among stored people (profile URL, else dedupe key, else folded name at the
 * same company).
 */
import type { TxContext } from "../context.ts";
import { type CompanyRef, union } from "./import_companies.ts";
import { asJson } from "./sql_json.ts";
import type { ImportRecord } from "./import_record.ts";
import { foldName } from "./normalize.ts";

export interface PersonEntry {
  fullName: string;
  nameKey: string;
  given: string | null;
  surname: string | null;
  gsKey: string | null;
  title: string | null;
  seniority: string | null;
  companyId: string | null;
  location: string | null;
  headline: string | null;
  networkUrl: string | null;
  keywords: string[] | null;
  x: string | null;
  telegram: string | null;
  channelEmails: string[];
  /** The person's key when new: the profile URL, else `name@domain`. */
  dedupeKey: string;
  /** The name-based key (also for a record with a URL: the person it may upgrade). */
  nameDedupeKey: string;
  emails: Map<string, { status: string; verifiedAt: string | null }>;
}

export function personEntry(r: ImportRecord, company: CompanyRef | null): PersonEntry {
  const nameKey = foldName(r.name);
  const nameDedupeKey = `${nameKey}@${company ? (company.domain ?? company.nameKey) : ""}`;
  return {
    fullName: r.name,
    nameKey,
    given: r.given,
    surname: r.surname,
    gsKey: r.given && r.surname ? foldName(`${r.given} ${r.surname}`) : null,
    title: r.title,
    seniority: r.seniority,
    companyId: company?.id ?? null,
    location: r.location,
    headline: r.headline,
    networkUrl: r.networkUrl,
    keywords: r.keywords,
    x: r.channels?.x ?? null,
    telegram: r.channels?.telegram ?? null,
    channelEmails: r.channels?.emails ?? [],
    dedupeKey: r.networkUrl ?? nameDedupeKey,
    nameDedupeKey,
    emails: new Map(r.emails.map((e) => [e.address, e])),
  };
}

/** A later record of the same person: the fields it states win. */
export function mergePerson(a: PersonEntry, b: PersonEntry): PersonEntry {
  const split = b.given !== null;
  return {
    fullName: b.fullName,
    nameKey: b.nameKey,
    given: split ? b.given : a.given,
    surname: split ? b.surname : a.surname,
    gsKey: split ? b.gsKey : a.gsKey,
    title: b.title ?? a.title,
    seniority: b.seniority ?? a.seniority,
    companyId: b.companyId ?? a.companyId,
    location: b.location ?? a.location,
    headline: b.headline ?? a.headline,
    networkUrl: b.networkUrl ?? a.networkUrl,
    keywords: b.keywords ?? a.keywords,
    x: b.x ?? a.x,
    telegram: b.telegram ?? a.telegram,
    channelEmails: union(a.channelEmails, b.channelEmails),
    dedupeKey: b.networkUrl ? b.dedupeKey : a.dedupeKey,
    nameDedupeKey: a.nameDedupeKey,
    emails: new Map([...a.emails, ...b.emails]),
  };
}

export const personJson = (p: PersonEntry, id: string | null) => ({
  id,
  full_name: p.fullName,
  name_key: p.nameKey,
  given: p.given,
  surname: p.surname,
  gs_key: p.gsKey,
  title: p.title,
  seniority: p.seniority,
  company_id: p.companyId,
  location: p.location,
  headline: p.headline,
  network_url: p.networkUrl,
  keywords: p.keywords,
  x: p.x,
  telegram: p.telegram,
  channel_emails: p.channelEmails,
  dedupe_key: p.dedupeKey,
});

export type Match = { id: string; via: "url" | "key" | "name" };

export async function matchPeople(
  ctx: TxContext,
  entries: PersonEntry[],
): Promise<(Match | null)[]> {
  const { tx } = ctx;
  const rows = await tx<{ i: number; id: string | null; via: Match["via"] | null }[]>`
    SELECT r.i, coalesce(by_url.id, by_key.id, by_name.id) AS id,
           CASE WHEN by_url.id IS NOT NULL THEN 'url'
                WHEN by_key.id IS NOT NULL THEN 'key'
                WHEN by_name.id IS NOT NULL THEN 'name' END AS via
      FROM jsonb_to_recordset(${
    asJson(
      tx,
      entries.map((p, i) => ({
        i,
        url: p.networkUrl,
        name_dedupe_key: p.nameDedupeKey,
        name_key: p.nameKey,
        company_id: p.companyId,
      })),
    )
  }::jsonb) AS r(i int, url text, name_dedupe_key text, name_key text, company_id text)
      LEFT JOIN LATERAL (SELECT p.id FROM people p WHERE p.network_url = r.url) by_url ON true
      LEFT JOIN LATERAL (
        SELECT p.id FROM people p
         WHERE p.dedupe_key = r.name_dedupe_key AND by_url.id IS NULL
      ) by_key ON true
      LEFT JOIN LATERAL (
        SELECT p.id FROM people p
         WHERE p.company_id = r.company_id AND p.name_key = r.name_key
           AND (r.url IS NULL OR p.network_url IS NULL)
           AND by_url.id IS NULL AND by_key.id IS NULL
         ORDER BY (p.network_url IS NULL) DESC, p.created_at, p.id
         LIMIT 1
      ) by_name ON true`;
  const out: (Match | null)[] = entries.map(() => null);
  for (const row of rows) if (row.id && row.via) out[row.i] = { id: row.id, via: row.via };
  return out;
}
