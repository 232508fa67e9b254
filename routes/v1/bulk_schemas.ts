/** Request and answer schemas of the bulk-job endpoints. */
import { z } from "@hono/zod-openapi";
import { BULK_OPERATIONS, JOB_STATUSES } from "../../domain/bulk/bulk_job.ts";

export const JobIdParams = z.object({
  jobId: z.string().max(100).openapi({
    param: { name: "jobId", in: "path" },
    example: "job_0a1b2c3d4e5f60718293",
  }),
});

export const BulkJobBodySchema = z.object({
  operation: z.enum(BULK_OPERATIONS, { error: "operation must be find, enrich or verify" }).openapi(
    {
      description: "What every row asks for",
      example: "find",
    },
  ),
  rows: z.array(z.unknown(), { error: "rows must be an array" })
    .min(1, "rows must contain at least one row")
    .openapi({
      description:
        "Up to 10,000 rows, each the operation's own request body (`POST /api/v1/find`, `POST /api/v1/enrich/email` or `POST /api/v1/verify`). A row's line is its 1-based position",
      example: [{ name: "Ada Lovelace", company: "acme.com" }],
    }),
}).openapi("BulkJobRequest");

export const BulkJobQuery = z.object({
  operation: z.enum(BULK_OPERATIONS, { error: "operation must be find, enrich or verify" })
    .optional()
    .openapi({ description: "The operation of a CSV body (a JSON body names its own)" }),
  dryRun: z.enum(["true", "false"], { error: "dryRun must be true or false" }).optional()
    .openapi({ description: "`true`: answer the quote alone, free; no job is made" }),
});

const InvalidRowSchema = z.object({
  line: z.number().int(),
  message: z.string(),
}).openapi("BulkInvalidRow");

export const BulkJobSchema = z.object({
  id: z.string(),
  operation: z.enum(BULK_OPERATIONS),
  status: z.enum(JOB_STATUSES),
  counts: z.object({
    rows: z.number().int().openapi({ description: "Rows in the job (valid, duplicates folded)" }),
    done: z.number().int(),
    found: z.number().int(),
    charged: z.number().int().openapi({ description: "Points the answered rows cost" }),
    refused: z.record(z.string(), z.number().int()).openapi({
      description: "Answered rows with a reason, by reason (`not-found`, `do-not-contact`, …)",
    }),
    invalid: z.number().int(),
    duplicates: z.number().int(),
    waiting: z.number().int().openapi({
      description:
        "Rows not answered yet because a mail server greylisted them (it defers a new sender–recipient pair for minutes): each is asked again after the server's delay, up to BULK_GREYLIST_MAX_WAIT_SECONDS (default 3600) from its first deferral, then answered `verification-unavailable`. Not charged while waiting",
    }),
  }),
  pointsReserved: z.number().int(),
  invalidRows: z.array(InvalidRowSchema),
  failureReason: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  updatedAt: z.string(),
  resultsExpireAt: z.string().nullable().openapi({
    description:
      "When the job's rows (inputs and answers) will be deleted: its end plus `BULK_RESULTS_RETENTION_DAYS` (default 30). Null while the job runs, or when the service keeps rows for good (`BULK_RESULTS_RETENTION_DAYS=0`)",
    example: "2026-12-27T09:30:00.000Z",
  }),
  resultsDeletedAt: z.string().nullable().openapi({
    description:
      "When the job's rows were deleted; from then on its results answer 410 `results_expired`. The job, its counts and its ledger lines stay",
  }),
}).openapi("BulkJob");

export const BulkQuoteSchema = z.object({
  rows: z.number().int(),
  invalid: z.number().int(),
  duplicates: z.number().int(),
  worstCase: z.number().int().openapi({ description: "Points reserved at start" }),
  available: z.number().int(),
  sufficient: z.boolean(),
}).openapi("BulkQuote");

export const CreateBulkJobAnswerSchema = z.object({
  job: BulkJobSchema.nullable(),
  quote: BulkQuoteSchema,
  invalidRows: z.array(InvalidRowSchema),
  replay: z.boolean(),
  dryRun: z.boolean(),
});
