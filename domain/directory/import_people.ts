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
import { z } from "zod";
import type { ProfileNetwork } from "../shared/profile_network.ts";
import type { Sql, TransactionSql } from "../stores/database.ts";
import {
  EMAIL_STATUSES,
  type EmailStatus,
  HEADCOUNT_RANGES,
  type HeadcountRange,
} from "./directory_person.ts";
import {
  companyDomainOf,
  foldName,
  normalizeCompanyName,
  normalizeNetworkUrl,
} from "./normalize.ts";

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`).nullish();

const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const emailAddress = z.string().max(320).refine(
  (v) => EMAIL_ADDRESS.test(v.trim()),
  "is not an email address",
);

/**
 * One line of an import file (its JSON shape; only `name` is required). The schema checks types
 * and sizes; `parseImportRecord` then trims, lower-cases and normalizes (transforms inside the
 * schema cost about twice the time on a 100k-line file).
 */
export const importLineSchema = z.object({
  name: z.string().max(300, "must be at most 300 characters"),
  /** Given name and surname as known; otherwise the importer's name splitter is asked. */
  given: text(200),
  surname: text(200),
  title: text(300),
  seniority: text(100),
  companyName: text(300),
  companyAliases: z.array(z.string().max(300)).max(50).nullish(),
  companyDomain: text(300),
  companyLocation: text(300),
  industry: text(200),
  /** A range (`51-200`) or a number of employees. */
  headcount: z.union([z.enum(HEADCOUNT_RANGES), z.number().int().positive()], {
    error: `must be one of ${HEADCOUNT_RANGES.join(", ")} or a positive integer`,
  }).nullish(),
  location: text(300),
  headline: text(500),
  networkUrl: text(1000),
  keywords: z.array(z.string().max(100)).max(100).nullish(),
  emails: z.array(z.object({
    address: emailAddress,
    status: z.enum(EMAIL_STATUSES as ["valid", "invalid", "catch-all", "unknown"]).nullish(),
    verifiedAt: z.string().max(100).nullish(),
  })).max(50).nullish(),
  channels: z.object({
    x: text(200),
    telegram: text(200),
    emails: z.array(emailAddress).max(50).nullish(),
  }).nullish(),
});

/** What an import line may say. */
export type ImportRecordInput = z.input<typeof importLineSchema>;

/** A validated, normalized import record. */
export interface ImportRecord {
  /** Trimmed, inner whitespace collapsed. */
  name: string;
  /** Both or neither. */
  given: string | null;
  surname: string | null;
  title: string | null;
  seniority: string | null;
  companyName: string | null;
  companyAliases: string[];
  /** The registrable domain (companyDomainOf). */
  companyDomain: string | null;
  companyLocation: string | null;
  industry: string | null;
  headcount: HeadcountRange | null;
  location: string | null;
  headline: string | null;
  /** normalizeNetworkUrl (a profile of the configured network in its canonical form). */
  networkUrl: string | null;
  /** Lower case, distinct; null when the record does not say. */
  keywords: string[] | null;
  emails: { address: string; status: EmailStatus; verifiedAt: string | null }[];
  channels: { x: string | null; telegram: string | null; emails: string[] } | null;
}

export type ParsedRecord = { ok: true; record: ImportRecord } | { ok: false; message: string };

/** Validates and normalizes one record; the message names each wrong field (`emails.0.status: …`). */
export function parseImportRecord(value: unknown, network?: ProfileNetwork): ParsedRecord {
  const result = importLineSchema.safeParse(value);
  if (!result.success) {
    return {
      ok: false,
      message: result.error.issues.slice(0, 3).map((issue) => {
        const path = issue.path.map(String).join(".");
        return path ? `${path}: ${issue.message}` : issue.message;
      }).join("; "),
    };
  }
  const r = result.data;
  const problems: string[] = [];
  const name = clean(r.name);
  if (!name || !HAS_VISIBLE.test(name)) problems.push("name: is required");
  const given = clean(r.given);
  const surname = clean(r.surname);
  if ((given === null) !== (surname === null)) {
    problems.push("given: given and surname go together");
  }
  const companyName = clean(r.companyName);
  if (companyName !== null && !HAS_WORD.test(companyName)) {
    problems.push("companyName: has no letters or digits");
  }
  const rawDomain = clean(r.companyDomain);
  const companyDomain = rawDomain === null ? null : companyDomainOf(rawDomain);
  if (rawDomain !== null && companyDomain === null) problems.push("companyDomain: is not a domain");
  const rawUrl = clean(r.networkUrl);
  const networkUrl = rawUrl === null ? null : normalizeNetworkUrl(rawUrl, network);
  if (rawUrl !== null && networkUrl === null) problems.push("networkUrl: is not an http(s) URL");
  const emails: ImportRecord["emails"] = [];
  (r.emails ?? []).forEach((e, i) => {
    let verifiedAt: string | null = null;
    if (e.verifiedAt) {
      const ms = Date.parse(e.verifiedAt);
      if (Number.isNaN(ms)) problems.push(`emails.${i}.verifiedAt: is not a date-time`);
      else verifiedAt = new Date(ms).toISOString();
    }
    emails.push({
      address: e.address.trim().toLowerCase(),
      status: e.status ?? "unknown",
      verifiedAt,
    });
  });
  if (problems.length) return { ok: false, message: problems.slice(0, 3).join("; ") };
  return {
    ok: true,
    record: {
      name: name!,
      given,
      surname,
      title: clean(r.title),
      seniority: clean(r.seniority),
      companyName,
      companyAliases: (r.companyAliases ?? []).map(clean).filter((a): a is string =>
        a !== null && HAS_WORD.test(a)
      ),
      companyDomain,
      companyLocation: clean(r.companyLocation),
      industry: clean(r.industry),
      headcount: typeof r.headcount === "number" ? headcountOf(r.headcount) : r.headcount ?? null,
      location: clean(r.location),
      headline: clean(r.headline),
      networkUrl,
      keywords: r.keywords
        ? [...new Set(r.keywords.map((k) => k.trim().toLowerCase()).filter(Boolean))]
        : null,
      emails,
      channels: r.channels
        ? {
          x: clean(r.channels.x),
          telegram: clean(r.channels.telegram),
          emails: [...new Set((r.channels.emails ?? []).map((e) => e.trim().toLowerCase()))],
        }
        : null,
    },
  };
}

/** Trimmed with inner whitespace collapsed; null for absent or blank. */
function clean(value: string | null | undefined): string | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (!trimmed) return null;
  return /\s\s|[^\S ]/.test(trimmed) ? trimmed.replace(/\s+/g, " ") : trimmed;
}

/** A name folds to a non-empty key exactly when it has a character other than a space or mark. */
const HAS_VISIBLE = /[^\s\p{M}]/u;
/** A company name normalizes to a non-empty key exactly when it has a letter or digit. */
const HAS_WORD = /[\p{L}\p{N}]/u;

function headcountOf(n: number): HeadcountRange {
  const ranges: [number, HeadcountRange][] = [
    [10, "1-10"],
    [50, "11-50"],
    [200, "51-200"],
    [500, "201-500"],
    [1000, "501-1000"],
    [5000, "1001-5000"],
    [10000, "5001-10000"],
  ];
  return ranges.find(([max]) => n <= max)?.[1] ?? "10001+";
}

/** Parses and validates one line of a JSON-lines file. */
export function parseImportLine(line: string, network?: ProfileNetwork): ParsedRecord {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { ok: false, message: `invalid JSON: ${(error as Error).message}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, message: "a line must be a JSON object" };
  }
  return parseImportRecord(value, network);
}

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

