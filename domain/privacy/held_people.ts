/**
 * The directory records a privacy request reaches: the people holding the address (as a work
 * address or an associated one), the profile URL, or the name (either order) at the company
 * of that domain. Read inside the caller's transaction (erasure) or alone (export).
 */
import type { TransactionSql } from "../stores/database.ts";
import type { DbContext, TxContext } from "../context.ts";
import type { PersonTarget } from "./person_target.ts";

export interface HeldPerson {
  id: string;
  fullName: string;
  given: string | null;
  surname: string | null;
  title: string | null;
  seniority: string | null;
  headline: string | null;
  location: string | null;
  networkUrl: string | null;
  keywords: string[];
  channels: { x: string | null; telegram: string | null; emails: string[] };
  fieldSources: Record<string, { source: string; url: string | null; at: string }>;
  enrichedAt: string | null;
  createdAt: string;
  updatedAt: string;
  company: { name: string; domain: string | null } | null;
  emails: { address: string; status: string; verifiedAt: string | null; source: string | null }[];
}

export async function heldPeople(ctx: DbContext, target: PersonTarget): Promise<HeldPerson[]> {
  return await ctx.db.sql.begin((tx) => heldPeopleIn({ tx }, target));
}

export async function heldPeopleIn(ctx: TxContext, target: PersonTarget): Promise<HeldPerson[]> {
  const { tx } = ctx;
  const ids = await idsOf(tx, target);
  if (ids.length === 0) return [];
  const people = await tx<{
    id: string;
    full_name: string;
    given: string | null;
    surname: string | null;
    title: string | null;
    seniority: string | null;
    headline: string | null;
    location: string | null;
    network_url: string | null;
    keywords: string[];
    channels: HeldPerson["channels"] | string;
    field_sources: HeldPerson["fieldSources"] | string;
    enriched_at: Date | null;
    created_at: Date;
    updated_at: Date;
    company_name: string | null;
    company_domain: string | null;
  }[]>`
    SELECT p.*, c.name AS company_name, c.domain AS company_domain
      FROM people p LEFT JOIN companies c ON c.id = p.company_id
     WHERE p.id = ANY(${ids}::text[]) ORDER BY p.id`;
  const emails = await tx<
    {
      person_id: string;
      address: string;
      status: string;
      verified_at: Date | null;
      source: string | null;
    }[]
  >`
    SELECT person_id, address, status, verified_at, source FROM person_emails
     WHERE person_id = ANY(${ids}::text[]) ORDER BY person_id, address`;
  const json = <T>(v: T | string): T => typeof v === "string" ? JSON.parse(v) : v;
  return people.map((p) => ({
    id: p.id,
    fullName: p.full_name,
    given: p.given,
    surname: p.surname,
    title: p.title,
    seniority: p.seniority,
    headline: p.headline,
    location: p.location,
    networkUrl: p.network_url,
    keywords: p.keywords ?? [],
    channels: json(p.channels),
    fieldSources: json(p.field_sources),
    enrichedAt: p.enriched_at ? new Date(p.enriched_at).toISOString() : null,
    createdAt: new Date(p.created_at).toISOString(),
    updatedAt: new Date(p.updated_at).toISOString(),
    company: p.company_name ? { name: p.company_name, domain: p.company_domain } : null,
    emails: emails.filter((e) => e.person_id === p.id).map((e) => ({
      address: e.address,
      status: e.status,
      verifiedAt: e.verified_at ? new Date(e.verified_at).toISOString() : null,
      source: e.source,
    })),
  }));
}

async function idsOf(tx: TransactionSql, target: PersonTarget): Promise<string[]> {
  switch (target.kind) {
    case "email": {
      const rows = await tx<{ id: string }[]>`
        SELECT person_id AS id FROM person_emails WHERE address = ${target.email}
        UNION
        SELECT id FROM people WHERE channels -> 'emails' ? ${target.email}`;
      return rows.map((r) => r.id);
    }
    case "profile": {
      const rows = await tx<{ id: string }[]>`
        SELECT id FROM people WHERE network_url = ${target.url}`;
      return rows.map((r) => r.id);
    }
    case "name": {
      const rows = await tx<{ id: string }[]>`
        SELECT p.id FROM companies c JOIN people p ON p.company_id = c.id
         WHERE c.domain = ${target.domain}
           AND (p.name_key = ${target.folded} OR p.gs_key = ${target.folded})`;
      return rows.map((r) => r.id);
    }
  }
}
