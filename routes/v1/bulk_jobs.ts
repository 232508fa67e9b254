import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { DomainContext } from "../../domain/context.ts";
import { createBulkJob } from "../../domain/bulk/create_bulk_job.ts";
import { ServiceError } from "../../domain/errors.ts";
import type { AppEnv } from "../app_env.ts";
import { keyedAndLimited } from "../guard.ts";
import { API_KEY_SECURITY, COMMON_ERROR_RESPONSES, errorContent } from "../schemas.ts";
import { OptionalIdempotencyHeaders } from "../schemas.ts";
import { BulkJobBodySchema, BulkJobQuery, CreateBulkJobAnswerSchema } from "./bulk_schemas.ts";
import { jsonRows, readCsvRows, validateRows } from "./bulk_rows.ts";

export function mountBulkJobCreate(app: OpenAPIHono<AppEnv>, ctx: DomainContext): void {
  const route = createRoute({
    method: "post",
    path: "/api/v1/bulk/jobs",
    operationId: "createBulkJob",
    tags: ["Bulk jobs"],
    summary: "Start a bulk find, enrich or verify job",
    description:
      "JSON `{operation, rows}` or a CSV body (`Content-Type: text/csv`, a header row naming the fields, `?operation=find|enrich|verify`), up to 10,000 rows; a `verify` row is `{email}` (a CSV with an `email` column), its addresses at one domain verified together in shared SMTP sessions. Rows are validated first: a bad row is listed in `invalidRows` with its line and skipped, never charged; exact duplicates are folded. The worst case of every row is reserved (402 `insufficient_credits` with `meta {required, available, shortfall}` when it cannot be); each row is then billed as its single call with the same outcome would be, settled page by page, and what was not used is released at the end. `?dryRun=true` answers the quote alone, free. `Idempotency-Key` is required to start a job (a retry answers the same job).",
    security: API_KEY_SECURITY,
    middleware: keyedAndLimited(ctx, "bulk"),
    "x-body-required": true,
    "x-cost": [
      { price: "findEmail", per: "find row, as the single call (worst case reserved at start)" },
      { price: "findCompany", per: "find row in company mode, as the single call" },
      { price: "enrich", per: "enrich row, as the single call" },
      { price: "verify", per: "verify row with a verdict, as the single call" },
    ],
    request: {
      headers: OptionalIdempotencyHeaders,
      query: BulkJobQuery,
      body: {
        // Not `required` here (the JSON validator would then refuse a CSV body too): the route
        // refuses a missing body itself, and the document states it required (`x-body-required`).
        required: false,
        content: {
          "application/json": { schema: BulkJobBodySchema },
          "text/csv": {
            schema: z.string().openapi({ example: "name,company\nAda Lovelace,acme.com" }),
          },
        },
      },
    },
    responses: {
      200: {
        description: "The queued job (or the quote alone), and the rows set aside",
        content: { "application/json": { schema: z.object({ data: CreateBulkJobAnswerSchema }) } },
      },
      400: errorContent(
        "`validation_error`: the body, a CSV that cannot be read, more than 10,000 rows, no valid row, or a missing Idempotency-Key. Not billed",
      ),
      402: errorContent(
        "`insufficient_credits`: the worst case cannot be reserved; `meta {required, available, shortfall}`. Nothing runs",
      ),
      409: errorContent("`idempotency_conflict` or `idempotency_in_progress`. Not billed"),
      ...COMMON_ERROR_RESPONSES,
    },
  });
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const isCsv = /^text\/csv\b/i.test(c.req.header("content-type") ?? "");
    let operation;
    let submitted;
    if (isCsv) {
      if (!query.operation) {
        throw new ServiceError("validation_error", "operation is required for a CSV body");
      }
      operation = query.operation;
      submitted = readCsvRows(operation, await c.req.text());
    } else {
      const body = c.req.valid("json") as Partial<z.infer<typeof BulkJobBodySchema>>;
      if (!body.operation || !body.rows) {
        throw new ServiceError(
          "validation_error",
          "The body must be JSON {operation, rows} or a CSV (Content-Type: text/csv)",
        );
      }
      operation = body.operation;
      submitted = jsonRows(body.rows);
    }
    const { rows, invalid, duplicates } = validateRows(operation, submitted);
    const data = await createBulkJob(ctx, {
      workspaceId: c.get("auth").workspaceId,
      idempotencyKey: c.req.valid("header")["idempotency-key"],
      operation,
      rows,
      invalid,
      duplicates,
      dryRun: query.dryRun === "true",
    });
    return c.json({ data }, 200);
  });
}