export interface ImportPeopleResult {
  /** Records written (each a created or matched person). */
  records: number;
  /** People made. */
  created: number;
  /** Existing people whose record or addresses changed. */
  updated: number;
  /** Existing people the records left as they were. */
  unchanged: number;
  companiesCreated: number;
  companiesUpdated: number;
}

export async function importPeople(
  sql: Sql,
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
    const result = await sql.begin((tx) => importBatch(tx, batch, options.source ?? "import"));
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

interface CompanyEntry {
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

interface CompanyRef {
  id: string;
  domain: string | null;
  nameKey: string;
}

/** normalizeCompanyName, remembered: a file names each company many times. */
function companyNameKeys(): (name: string) => string {
  const seen = new Map<string, string>();
  return (name) => {
    let key = seen.get(name);
    if (key === undefined) seen.set(name, key = normalizeCompanyName(name));
    return key;
  };
}

function companyEntryKey(r: ImportRecord, nameKey: (name: string) => string): string | null {
  if (r.companyDomain) return `d:${r.companyDomain}`;
  if (r.companyName) return `n:${nameKey(r.companyName)}`;
  return null;
}

function union(a: readonly string[], b: readonly string[]): string[] {
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
function companyEntries(
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
async function upsertCompanies(
  tx: TransactionSql,
  entries: CompanyEntry[],
  counts: ImportPeopleResult,
  depth = 0,
): Promise<Map<number, CompanyRef>> {
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
      const again = await upsertCompanies(tx, lost, counts, depth + 1);
      for (const [i, ref] of again) refs.set(i, ref);
    }
  }
  return refs;
}

// ─── People ─────────────────────────────────────────────────────────────────

interface PersonEntry {
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

function personEntry(r: ImportRecord, company: CompanyRef | null): PersonEntry {
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
function mergePerson(a: PersonEntry, b: PersonEntry): PersonEntry {
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

const personJson = (p: PersonEntry, id: string | null) => ({
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

type Match = { id: string; via: "url" | "key" | "name" };

async function matchPeople(tx: TransactionSql, entries: PersonEntry[]): Promise<(Match | null)[]> {
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
  const refs = await upsertCompanies(tx, [...companies.values()], counts);
  const entries = batch.map((r) => {
    const key = companyEntryKey(r, nameKey);
    return personEntry(r, key ? refs.get(companies.get(key)!.i)! : null);
  });
  const matches = await matchPeople(tx, entries);

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
function asJson(tx: TransactionSql, value: unknown) {
  return tx.json(value as never);
}
