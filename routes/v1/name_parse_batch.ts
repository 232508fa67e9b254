import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { DomainContext } from "../../domain/context.ts";
import { parseNamesBatch } from "../../domain/name_parse/parse_names_batch.ts";
import type { AppEnv } from "../app_env.ts";
import { keyedAndLimited } from "../guard.ts";
import { API_KEY_SECURITY, COMMON_ERROR_RESPONSES, errorContent } from "../schemas.ts";
import {
  ParseBatchBodySchema,
  ParsedBatchSchema,
  RequiredIdempotencyHeaders,
} from "./name_parse_schemas.ts";

export function mountNameParseBatch(app: OpenAPIHono<AppEnv>, ctx: DomainContext): void {
  const route = createRoute({
    method: "post",
    path: "/api/v1/name/parse/batch",
    operationId: "parseNameBatch",
    tags: ["Names"],
    summary: "Split up to 100 names",
    description:
      "Each row is answered and billed on its own; refused rows carry a row-level error and are never billed. Retrying with the same Idempotency-Key replays answered rows free and answers the rest. The batch counts once against its own rate-limit budget.",
    security: API_KEY_SECURITY,
    middleware: keyedAndLimited(ctx, "name_parse_batch"),
    request: {
      headers: RequiredIdempotencyHeaders,
      body: { required: true, content: { "application/json": { schema: ParseBatchBodySchema } } },
    },
    responses: {
      200: {
        description: "One result per name, in order",
        content: { "application/json": { schema: z.object({ data: ParsedBatchSchema }) } },
      },
      400: errorContent(
        "`validation_error`: `names is required`, `names must contain at least one name`, `names must contain at most 100 names`, `names must be strings`, `Idempotency-Key is required for a batch`, or an invalid `spelling`",
      ),
      402: errorContent(
        "`insufficient_credits`: the workspace cannot pay one answer per row that is not a replay; `meta { required, available, shortfall }`. Nothing runs",
      ),
      409: errorContent(
        "`idempotency_conflict` (changed names or spelling) or `idempotency_in_progress`",
      ),
      ...COMMON_ERROR_RESPONSES,
    },
  });
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const data = await parseNamesBatch(ctx, {
      workspaceId: c.get("auth").workspaceId,
      names: body.names,
      spelling: body.spelling ?? "as-written",
      idempotencyKey: c.req.valid("header")["idempotency-key"],
    });
    return c.json({ data }, 200);
  });
}
