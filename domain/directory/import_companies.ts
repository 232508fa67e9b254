/**
 * The companies of an import batch: folded into one entry per company, matched to stored
 * companies (by domain, else by normal name), and written in a few set-based statements.
 */
import type { TransactionSql } from "../stores/database.ts";
import type { TxContext } from "../context.ts";
import type { ImportRecord } from "./import_record.ts";
import { asJson } from "./sql_json.ts";
import { normalizeCompanyName } from "./normalize.ts";

export interface CompanyEntry {
  /** Position in this batch's list of companies. */
  i: number;
  /** The name the record stated, or null when it stated only a domain. */
  name: string | null;
  /** The name a new company gets (the stated name, else the domain). */
  insertName: string;
  nameKey: string;
  domain: string | null;
  aliases: string[];
  aliasKeys: string[];
  industry: string | null;
  headcount: string | null;
  location: string | null;
}

/** What an import did to the stored companies (part of `ImportPeopleResult`). */
export interface CompanyCounts {
  companiesCreated: number;
  companiesUpdated: number;
}

export interface CompanyRef {
  id: string;
  domain: string | null;
  nameKey: string;
}

/** normalizeCompanyName, remembered: a file names each company many times. */
export function companyNameKeys(): (name: string) => string {
  const seen = new Map<string, string>();
  return (name) => {
    let key = seen.get(name);
    if (key === undefined) seen.set(name, key = normalizeCompanyName(name));
    return key;
  };
}

export function companyEntryKey(r: ImportRecord, nameKey: (name: string) => string): string | null {
  if (r.companyDomain) return `d:${r.companyDomain}`;
  if (r.companyName) return `n:${nameKey(r.companyName)}`;
  return null;
}

export function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}

/** A later record of the same company: the fields it states win, aliases add up. */
function mergeCompany(prev: CompanyEntry, next: CompanyEntry): CompanyEntry {
  return {
    i: prev.i,
    name: next.name ?? prev.name,
    insertName: next.name ? next.insertName : prev.insertName,
    nameKey: next.name ? next.nameKey : prev.nameKey,
    domain: prev.domain ?? next.domain,
    aliases: union(prev.aliases, next.aliases),
    aliasKeys: union(prev.aliasKeys, next.aliasKeys),
    industry: next.industry ?? prev.industry,
    headcount: next.headcount ?? prev.headcount,
    location: next.location ?? prev.location,
  };
}

/** The batch's companies, one entry per domain (or normal name), later records overriding. */
export function companyEntries(
  batch: readonly ImportRecord[],
  nameKey: (name: string) => string,
): Map<string, CompanyEntry> {
  const entries = new Map<string, CompanyEntry>();
  for (const r of batch) {
    const key = companyEntryKey(r, nameKey);
    if (!key) continue;
    const insertName = r.companyName ?? r.companyDomain!;
    const next: CompanyEntry = {
      i: entries.size,
      name: r.companyName,
      insertName,
      nameKey: nameKey(insertName),
      domain: r.companyDomain,
      aliases: r.companyAliases,
      aliasKeys: [...new Set(r.companyAliases.map(nameKey))],
      industry: r.industry,
      headcount: r.headcount,
      location: r.companyLocation,
    };
    const prev = entries.get(key);
    entries.set(key, prev ? mergeCompany(prev, next) : next);
  }
  return entries;
}

async function matchCompanies(
  tx: TransactionSql,
  entries: CompanyEntry[],
): Promise<Map<number, string>> {
  const rows = await tx<{ i: number; id: string | null }[]>`
    SELECT r.i, coalesce(by_domain.id, adopted.id, by_name.id) AS id
      FROM jsonb_to_recordset(${
    asJson(
      tx,
      entries.map((e) => ({
        i: e.i,
        domain: e.domain,
        name_key: e.nameKey,
        // Only a stated name lets a domain-less company of that name take the domain.
        adopt_key: e.name === null ? null : e.nameKey,
      })),
    )
  }::jsonb) AS r(i int, domain text, name_key text, adopt_key text)
      LEFT JOIN LATERAL (SELECT c.id FROM companies c WHERE c.domain = r.domain) by_domain ON true
      LEFT JOIN LATERAL (
        SELECT c.id FROM companies c
         WHERE c.domain IS NULL AND c.name_key = r.adopt_key
           AND r.domain IS NOT NULL AND by_domain.id IS NULL
      ) adopted ON true
      LEFT JOIN LATERAL (
        SELECT c.id FROM companies c
         WHERE c.name_key = r.name_key AND r.domain IS NULL
         ORDER BY (c.domain IS NOT NULL) DESC, c.created_at, c.id
         LIMIT 1
      ) by_name ON true`;
  const matched = new Map<number, string>();
  for (const row of rows) if (row.id) matched.set(row.i, row.id);
  return matched;
}

const companyJson = (e: CompanyEntry & { id?: string }) => ({
  id: e.id ?? null,
  name: e.name,
  insert_name: e.insertName,
  name_key: e.nameKey,
  domain: e.domain,
  aliases: e.aliases,
  alias_keys: e.aliasKeys,
  industry: e.industry,
  headcount: e.headcount,
  location: e.location,
});

