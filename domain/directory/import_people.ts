/**
 * Loads people (and their companies) into the directory from records of the JSON-lines import
 * shape, idempotently: importing the same records again changes nothing, and a later record of
 * the same person updates the fields it states (absent fields keep their values; keywords are
 * replaced; addresses and associated channels are added to).
 *
 * A record is the same person as a stored one when it has the same profile URL; else the same
 * dedupe key (folded name `@` the company's domain, or its normal name when it has none); else the
 * same folded name at the same company (so a record without a URL reaches the person imported with
 * one, and a record with a URL upgrades the one imported without). A company is the one with the
 * record's domain (or a company of the same normal name with no domain yet, which takes the
 * domain); without a domain, one of the same normal name (one with a domain first).
 *
 * Records are written in batches (`batchSize`, default 1,000): a handful of set-based statements
 * per batch, each batch in one transaction.
 */
import type { TransactionSql } from "../stores/database.ts";
import type { DbContext } from "../context.ts";
import {
  type CompanyCounts,
  companyEntries,
  companyEntryKey,
  companyNameKeys,
  upsertCompanies,
} from "./import_companies.ts";
import {
  matchPeople,
  mergePerson,
  type PersonEntry,
  personEntry,
  personJson,
} from "./import_persons.ts";
import { asJson } from "./sql_json.ts";
import type { ImportRecord } from "./import_record.ts";

export {
  importLineSchema,
  type ImportRecord,
  type ImportRecordInput,
  type ParsedRecord,
  parseImportLine,
  parseImportRecord,
} from "./import_record.ts";

export interface NameSplit {
  given: string;
  surname: string;
}

export interface ImportPeopleOptions {
  /**
   * Splits the full names of the records that carry no given/surname, one answer per name in
   * order (null: cannot be split). Without it such people are stored without given/surname.
   */
  splitNames?: (fullNames: string[]) => Promise<(NameSplit | null)[]> | (NameSplit | null)[];
  /** Records per set of statements (default 1,000). */
  batchSize?: number;
  /** The `source` stored with each imported address (default `import`). */
  source?: string;
}

export interface ImportPeopleResult extends CompanyCounts {
  /** Records written (each a created or matched person). */
  records: number;
  /** People made. */
  created: number;
  /** Existing people whose record or addresses changed. */
  updated: number;
  /** Existing people the records left as they were. */
  unchanged: number;
}

export async function importPeople(
  ctx: DbContext,
  records: readonly ImportRecord[],
  options: ImportPeopleOptions = {},
): Promise<ImportPeopleResult> {
  const total: ImportPeopleResult = {
    records: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    companiesCreated: 0,
    companiesUpdated: 0,
  };
  const batchSize = Math.max(1, options.batchSize ?? 1000);
  for (let start = 0; start < records.length; start += batchSize) {
    const batch = await withSplits(records.slice(start, start + batchSize), options.splitNames);
    const result = await ctx.db.sql.begin((tx) =>
      importBatch(tx, batch, options.source ?? "import")
    );
    for (const key of Object.keys(total) as (keyof ImportPeopleResult)[]) {
      total[key] += result[key];
    }
  }
  return total;
}

async function withSplits(
  records: ImportRecord[],
  splitNames: ImportPeopleOptions["splitNames"],
): Promise<ImportRecord[]> {
  const missing = records.map((r, i) => r.given === null ? i : -1).filter((i) => i >= 0);
  if (!splitNames || missing.length === 0) return records;
  const splits = await splitNames(missing.map((i) => records[i].name));
  const out = records.slice();
  missing.forEach((index, k) => {
    const split = splits[k];
    if (split?.given?.trim() && split.surname?.trim()) {
      out[index] = { ...out[index], given: split.given.trim(), surname: split.surname.trim() };
    }
  });
  return out;
}

// ─── Companies ──────────────────────────────────────────────────────────────

