import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { DomainContext } from "../../domain/context.ts";
import { readBulkResults } from "../../domain/bulk/read_bulk_results.ts";
import type { AppEnv } from "../app_env.ts";
import { keyedAndLimited } from "../guard.ts";
import { API_KEY_SECURITY, COMMON_ERROR_RESPONSES, errorContent } from "../schemas.ts";
import { JobIdParams } from "./bulk_schemas.ts";
import { resultsStream } from "./bulk_results_format.ts";

export function mountBulkJobResults(app: OpenAPIHono<AppEnv>, ctx: DomainContext): void {
  const route = createRoute({
    method: "get",
    path: "/api/v1/bulk/jobs/{jobId}/results",
    operationId: "getBulkJobResults",
    tags: ["Bulk jobs"],
    summary: "Download a bulk job's results",
    description:
      "Every row in input order with its input lines, its input, `state` (`answered` or `pending`), the operation's answer and what it cost: JSON lines (`application/x-ndjson`, the default) or CSV (`Accept: text/csv`). Readable while the job runs and after it ends, until its rows are deleted: `BULK_RESULTS_RETENTION_DAYS` (default 30) after the job ends (the job's `resultsExpireAt`), then 410 `results_expired`. Free; `account` budget.",
    security: API_KEY_SECURITY,
    middleware: keyedAndLimited(ctx, "account"),
    request: { params: JobIdParams },
    responses: {
      200: {
        description: "The rows, one a line",
        content: {
          "application/x-ndjson": { schema: z.string() },
          "text/csv": { schema: z.string() },
        },
      },
      404: errorContent("`not_found`: no job with this id in this workspace"),
      410: errorContent(
        "`results_expired`: the job's rows were deleted `BULK_RESULTS_RETENTION_DAYS` after it ended; the message and `meta.resultsDeletedAt` say when. The job stays readable",
      ),
      ...COMMON_ERROR_RESPONSES,
    },
  });
  app.openapi(route, async (c) => {
    const jobId = c.req.valid("param").jobId;
    const results = await readBulkResults(ctx, { workspaceId: c.get("auth").workspaceId, jobId });
    const csv = /\btext\/csv\b/i.test(c.req.header("accept") ?? "");
    return new Response(resultsStream(results.operation, results.rows, csv ? "csv" : "jsonl"), {
      headers: {
        "content-type": csv ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
        "content-disposition": `attachment; filename="${jobId}.${csv ? "csv" : "jsonl"}"`,
      },
    }) as never;
  });
}