/** Upserts the batch's companies; returns each entry's company. */
export async function upsertCompanies(
  ctx: TxContext,
  entries: CompanyEntry[],
  counts: CompanyCounts,
  depth = 0,
): Promise<Map<number, CompanyRef>> {
  const { tx } = ctx;
  const refs = new Map<number, CompanyRef>();
  if (entries.length === 0) return refs;
  const matched = await matchCompanies(tx, entries);
  // One entry per company: a domain-less company adopted by two domains goes to the first.
  const byCompany = new Map<string, { merged: CompanyEntry; members: CompanyEntry[] }>();
  const inserts: CompanyEntry[] = [];
  for (const e of entries) {
    const id = matched.get(e.i);
    const claim = id ? byCompany.get(id) : undefined;
    if (!id || (claim?.merged.domain && e.domain && claim.merged.domain !== e.domain)) {
      inserts.push(e);
    } else if (claim) {
      claim.merged = mergeCompany(claim.merged, e);
      claim.members.push(e);
    } else byCompany.set(id, { merged: e, members: [e] });
  }
  const updates = [...byCompany].map(([id, { merged }]) => ({ ...merged, id }));

  if (updates.length) {
    const changed = await tx<{ id: string }[]>`
      UPDATE companies c
         SET name = n.name, name_key = n.name_key, aliases = n.aliases, alias_keys = n.alias_keys,
             domain = n.domain, industry = n.industry, headcount = n.headcount,
             location = n.location, updated_at = now()
        FROM (
          SELECT o.id,
                 coalesce(r.name, o.name) AS name,
                 CASE WHEN r.name IS NULL THEN o.name_key ELSE r.name_key END AS name_key,
                 ARRAY(SELECT a FROM unnest(o.aliases || r.aliases) WITH ORDINALITY u(a, k)
                        GROUP BY a ORDER BY min(k)) AS aliases,
                 ARRAY(SELECT a FROM unnest(o.alias_keys || r.alias_keys) WITH ORDINALITY u(a, k)
                        GROUP BY a ORDER BY min(k)) AS alias_keys,
                 coalesce(o.domain, r.domain) AS domain,
                 coalesce(r.industry, o.industry) AS industry,
                 coalesce(r.headcount, o.headcount) AS headcount,
                 coalesce(r.location, o.location) AS location
            FROM jsonb_to_recordset(${asJson(tx, updates.map(companyJson))}::jsonb)
                 AS r(id text, name text, name_key text, aliases text[], alias_keys text[],
                      domain text, industry text, headcount text, location text)
            JOIN companies o ON o.id = r.id
        ) n
       WHERE c.id = n.id
         AND (c.name, c.name_key, c.aliases, c.alias_keys, c.domain, c.industry, c.headcount,
              c.location)
             IS DISTINCT FROM
             (n.name, n.name_key, n.aliases, n.alias_keys, n.domain, n.industry, n.headcount,
              n.location)
      RETURNING c.id`;
    counts.companiesUpdated += new Set(changed.map((r) => r.id)).size;
    const stored = await tx<{ id: string; domain: string | null; name_key: string }[]>`
      SELECT id, domain, name_key FROM companies WHERE id = ANY(${
      updates.map((u) => u.id)
    }::text[])`;
    const byId = new Map(stored.map((s) => [s.id, s]));
    for (const [id, { members }] of byCompany) {
      const s = byId.get(id)!;
      for (const e of members) refs.set(e.i, { id: s.id, domain: s.domain, nameKey: s.name_key });
    }
  }

  if (inserts.length) {
    const made = await tx<{ id: string; domain: string | null; name_key: string }[]>`
      INSERT INTO companies (name, name_key, aliases, alias_keys, domain, industry, headcount,
                             location)
      SELECT r.insert_name, r.name_key, coalesce(r.aliases, '{}'), coalesce(r.alias_keys, '{}'),
             r.domain, r.industry, r.headcount, r.location
        FROM jsonb_to_recordset(${asJson(tx, inserts.map(companyJson))}::jsonb)
             AS r(insert_name text, name_key text, aliases text[], alias_keys text[], domain text,
                  industry text, headcount text, location text)
      ON CONFLICT DO NOTHING
      RETURNING id, domain, name_key`;
    counts.companiesCreated += made.length;
    const byDomain = new Map(made.filter((m) => m.domain).map((m) => [m.domain!, m]));
    const byName = new Map(made.filter((m) => !m.domain).map((m) => [m.name_key, m]));
    const lost: CompanyEntry[] = [];
    for (const e of inserts) {
      const m = e.domain ? byDomain.get(e.domain) : byName.get(e.nameKey);
      if (m) refs.set(e.i, { id: m.id, domain: m.domain, nameKey: m.name_key });
      else lost.push(e);
    }
    // Made by someone else meanwhile (or two entries adopting one company): take it as found.
    if (lost.length) {
      if (depth >= 3) throw new Error("import: companies could neither be found nor made");
      const again = await upsertCompanies(ctx, lost, counts, depth + 1);
      for (const [i, ref] of again) refs.set(i, ref);
    }
  }
  return refs;
}

// ─── People ─────────────────────────────────────────────────────────────────