async function importBatch(
  tx: TransactionSql,
  batch: readonly ImportRecord[],
  source: string,
  depth = 0,
): Promise<ImportPeopleResult> {
  const counts: ImportPeopleResult = {
    records: batch.length,
    created: 0,
    updated: 0,
    unchanged: 0,
    companiesCreated: 0,
    companiesUpdated: 0,
  };
  const nameKey = companyNameKeys();
  const companies = companyEntries(batch, nameKey);
  const refs = await upsertCompanies({ tx }, [...companies.values()], counts);
  const entries = batch.map((r) => {
    const key = companyEntryKey(r, nameKey);
    return personEntry(r, key ? refs.get(companies.get(key)!.i)! : null);
  });
  const matches = await matchPeople({ tx }, entries);

  // Group the records by the person they are: an existing one, or a new one by its dedupe key.
  const existing = new Map<string, PersonEntry>();
  const fresh = new Map<string, PersonEntry>();
  const urlOf = new Map<string, string | null>();
  entries.forEach((entry, i) => {
    let match = matches[i];
    // A person without a URL is upgraded by one record with a URL, not by two different ones.
    if (match && match.via !== "url" && entry.networkUrl) {
      const claimed = urlOf.get(match.id);
      if (claimed && claimed !== entry.networkUrl) match = null;
    }
    if (match) {
      if (entry.networkUrl) urlOf.set(match.id, entry.networkUrl);
      const prev = existing.get(match.id);
      existing.set(match.id, prev ? mergePerson(prev, entry) : entry);
    } else {
      const prev = fresh.get(entry.dedupeKey);
      fresh.set(entry.dedupeKey, prev ? mergePerson(prev, entry) : entry);
    }
  });

  const changed = new Set<string>();
  if (existing.size) {
    const rows = await tx<{ id: string }[]>`
      UPDATE people p
         SET full_name = n.full_name, name_key = n.name_key, given = n.given,
             surname = n.surname, gs_key = n.gs_key, title = n.title, seniority = n.seniority,
             company_id = n.company_id, location = n.location, headline = n.headline,
             network_url = n.network_url, keywords = n.keywords, channels = n.channels,
             dedupe_key = n.dedupe_key, updated_at = now()
        FROM (
          SELECT o.id, r.full_name, r.name_key,
                 CASE WHEN r.given IS NULL THEN o.given ELSE r.given END AS given,
                 CASE WHEN r.given IS NULL THEN o.surname ELSE r.surname END AS surname,
                 CASE WHEN r.given IS NULL THEN o.gs_key ELSE r.gs_key END AS gs_key,
                 coalesce(r.title, o.title) AS title,
                 coalesce(r.seniority, o.seniority) AS seniority,
                 coalesce(r.company_id, o.company_id) AS company_id,
                 coalesce(r.location, o.location) AS location,
                 coalesce(r.headline, o.headline) AS headline,
                 coalesce(r.network_url, o.network_url) AS network_url,
                 coalesce(r.keywords, o.keywords) AS keywords,
                 jsonb_build_object(
                   'x', coalesce(r.x, o.channels ->> 'x'),
                   'telegram', coalesce(r.telegram, o.channels ->> 'telegram'),
                   'emails', (
                     SELECT coalesce(jsonb_agg(s.e ORDER BY s.k), '[]'::jsonb)
                       FROM (SELECT u.e, min(u.k) AS k
                               FROM jsonb_array_elements_text(
                                      coalesce(o.channels -> 'emails', '[]'::jsonb)
                                      || coalesce(r.channel_emails, '[]'::jsonb)
                                    ) WITH ORDINALITY u(e, k)
                              GROUP BY u.e) s)
                 ) AS channels,
                 coalesce(r.network_url, o.dedupe_key) AS dedupe_key
            FROM jsonb_to_recordset(${
      asJson(tx, [...existing].map(([id, p]) => personJson(p, id)))
    }::jsonb) AS r(id text, full_name text, name_key text, given text, surname text,
                   gs_key text, title text, seniority text, company_id text, location text,
                   headline text, network_url text, keywords text[], x text, telegram text,
                   channel_emails jsonb)
            JOIN people o ON o.id = r.id
        ) n
       WHERE p.id = n.id
         AND (p.full_name, p.name_key, p.given, p.surname, p.gs_key, p.title, p.seniority,
              p.company_id, p.location, p.headline, p.network_url, p.keywords, p.channels,
              p.dedupe_key)
             IS DISTINCT FROM
             (n.full_name, n.name_key, n.given, n.surname, n.gs_key, n.title, n.seniority,
              n.company_id, n.location, n.headline, n.network_url, n.keywords, n.channels,
              n.dedupe_key)
      RETURNING p.id`;
    for (const row of rows) changed.add(row.id);
  }

  const ids = new Map<PersonEntry, string>([...existing].map(([id, p]) => [p, id]));
  if (fresh.size) {
    const made = await tx<{ id: string; dedupe_key: string }[]>`
      INSERT INTO people (full_name, name_key, given, surname, gs_key, title, seniority,
                          company_id, location, headline, network_url, keywords, channels,
                          dedupe_key)
      SELECT r.full_name, r.name_key, r.given, r.surname, r.gs_key, r.title, r.seniority,
             r.company_id, r.location, r.headline, r.network_url, coalesce(r.keywords, '{}'),
             jsonb_build_object('x', r.x, 'telegram', r.telegram,
                                'emails', coalesce(r.channel_emails, '[]'::jsonb)),
             r.dedupe_key
        FROM jsonb_to_recordset(${
      asJson(tx, [...fresh.values()].map((p) => personJson(p, null)))
    }::jsonb) AS r(full_name text, name_key text, given text, surname text, gs_key text,
                   title text, seniority text, company_id text, location text, headline text,
                   network_url text, keywords text[], x text, telegram text,
                   channel_emails jsonb, dedupe_key text)
      ON CONFLICT DO NOTHING
      RETURNING id, dedupe_key`;
    counts.created += made.length;
    const byKey = new Map(made.map((m) => [m.dedupe_key, m.id]));
    const lost = new Set<string>();
    for (const [key, p] of fresh) {
      const id = byKey.get(key);
      if (id) ids.set(p, id);
      else lost.add(key);
    }
    if (lost.size) {
      // Someone else made these people meanwhile: write their records again, now as found.
      if (depth >= 3) throw new Error("import: people could neither be found nor made");
      const records = batch.filter((_, i) => lost.has(entries[i].dedupeKey));
      const again = await importBatch(tx, records, source, depth + 1);
      counts.updated += again.updated;
      counts.unchanged += again.unchanged;
      counts.created += again.created;
      counts.companiesCreated += again.companiesCreated;
      counts.companiesUpdated += again.companiesUpdated;
    }
  }

  const emailRows = [...ids].flatMap(([p, id]) =>
    [...p.emails].map(([address, e]) => ({
      person_id: id,
      address,
      status: e.status,
      verified_at: e.verifiedAt,
    }))
  );
  if (emailRows.length) {
    const rows = await tx<{ person_id: string }[]>`
      INSERT INTO person_emails (person_id, address, status, verified_at, source)
      SELECT r.person_id, r.address, r.status, r.verified_at, ${source}
        FROM jsonb_to_recordset(${asJson(tx, emailRows)}::jsonb)
             AS r(person_id text, address text, status text, verified_at timestamptz)
      ON CONFLICT (person_id, address) DO UPDATE
         SET status = excluded.status, verified_at = excluded.verified_at,
             source = excluded.source
       WHERE (person_emails.status, person_emails.verified_at)
             IS DISTINCT FROM (excluded.status, excluded.verified_at)
      RETURNING person_id`;
    for (const row of rows) if (existing.has(row.person_id)) changed.add(row.person_id);
  }
  counts.updated += changed.size;
  counts.unchanged += existing.size - changed.size;
  return counts;
}

/** A value sent as one jsonb parameter (the rows of a set-based statement). */
