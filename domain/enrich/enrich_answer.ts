/** What `POST /api/v1/enrich/email` answers (spec §2.7), before the billing fields are added. */
import type { StatedFields } from "../providers/reverse_lookup/port.ts";

export const ENRICH_REASONS = [
  "not-found",
  "invalid-input",
  "do-not-contact",
  "insufficient-credits",
  "source-rate-limited",
  "source-timeout",
  "source-error",
] as const;
export type EnrichReason = typeof ENRICH_REASONS[number];

/** The canonical person record: every field stated by a source (none inferred from the address). */
export interface EnrichedPerson {
  name: string | null;
  given: string | null;
  surname: string | null;
  title: string | null;
  companyName: string | null;
  location: string | null;
  headline: string | null;
  networkUrl: string | null;
}

/** Contact channels a person record does not carry. */
export interface EnrichedChannels {
  emails: string[];
  x: string | null;
  telegram: string | null;
}

/** One source and what it stated. */
export interface EnrichSource {
  /** `directory`, `gravatar`, `github`, or the web-search provider (`brave`, `serpapi`). */
  source: string;
  /** The answer's fields this source stated (`person.title`, `channels.x` …). */
  fields: string[];
  /** The source's page about this person, when it has one. */
  url: string | null;
  /** When the source was read (ISO 8601). */
  retrievedAt: string;
}

export interface EnrichAddress {
  /** `work`, `free` (a free mailbox provider) or `disposable` (a throwaway-address service). */
  kind: "work" | "free" | "disposable";
  /** What such an address can and cannot tell. */
  note: string;
}

export interface EnrichAnswer {
  found: boolean;
  email: string;
  person: EnrichedPerson | null;
  channels: EnrichedChannels | null;
  sources: EnrichSource[];
  address: EnrichAddress | null;
  reason: EnrichReason | null;
  cached: boolean;
}

/** One source's statement, as merged: earlier sources win a field. */
export interface Statement {
  source: string;
  url: string | null;
  fields: StatedFields;
  /** When the source stated it, if not now (a field an earlier enrichment wrote back). */
  retrievedAt?: string;
}
