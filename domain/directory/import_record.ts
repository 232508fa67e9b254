/**
 * One record of the directory's JSON-lines import shape (`admin import`, the demo data, what
 * lookups learn): its schema, and the checks and clean-up that turn a line into an `ImportRecord`
 * or a message saying what is wrong with which field.
 */
import { z } from "zod";
import type { ProfileNetwork } from "../shared/profile_network.ts";
import {
  EMAIL_STATUSES,
  type EmailStatus,
  HEADCOUNT_RANGES,
  type HeadcountRange,
} from "./directory_person.ts";
import { companyDomainOf, normalizeNetworkUrl } from "./normalize.ts";

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
