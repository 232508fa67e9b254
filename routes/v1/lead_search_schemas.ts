/** Request and answer schemas of the lead-search operations (spec §2.8, §3, §4.8). */
import { z } from "@hono/zod-openapi";
import { HEADCOUNT_RANGES } from "../../domain/directory/directory_person.ts";
import {
  MAX_COUNT,
  MAX_FILTER_MEMBER_LENGTH,
  MAX_FILTER_MEMBERS,
  RUN_STATUSES,
  unknownFilterMessage,
} from "../../domain/lead_search/lead_search_run.ts";
import { BalanceSchema, holding, NO_CONTROL } from "../schemas.ts";

/** A job title's words are its letters and digits (`titleWords`): a member must hold one. */
const JOB_TITLE_MEMBER = holding("[\\p{L}\\p{N}]");

/** The form of a run id (`newId("run")`); the document states it, any other names no run. */
export const RUN_ID_PATTERN = "^run_[0-9a-f]{20}$";

const COUNT_RULE = `count must be an integer from 1 to ${MAX_COUNT}`;

/**
 * A criterion's members. The verb (`normalizeFilters`) checks each member; the document states the
 * same rules: at most 200 characters, no control character, and for a job title a letter or digit.
 */
const members = (
  name: string,
  description: string,
  example: string[],
  pattern = NO_CONTROL,
) =>
  z.array(
    z.string({ error: `filters.${name} members must be strings` }).openapi({
      maxLength: MAX_FILTER_MEMBER_LENGTH,
      pattern,
    }),
    { error: `filters.${name} must be an array of strings` },
  ).max(MAX_FILTER_MEMBERS, `filters.${name} must have at most ${MAX_FILTER_MEMBERS} members`)
    .optional().openapi({ description, example });

export const LeadFiltersSchema = z.object({
  jobTitle: members(
    "jobTitle",
    "Any member matches a title containing all of its words (case ignored); each member holds a letter or a digit",
    ["sales manager", "head of sales"],
    JOB_TITLE_MEMBER,
  ),
  location: members(
    "location",
    "Any member equal to the whole location or to its part before the first comma (case ignored)",
    ["Berlin", "Paris, France"],
  ),
  company: members(
    "company",
    "Company names or aliases (case, punctuation and legal forms ignored)",
    ["Acme"],
  ),
  industry: members("industry", "The company's industry (case ignored)", ["Software"]),
  headcount: z.array(z.enum(HEADCOUNT_RANGES), {
    error: `filters.headcount members must be one of ${HEADCOUNT_RANGES.join(", ")}`,
  }).optional().openapi({ description: "The company's headcount range", example: ["51-200"] }),
  seniority: members(
    "seniority",
    "entry, senior, manager, director, vp, cxo (case ignored)",
    ["director", "vp"],
  ),
  keywords: members("keywords", "Any member among the person's keywords (case ignored)", [
    "saas",
  ]),
}, {
  // An unknown criterion is named (with the known ones); anything else is not an object.
  error: (issue) =>
    issue.code === "unrecognized_keys"
      ? unknownFilterMessage(String(issue.keys[0]))
      : "filters must be an object",
}).strict().openapi("LeadFilters", {
  description:
    "Each criterion is a list of alternatives (any member may match); all given criteria apply. Unknown criteria are a validation_error",
});

export const LeadSearchStartBodySchema = z.object({
  filters: LeadFiltersSchema.optional(),
  count: z.number({ error: COUNT_RULE }).int(COUNT_RULE).min(1, COUNT_RULE).max(
    MAX_COUNT,
    COUNT_RULE,
  ).openapi({ description: `Leads wanted, 1 to ${MAX_COUNT}`, example: 50 }),
  continueFromRunId: z.string({ error: "continueFromRunId must be a string" }).nullable()
    .optional()
    .openapi({
      pattern: RUN_ID_PATTERN,
      description:
        "A finished run of this workspace to continue: its filters apply (filters given must equal them) and leads delivered anywhere in its chain are skipped. null, like leaving it out, starts a new run (no continuation)",
      example: "run_0a1b2c3d4e5f60718293",
    }),
}).openapi("LeadSearchStartRequest", {
  // A new run (continueFromRunId names an earlier finished run, so it is left out here).
  example: { filters: { jobTitle: ["head of sales"], location: ["Berlin"] }, count: 50 },
});

export const LeadSearchRunSchema = z.object({
  id: z.string().openapi({ example: "run_0a1b2c3d4e5f60718293" }),
  status: z.enum(RUN_STATUSES),
  count: z.number().int(),
  filters: z.record(z.string(), z.array(z.string())),
  deliveredCount: z.number().int().openapi({ description: "Final on a terminal status" }),
  creditsCharged: z.number().int().openapi({ description: "Final on a terminal status" }),
  continueFromRunId: z.string().nullable(),
  failureReason: z.string().nullable().openapi({
    description: "`search_unavailable` on a failed run; null otherwise",
  }),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  updatedAt: z.string(),
}).openapi("LeadSearchRun");

export const LeadSchema = z.object({
  position: z.number().int().openapi({ description: "1-based, in delivery order" }),
  name: z.string(),
  title: z.string().nullable(),
  company: z.string().nullable(),
  location: z.string().nullable(),
  networkUrl: z.string().nullable().openapi({
    description: "Pass to find in `network` mode for a verified email",
  }),
}).openapi("Lead");

export const LeadSearchStartAnswerSchema = z.object({
  run: LeadSearchRunSchema.nullable().openapi({
    description: "The run (`queued` when new); null when refused",
  }),
  reason: z.enum(["insufficient-credits"]).nullable(),
  charged: z.boolean().openapi({ description: "Always false: leads are charged as delivered" }),
  pointsCharged: z.number().int(),
  pointsReserved: z.number().int().openapi({
    description: "Points held for the worst case (count × lead price); 0 on a replay",
  }),
  replay: z.boolean(),
  balance: BalanceSchema.nullable(),
}).openapi("LeadSearchStartAnswer");

export const LeadSearchRunPageSchema = LeadSearchRunSchema.extend({
  page: z.number().int(),
  results: z.array(LeadSchema).openapi({ description: "Up to 25 leads of this page" }),
  nextPage: z.number().int().nullable().openapi({
    description: "The next page with delivered leads; null at the end (so far)",
  }),
}).openapi("LeadSearchRunPage");

export const CancelAnswerSchema = z.object({
  status: z.enum(["cancelled", "cancelling", "already-terminal"]),
}).openapi("LeadSearchCancelAnswer");
