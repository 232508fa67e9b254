import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { DomainContext } from "../../domain/context.ts";
import { readBulkJob } from "../../domain/bulk/read_bulk_job.ts";
import type { AppEnv } from "../app_env.ts";
import { keyedAndLimited } from "../guard.ts";
import { API_KEY_SECURITY, COMMON_ERROR_RESPONSES, errorContent } from "../schemas.ts";
import { BulkJobSchema, JobIdParams } from "./bulk_schemas.ts";

export function mountBulkJobRead(app: OpenAPIHono<AppEnv>, ctx: DomainContext): void {
  const route = createRoute({
    method: "get",
    path: "/api/v1/bulk/jobs/{jobId}",
    operationId: "getBulkJob",
    tags: ["Bulk jobs"],
    summary: "Poll a bulk job",
    description:
      "Status (`queued`, `processing`, `completed`, `cancelled`, `failed`) and counts: rows, done, found, charged, answered rows by reason, rows set aside and folded. `resultsExpireAt` says when the job's rows will be deleted (its end plus `BULK_RESULTS_RETENTION_DAYS`, default 30 days), `resultsDeletedAt` when they were; the job itself stays. Free; `account` budget.",
    security: API_KEY_SECURITY,
    middleware: keyedAndLimited(ctx, "account"),
    request: { params: JobIdParams },
    responses: {
      200: {
        description: "The job",
        content: { "application/json": { schema: z.object({ data: BulkJobSchema }) } },
      },
      404: errorContent("`not_found`: no job with this id in this workspace"),
      ...COMMON_ERROR_RESPONSES,
    },
  });
  app.openapi(route, async (c) => {
    const data = await readBulkJob(ctx, {
      workspaceId: c.get("auth").workspaceId,
      jobId: c.req.valid("param").jobId,
    });
    return c.json({ data }, 200);
  });
}
