/**
 * What `POST /api/v1/domain-search` answers, before the billing fields are added: the company,
 * its mail, its address pattern and a page of the people the directory knows there. Every outcome
 * is an answer; a refusal has `reason` set and neither pattern nor people.
 */
import type { PatternName } from "../find/email_patterns.ts";
import type { Department, Seniority } from "../directory/person_vocabulary.ts";
import type { MailProvider } from "../verify/mod.ts";

export const DOMAIN_SEARCH_REASONS = [
  /** The directory knows nobody at the domain (a completed search; free, as it has no email). */
  "not-found",
  /** The domain cannot receive mail (no MX or address, a null MX, no registrable domain). */
  "unusable-domain",
  "free-mail-domain",
  "disposable-domain",
  /** The domain (or a parent of it) is on the workspace's do-not-contact list. */
  "do-not-contact",
  "company-not-found",
  /** The company resolver could not answer now. */
  "company-lookup-unavailable",
  /** The page held verified addresses the workspace could not pay for: they were withheld. */
  "insufficient-credits",
] as const;
export type DomainSearchReason = typeof DOMAIN_SEARCH_REASONS[number];

export const PATTERN_NULL_REASONS = ["no-verified-addresses", "too-few-addresses"] as const;
export type PatternNullReason = typeof PATTERN_NULL_REASONS[number];

export interface Organization {
  name: string | null;
  /** `directory` (our records), the resolver (`wikidata`), or null when no name is known. */
  nameSource: string | null;
  domain: string;
  /** `request` (sent as a domain or website), `directory` or the resolver (`wikidata`). */
  domainSource: string;
}

export interface DomainMail {
  /** MX host names by preference; empty when not known. */
  mxRecords: string[];
  /** Who runs the first MX host; null when not known. */
  provider: MailProvider | null;
  /** True when the domain has mail hosts; null when not known (the remote verifier, DNS down). */
  acceptsMail: boolean | null;
  /** The verification engine's last probe verdict there; null when none is cached. */
  catchAll: boolean | null;
  /** When that probe was answered (ISO 8601); null with `catchAll`. */
  catchAllCheckedAt: string | null;
}

export interface MailPattern {
  /** The address format, `{first}.{last}`, `{f}{last}` … */
  format: string;
  /** The pattern's name in find's vocabulary (`first.last`, `flast` …). */
  name: PatternName;
  /** Verified addresses at the domain that follow it. */
  supportingAddresses: number;
  /** Of the verified addresses that follow any pattern, the share that follows this one. */
  share: number;
  /** The newest verification among them (ISO 8601), or null when none has a time. */
  lastConfirmedAt: string | null;
  /** The lower bound of the 95 % Wilson interval of `share` (0 to 1). */
  confidence: number;
}

export interface PatternAnswer {
  pattern: MailPattern | null;
  /** Why `pattern` is null; null when it is set. */
  patternReason: PatternNullReason | null;
}

export interface DomainPersonEmail {
  address: string;
  verifiedAt: string;
  /** What verified it: `find` (SMTP), `import`, `enrich` … as the directory recorded it. */
  method: string;
}

export interface DomainPerson {
  name: string;
  given: string | null;
  surname: string | null;
  title: string | null;
  department: Department | null;
  seniority: Seniority | string | null;
  networkUrl: string | null;
  /** A verified address within VERIFIED_EMAIL_MAX_AGE_DAYS, never a guessed one; else null. */
  email: DomainPersonEmail | null;
}

export interface DomainSearchAnswer extends PatternAnswer {
  organization: Organization | null;
  mail: DomainMail | null;
  people: DomainPerson[];
  /** People at the domain matching the filters (the do-not-contact list left out). */
  total: number;
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
  reason: DomainSearchReason | null;
}
