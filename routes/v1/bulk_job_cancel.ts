import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { DomainContext } from "../../domain/context.ts";
import { cancelBulkJob } from "../../domain/bulk/cancel_bulk_job.ts";
import type { AppEnv } from "../app_env.ts";
import { keyedAndLimited } from "../guard.ts";
import { API_KEY_SECURITY, COMMON_ERROR_RESPONSES, errorContent } from "../schemas.ts";
import { JobIdParams } from "./bulk_schemas.ts";
import { readCancelBody } from "./lead_search_cancel.ts";

export function mountBulkJobCancel(app: OpenAPIHono<AppEnv>, ctx: DomainContext): void {
  const route = createRoute({
    method: "post",
    path: "/api/v1/bulk/jobs/{jobId}/cancel",
    operationId: "cancelBulkJob",
    tags: ["Bulk jobs"],
    summary: "Cancel a bulk job",
    description:
      "Ends the job at once as `cancelled`: rows already answered stay charged, the rest of the reservation is released, rows not answered stay unanswered. A finished job answers `already-terminal`. Free. The body may be a JSON object, `null`, or empty.",
    security: API_KEY_SECURITY,
    middleware: keyedAndLimited(ctx, "account"),
    request: { params: JobIdParams },
    responses: {
      200: {
        description: "The job's status after the cancel",
        content: {
          "application/json": {
            schema: z.object({
              data: z.object({ status: z.enum(["cancelled", "already-terminal"]) }),
            }),
          },
        },
      },
      400: errorContent("`validation_error`: the body is not a JSON object, null, or empty"),
      404: errorContent("`not_found`: no job with this id in this workspace"),
      ...COMMON_ERROR_RESPONSES,
    },
  });
  app.openapi(route, async (c) => {
    await readCancelBody(c.req.raw);
    const data = await cancelBulkJob(ctx, {
      workspaceId: c.get("auth").workspaceId,
      jobId: c.req.valid("param").jobId,
    });
    return c.json({ data }, 200);
  });
}
