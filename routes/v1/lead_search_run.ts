import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { DomainContext } from "../../domain/context.ts";
import { MAX_PAGE, readLeadSearchRun } from "../../domain/lead_search/read_lead_search_run.ts";
import type { AppEnv } from "../app_env.ts";
import { keyedAndLimited } from "../guard.ts";
import {
  API_KEY_SECURITY,
  COMMON_ERROR_RESPONSES,
  errorContent,
  INCOMPLETE_RESPONSE,
} from "../schemas.ts";
import { RUN_ID_PATTERN } from "./lead_search_schemas.ts";
import { LeadSearchRunPageSchema } from "./lead_search_schemas.ts";

const PAGE_RULE = "page must be a positive integer";

export const RunIdParams = z.object({
  runId: z.string().max(100).openapi({
    param: { name: "runId", in: "path" },
    // Documented only: any other id names no run, and is answered 404 `not_found`.
    pattern: RUN_ID_PATTERN,
    description: "The run's id, as start answered it",
    example: "run_0a1b2c3d4e5f60718293",
  }),
});

export function mountLeadSearchRun(app: OpenAPIHono<AppEnv>, ctx: DomainContext): void {
  const route = createRoute({
    method: "get",
    path: "/api/v1/lead-search/runs/{runId}",
    operationId: "getLeadSearchRun",
    tags: ["Lead search"],
    summary: "Poll a lead-search run",
    description:
      "The run's status and counters (final on a terminal status) and one page of its delivered leads, 25 a page. Free; rate limited with the `account` budget. Results stay readable after the run ends.",
    security: API_KEY_SECURITY,
    middleware: keyedAndLimited(ctx, "account"),
    request: {
      params: RunIdParams,
      query: z.object({
        page: z.string({
          // A repeated `page` arrives as an array.
          error: (issue) => Array.isArray(issue.input) ? "page must be given once" : PAGE_RULE,
        }).regex(/^[1-9][0-9]{0,6}$/, PAGE_RULE).optional().openapi({
          // A query value is text; the document states the number it must spell.
          type: "integer",
          minimum: 1,
          maximum: MAX_PAGE,
          description:
            `1-based page of results (default 1), at most ${MAX_PAGE}; given at most once`,
          example: 1,
        }),
      }),
    },
    responses: {
      200: {
        description: "The run and one page of its leads",
        content: { "application/json": { schema: z.object({ data: LeadSearchRunPageSchema }) } },
      },
      400: errorContent("`validation_error`: page is not a positive integer, or given twice"),
      404: errorContent("`not_found`: no run with this id in this workspace"),
      503: INCOMPLETE_RESPONSE,
      ...COMMON_ERROR_RESPONSES,
    },
  });
  app.openapi(route, async (c) => {
    const { page } = c.req.valid("query");
    const data = await readLeadSearchRun(ctx, {
      workspaceId: c.get("auth").workspaceId,
      runId: c.req.valid("param").runId,
      page: page === undefined ? 1 : Number(page),
    });
    return c.json({ data }, 200);
  });
}
