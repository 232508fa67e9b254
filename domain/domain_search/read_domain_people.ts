/**
 * A page of the people the directory knows at a company, in id order after a cursor (keyset
 * paging on `people_company_id`), with the filters of a domain search, and how many match in
 * all. Each person carries an address only when the directory holds a valid one at the domain
 * verified within the window (`verifiedSince`): the newest such; never a guessed one.
 *
 * Filters: `department` and `seniority` are alternatives within each (the directory's
 * vocabulary, `person_vocabulary.ts`); `title` words must all appear in the title, as lead
 * search's job-title filter reads them (Postgres' `simple` text search, case ignored).
 */
import type { DbContext } from "../context.ts";
import type { Sql } from "../stores/database.ts";
import type { Department, Seniority } from "../directory/person_vocabulary.ts";
import type { DomainPerson } from "./domain_search_answer.ts";

export interface DomainPeopleFilters {
  department?: Department[];
  seniority?: Seniority[];
  /** Words that must all appear in the title. */
  title?: string[];
}

export interface DomainPeoplePage {
  people: (DomainPerson & { id: string })[];
  total: number;
  /** The id after which the next page starts; null on the last page. */
  next: string | null;
}

interface PersonRow {
  id: string;
  full_name: string;
  given: string | null;
  surname: string | null;
  title: string | null;
  department: string | null;
  seniority: string | null;
  network_url: string | null;
  address: string | null;
  verified_at: Date | null;
  source: string | null;
}

export async function readDomainPeople(
  ctx: DbContext,
  input: {
    companyId: string;
    domain: string;
    filters: DomainPeopleFilters;
    hidden: readonly string[];
    after: string | null;
    limit: number;
    verifiedSince: Date;
  },
): Promise<DomainPeoplePage> {
  const { sql } = ctx.db;
  const conditions = conditionsOf(sql, input);
  const after = input.after === null ? sql`TRUE` : sql`p.id > ${input.after}`;
  const [rows, [{ total }]] = await Promise.all([
    sql<PersonRow[]>`
      SELECT p.id, p.full_name, p.given, p.surname, p.title, p.department, p.seniority,
             p.network_url, e.address, e.verified_at, e.source
        FROM (SELECT * FROM people p WHERE ${conditions} AND ${after}
               ORDER BY p.id LIMIT ${input.limit + 1}) p
        LEFT JOIN LATERAL (
          SELECT e.address, e.verified_at, e.source FROM person_emails e
           WHERE e.person_id = p.id AND e.domain = ${input.domain} AND e.status = 'valid'
             AND e.verified_at >= ${input.verifiedSince}
           ORDER BY e.verified_at DESC, e.address LIMIT 1) e ON TRUE
       ORDER BY p.id`,
    sql<{ total: number }[]>`SELECT count(*)::int AS total FROM people p WHERE ${conditions}`,
  ]);
  const page = rows.slice(0, input.limit);
  return {
    people: page.map(toPerson),
    total,
    next: rows.length > input.limit ? page[page.length - 1].id : null,
  };
}

/** The filters of a search as one SQL condition on `people p` (its company, less the hidden). */
function conditionsOf(
  sql: Sql,
  input: { companyId: string; filters: DomainPeopleFilters; hidden: readonly string[] },
) {
  const f = input.filters;
  const where = [sql`p.company_id = ${input.companyId}`];
  if (input.hidden.length > 0) where.push(sql`p.id <> ALL(${input.hidden as string[]}::text[])`);
  if (f.department?.length) where.push(sql`p.department = ANY(${f.department}::text[])`);
  if (f.seniority?.length) where.push(sql`p.seniority = ANY(${f.seniority}::text[])`);
  if (f.title?.length) {
    where.push(sql`to_tsvector('simple'::regconfig, coalesce(p.title, ''))
                     @@ to_tsquery('simple'::regconfig, ${f.title.join(" & ")})`);
  }
  return where.reduce((all, condition) => sql`${all} AND ${condition}`);
}

/**
 * The names of the people a search finds who have no address verified within the window, in id
 * order, at most `limit`: what "find the rest" sends to a bulk find.
 */
export async function readPeopleWithoutEmail(
  ctx: DbContext,
  input: {
    companyId: string;
    domain: string;
    filters: DomainPeopleFilters;
    hidden: readonly string[];
    verifiedSince: Date;
    limit: number;
  },
): Promise<string[]> {
  const { sql } = ctx.db;
  const rows = await sql<{ full_name: string }[]>`
    SELECT p.full_name FROM people p
     WHERE ${conditionsOf(sql, input)}
       AND NOT EXISTS (SELECT 1 FROM person_emails e
                        WHERE e.person_id = p.id AND e.domain = ${input.domain}
                          AND e.status = 'valid' AND e.verified_at >= ${input.verifiedSince})
     ORDER BY p.id
     LIMIT ${input.limit}`;
  return rows.map((r) => r.full_name);
}

function toPerson(r: PersonRow): DomainPerson & { id: string } {
  return {
    id: r.id,
    name: r.full_name,
    given: r.given,
    surname: r.surname,
    title: r.title,
    department: r.department as DomainPerson["department"],
    seniority: r.seniority,
    networkUrl: r.network_url,
    email: r.address && r.verified_at
      ? {
        address: r.address,
        verifiedAt: r.verified_at.toISOString(),
        method: r.source ?? "import",
      }
      : null,
  };
}
