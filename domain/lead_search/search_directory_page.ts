/**
 * One page of a lead search: the directory's people matching a run's filters, in id order after
 * the run's cursor, leaving out everyone already delivered in the run's continuation chain.
 *
 * How each criterion matches (its members are alternatives; criteria all apply):
 * - `jobTitle`: every word of a member appears in the title (words as Postgres' `simple`
 *   text-search configuration splits them; case ignored): "sales manager" finds "Sales Manager,
 *   EMEA". Uses the GIN index on `to_tsvector('simple', title)`.
 * - `location`: the whole location, or its part before the first comma, equals the member, case
 *   ignored: "Berlin" and "berlin, germany" both find "Berlin, Germany".
 * - `company`: the company's name or one of its aliases, by normal name (case, punctuation,
 *   diacritics and legal forms ignored, as in find's company mode).
 * - `industry`: the company's industry equals the member, case ignored.
 * - `headcount`: the company's headcount range is the member (`51-200`, `10001+` …).
 * - `seniority`: the person's seniority equals the member (`entry`, `senior`, `manager`,
 *   `director`, `vp`, `cxo` in the demo data), case ignored.
 * - `keywords`: the person has at least one of the members as a keyword, case ignored.
 */
import type { Sql } from "../stores/database.ts";
import type { DbContext } from "../context.ts";
import { normalizeCompanyName } from "../directory/normalize.ts";
import { type LeadFilters, titleWords } from "./lead_search_run.ts";

export interface DirectoryLead {
  personId: string;
  name: string;
  title: string | null;
  company: string | null;
  location: string | null;
  networkUrl: string | null;
}

interface LeadRow {
  id: string;
  full_name: string;
  title: string | null;
  company: string | null;
  location: string | null;
  network_url: string | null;
}

/**
 * People read in id order before the search turns to the filters' indexes (see below). Measured
 * on 1M demo people (bench:leads): 10,000 made a rare title's pages 66 ms each (the title's
 * tsvector computed for every row of the window); 2,000 keeps common filters' pages at a few ms
 * and sends rare ones to the indexes, whose matches the paged search keeps for the next pages.
 */
const WINDOW = 2_000;

export interface PageQuery {
  filters: LeadFilters;
  chainId: string;
  after: string | null;
  limit: number;
}

export type DirectorySearch = (ctx: DbContext, input: PageQuery) => Promise<DirectoryLead[]>;

/** How many matching ids a selective search keeps for the run's next pages. */
const PREFETCH = 1000;

/** One page, statelessly (each call searches afresh). */
export async function searchDirectoryPage(
  ctx: DbContext,
  input: PageQuery,
): Promise<DirectoryLead[]> {
  return (await searchMatches(ctx.db.sql, input, input.limit, WINDOW)).leads;
}

/**
 * A search that remembers, for the page after the one it answered, the further matches a
 * selective search found (up to PREFETCH ids, in id order): a run whose filters match few people
 * pays for the index search once per PREFETCH matches instead of once per page. It answers from
 * memory only when asked for exactly that run, those filters and that cursor; otherwise (another
 * run, a cursor that moved elsewhere) it searches afresh. Leads are always read fresh by id.
 */
export function createPagedDirectorySearch(
  sizes: { window?: number; prefetch?: number } = {},
): DirectorySearch {
  const windowSize = sizes.window ?? WINDOW;
  const prefetch = sizes.prefetch ?? PREFETCH;
  let pending: { key: string; after: string | null; ids: string[]; complete: boolean } | null =
    null;
  const search: DirectorySearch = async (ctx, input) => {
    const { sql } = ctx.db;
    const key = `${input.chainId}\u0000${JSON.stringify(input.filters)}`;
    if (
      pending && pending.key === key && pending.after === input.after &&
      (pending.ids.length >= input.limit || pending.complete)
    ) {
      const ids = pending.ids.slice(0, input.limit);
      pending = ids.length
        ? { ...pending, after: ids[ids.length - 1], ids: pending.ids.slice(input.limit) }
        : null;
      const leads = await leadsByIds(sql, ids, input.chainId);
      if (leads.length === ids.length || ids.length === 0) return leads;
      // Someone was delivered meanwhile (not expected: one active run per chain): search afresh.
      pending = null;
      const after = ids[ids.length - 1];
      const more = await search(ctx, { ...input, after, limit: input.limit - leads.length });
      return [...leads, ...more];
    }
    pending = null;
    const found = await searchMatches(sql, input, prefetch, windowSize);
    if (found.more) {
      const last = found.leads[found.leads.length - 1]?.personId ?? input.after;
      pending = { key, after: last, ids: found.more.ids, complete: found.more.complete };
    }
    return found.leads;
  };
  return search;
}

