/**
 * A lead-search run (spec §2.8, §3) as the service answers it, its filters, and the mapper from
 * a row of `lead_search_runs` (migration 008).
 */
import { controlCharacterMessage, hasControlCharacter } from "../shared/control_characters.ts";
import { ServiceError } from "../errors.ts";
import { characterCount } from "../shared/character_count.ts";
import { HEADCOUNT_RANGES } from "../directory/directory_person.ts";

export const RUN_STATUSES = [
  "queued",
  "processing",
  "cancelling",
  "completed",
  "cancelled",
  "failed",
] as const;
export type RunStatus = typeof RUN_STATUSES[number];
export const ACTIVE_STATUSES: readonly RunStatus[] = ["queued", "processing", "cancelling"];
export const TERMINAL_STATUSES: readonly RunStatus[] = ["completed", "cancelled", "failed"];

/** Leads per delivered page, and per page of results when polling (spec §8). */
export const PAGE_SIZE = 25;
/** The largest `count` of one run; a continuation asks for more. */
export const MAX_COUNT = 1000;
/** Members per criterion, and characters per member. */
export const MAX_FILTER_MEMBERS = 50;
export const MAX_FILTER_MEMBER_LENGTH = 200;

export const FILTER_NAMES = [
  "jobTitle",
  "location",
  "company",
  "industry",
  "headcount",
  "seniority",
  "keywords",
] as const;
export type FilterName = typeof FILTER_NAMES[number];
/** Each criterion is a list of alternatives (any may match); criteria all apply. */
export type LeadFilters = Partial<Record<FilterName, string[]>>;

export interface LeadSearchRun {
  id: string;
  status: RunStatus;
  count: number;
  filters: LeadFilters;
  deliveredCount: number;
  creditsCharged: number;
  continueFromRunId: string | null;
  /** Why a `failed` run failed (`search_unavailable`); null otherwise. */
  failureReason: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  updatedAt: string;
}

/** A delivered lead: directory-style, never an email, a phone or any channel. */
export interface Lead {
  position: number;
  name: string;
  title: string | null;
  company: string | null;
  location: string | null;
  networkUrl: string | null;
}

export interface RunRow {
  id: string;
  workspace_id: string;
  status: RunStatus;
  filters: LeadFilters;
  count: number;
  delivered_count: number;
  credits_charged: string | number;
  lead_price: number;
  reservation_id: string | null;
  chain_id: string;
  continue_from: string | null;
  idempotency_key: string | null;
  cursor: string | null;
  pages: number;
  lease_token: string | null;
  lease_until: Date | null;
  failure_reason: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  updated_at: Date;
}

export function toLeadSearchRun(row: RunRow): LeadSearchRun {
  return {
    id: row.id,
    status: row.status,
    count: row.count,
    filters: row.filters,
    deliveredCount: row.delivered_count,
    creditsCharged: Number(row.credits_charged),
    continueFromRunId: row.continue_from,
    failureReason: row.failure_reason,
    createdAt: row.created_at.toISOString(),
    startedAt: row.started_at?.toISOString() ?? null,
    finishedAt: row.finished_at?.toISOString() ?? null,
    updatedAt: row.updated_at.toISOString(),
  };
}

export function isTerminal(status: RunStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/**
 * Checks and normalizes filters: an object whose members are known criteria, each an array of
 * strings (trimmed; blanks and repeats dropped; empty criteria dropped). Headcount members must
 * be one of the directory's ranges. Anything else is a `validation_error` naming what was wrong.
 */
/** The message for a criterion that is none of `FILTER_NAMES` (names the known ones). */
export function unknownFilterMessage(name: string): string {
  return `filters.${name} is not a known filter; known: ${FILTER_NAMES.join(", ")}`;
}

export function normalizeFilters(value: unknown): LeadFilters {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new ServiceError("validation_error", "filters must be an object");
  }
  const filters: LeadFilters = {};
  for (const [name, members] of Object.entries(value as Record<string, unknown>)) {
    if (!(FILTER_NAMES as readonly string[]).includes(name)) {
      throw new ServiceError("validation_error", unknownFilterMessage(name));
    }
    if (!Array.isArray(members)) {
      throw new ServiceError("validation_error", `filters.${name} must be an array of strings`);
    }
    if (members.length > MAX_FILTER_MEMBERS) {
      throw new ServiceError(
        "validation_error",
        `filters.${name} must have at most ${MAX_FILTER_MEMBERS} members`,
      );
    }
    const kept: string[] = [];
    for (const member of members) {
      if (typeof member !== "string") {
        throw new ServiceError("validation_error", `filters.${name} members must be strings`);
      }
      if (hasControlCharacter(member)) {
        throw new ServiceError(
          "validation_error",
          controlCharacterMessage(`filters.${name} members`),
        );
      }
      const trimmed = member.trim().replace(/\s+/g, " ");
      if (characterCount(trimmed) > MAX_FILTER_MEMBER_LENGTH) {
        throw new ServiceError(
          "validation_error",
          `filters.${name} members must be at most ${MAX_FILTER_MEMBER_LENGTH} characters`,
        );
      }
      if (name === "headcount" && !(HEADCOUNT_RANGES as readonly string[]).includes(trimmed)) {
        throw new ServiceError(
          "validation_error",
          `filters.headcount members must be one of ${HEADCOUNT_RANGES.join(", ")}`,
        );
      }
      if (name === "jobTitle" && trimmed && titleWords(trimmed).length === 0) {
        throw new ServiceError(
          "validation_error",
          "filters.jobTitle members must contain a letter or a digit",
        );
      }
      if (trimmed && !kept.includes(trimmed)) kept.push(trimmed);
    }
    if (kept.length > 0) filters[name as FilterName] = kept;
  }
  return filters;
}

/** Two filters ask the same when each criterion has the same members (in any order, any case). */
export function sameFilters(a: LeadFilters, b: LeadFilters): boolean {
  return canonical(a) === canonical(b);
}

function canonical(filters: LeadFilters): string {
  return JSON.stringify(
    FILTER_NAMES.map((name) =>
      [...new Set((filters[name] ?? []).map((m) => m.toLowerCase()))].sort()
    ),
  );
}

/** The words of a job title as Postgres' `simple` text-search configuration sees them. */
export function titleWords(title: string): string[] {
  return title.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

export function validateCount(value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > MAX_COUNT) {
    throw new ServiceError(
      "validation_error",
      `count must be an integer from 1 to ${MAX_COUNT}`,
    );
  }
  return value;
}
