/**
 * A person as the directory answers it, and the mapper from a row of the `directory_people` view
 * (migration 005) to it. Every person lookup selects from that view, so they all answer the same
 * shape.
 */

export type EmailStatus = "valid" | "invalid" | "catch-all" | "unknown";
export const EMAIL_STATUSES: readonly EmailStatus[] = ["valid", "invalid", "catch-all", "unknown"];

/** The headcount ranges a company may carry. */
export const HEADCOUNT_RANGES = [
  "1-10",
  "11-50",
  "51-200",
  "201-500",
  "501-1000",
  "1001-5000",
  "5001-10000",
  "10001+",
] as const;
export type HeadcountRange = typeof HEADCOUNT_RANGES[number];

export interface DirectoryCompany {
  id: string;
  name: string;
  domain: string | null;
  industry: string | null;
  headcount: HeadcountRange | null;
  location: string | null;
}

export interface DirectoryEmail {
  address: string;
  status: EmailStatus;
  /** ISO 8601 (UTC), or null when the status was never checked by us. */
  verifiedAt: string | null;
}

/** Contact channels a person record does not carry (associated emails, X, Telegram). */
export interface DirectoryChannels {
  x: string | null;
  telegram: string | null;
  emails: string[];
}

/** Which source stated a field enrich wrote back, its page, and when (ISO 8601). */
export interface FieldSource {
  source: string;
  url: string | null;
  at: string;
}

export interface DirectoryPerson {
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
  company: DirectoryCompany | null;
  /** Valid addresses first, then the most recently verified. */
  emails: DirectoryEmail[];
  channels: DirectoryChannels;
  /** Fields enrich wrote back (`title`, `channels.x`, …) → their source; others are our own. */
  fieldSources: Record<string, FieldSource>;
  /** When enrich last consulted every source for this person (ISO 8601), or null. */
  enrichedAt: string | null;
}

/** A row of `SELECT … FROM directory_people`. */
export interface DirectoryPersonRow {
  id: string;
  full_name: string;
  given: string | null;
  surname: string | null;
  title: string | null;
  seniority: string | null;
  headline: string | null;
  location: string | null;
  network_url: string | null;
  keywords: string[] | null;
  channels: Partial<DirectoryChannels> | null;
  company_id: string | null;
  company_name: string | null;
  company_domain: string | null;
  company_industry: string | null;
  company_headcount: string | null;
  company_location: string | null;
  emails: DirectoryEmail[] | null;
  field_sources?: Record<string, FieldSource> | null;
  enriched_at?: Date | string | null;
}

export function toDirectoryPerson(row: DirectoryPersonRow): DirectoryPerson {
  const channels = row.channels ?? {};
  return {
    id: row.id,
    fullName: row.full_name,
    given: row.given,
    surname: row.surname,
    title: row.title,
    seniority: row.seniority,
    headline: row.headline,
    location: row.location,
    networkUrl: row.network_url,
    keywords: row.keywords ?? [],
    company: row.company_id === null ? null : {
      id: row.company_id,
      name: row.company_name ?? "",
      domain: row.company_domain,
      industry: row.company_industry,
      headcount: row.company_headcount as HeadcountRange | null,
      location: row.company_location,
    },
    emails: (row.emails ?? []).map((e) => ({
      address: e.address,
      status: e.status,
      verifiedAt: e.verifiedAt ?? null,
    })),
    channels: {
      x: channels.x ?? null,
      telegram: channels.telegram ?? null,
      emails: Array.isArray(channels.emails) ? channels.emails : [],
    },
    fieldSources: row.field_sources ?? {},
    enrichedAt: row.enriched_at == null ? null : new Date(row.enriched_at).toISOString(),
  };
}