async function leadsByIds(sql: Sql, ids: string[], chainId: string): Promise<DirectoryLead[]> {
  if (ids.length === 0) return [];
  const rows = await sql<LeadRow[]>`
    SELECT p.id, p.full_name, p.title, c.name AS company, p.location, p.network_url
      FROM people p LEFT JOIN companies c ON c.id = p.company_id
     WHERE p.id = ANY(${ids}::text[])
       AND NOT EXISTS (SELECT 1 FROM lead_search_results r
                        WHERE r.chain_id = ${chainId} AND r.person_id = p.id)
     ORDER BY p.id`;
  return rows.map(toLead);
}

/**
 * The page, and, when the filters' indexes were asked (a selective search), the further matching
 * ids after it (up to `fallbackLimit` matches in all) and whether they are all there are.
 */
async function searchMatches(
  sql: Sql,
  input: PageQuery,
  fallbackLimit: number,
  windowSize: number,
): Promise<{ leads: DirectoryLead[]; more: { ids: string[]; complete: boolean } | null }> {
  const f = input.filters;
  const where = [];
  if (f.jobTitle) {
    const query = f.jobTitle.map((m) => `(${titleWords(m).join(" & ")})`).join(" | ");
    where.push(sql`to_tsvector('simple'::regconfig, coalesce(p.title, ''))
                     @@ to_tsquery('simple'::regconfig, ${query})`);
  }
  if (f.location) {
    const lowered = f.location.map((m) => m.toLowerCase());
    // Both halves are indexed (005's people_location, 009's people_location_city).
    where.push(sql`(lower(p.location) = ANY(${lowered}::text[])
                    OR lower(split_part(p.location, ',', 1)) = ANY(${lowered}::text[]))`);
  }
  if (f.company) {
    const keys = [...new Set(f.company.map(normalizeCompanyName).filter(Boolean))];
    where.push(sql`p.company_id IN (
      SELECT id FROM companies WHERE name_key = ANY(${keys}::text[])
      UNION SELECT id FROM companies WHERE alias_keys && ${keys}::text[])`);
  }
  if (f.industry) {
    const lowered = f.industry.map((m) => m.toLowerCase());
    where.push(sql`p.company_id IN (
      SELECT id FROM companies WHERE lower(industry) = ANY(${lowered}::text[]))`);
  }
  if (f.headcount) {
    where.push(sql`p.company_id IN (
      SELECT id FROM companies WHERE headcount = ANY(${f.headcount}::text[]))`);
  }
  if (f.seniority) {
    const values = [...new Set([...f.seniority, ...f.seniority.map((m) => m.toLowerCase())])];
    where.push(sql`p.seniority = ANY(${values}::text[])`);
  }
  if (f.keywords) {
    where.push(sql`p.keywords && ${f.keywords.map((m) => m.toLowerCase())}::text[]`);
  }
  const conditions = where.reduce((all, condition) => sql`${all} AND ${condition}`, sql`TRUE`);
  const after = input.after === null ? sql`TRUE` : sql`p.id > ${input.after}`;
  const notDelivered = sql`NOT EXISTS (SELECT 1 FROM lead_search_results r
                                        WHERE r.chain_id = ${input.chainId} AND r.person_id = p.id)`;
  // 1. The next WINDOW people after the cursor, in id order, filtered: when the filters match
  //    often (most searches), this finds the page in a few milliseconds, statistics or not.
  const windowed = await sql<LeadRow[]>`
    SELECT p.id, p.full_name, p.title, c.name AS company, p.location, p.network_url
      FROM (SELECT * FROM people p WHERE ${after} ORDER BY p.id LIMIT ${windowSize}) p
      LEFT JOIN companies c ON c.id = p.company_id
     WHERE ${conditions} AND ${notDelivered}
     ORDER BY p.id
     LIMIT ${input.limit}`;
  // 2. Fewer than a page in the window: the filters are selective. Every match after the cursor,
  //    from the filters' indexes (materialized, so the planner cannot fall back to walking the
  //    primary key past a million people for a filter that matches few or none), in id order.
  if (windowed.length >= input.limit) return { leads: windowed.map(toLead), more: null };
  const limit = Math.max(input.limit, fallbackLimit);
  const matched = await sql<{ id: string }[]>`
    WITH matches AS MATERIALIZED (
      SELECT p.id FROM people p WHERE ${after} AND ${conditions} AND ${notDelivered})
    SELECT id FROM matches ORDER BY id LIMIT ${limit}`;
  const ids = matched.map((m) => m.id);
  const leads = await leadsByIds(sql, ids.slice(0, input.limit), input.chainId);
  return {
    leads,
    more: { ids: ids.slice(input.limit), complete: ids.length < limit },
  };
}

function toLead(r: LeadRow): DirectoryLead {
  return {
    personId: r.id,
    name: r.full_name,
    title: r.title,
    company: r.company,
    location: r.location,
    networkUrl: r.network_url,
  };
}
