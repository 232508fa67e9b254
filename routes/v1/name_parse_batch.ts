import type { OpenAPIHono } from "@hono/zod-openapi";
import type { DomainContext } from "../../domain/context.ts";
import { parseNamesBatch } from "../../domain/name_parse/parse_names_batch.ts";
import type { AppEnv } from "../app_env.ts";
import { billedRoute } from "../billed_route.ts";
import { errorContent } from "../schemas.ts";
import { ParseBatchBodySchema, ParsedBatchSchema } from "./name_parse_schemas.ts";

export function mountNameParseBatch(app: OpenAPIHono<AppEnv>, ctx: DomainContext): void {
  const route = billedRoute(ctx, {
    path: "/api/v1/name/parse/batch",
    operationId: "parseNameBatch",
    tags: ["Names"],
    summary: "Split up to 100 names",
    description:
      "Each row is answered and billed on its own; refused rows carry a row-level error and are never billed. Retrying with the same Idempotency-Key replays answered rows free and answers the rest. The batch counts once against its own rate-limit budget.",
    budget: "name_parse_batch",
    cost: [{ price: "nameParse", per: "answered row" }],
    idempotencyKey: "required",
    body: ParseBatchBodySchema,
    answer: { schema: ParsedBatchSchema, description: "One result per name, in order" },
    errors: {
      400: errorContent(
        "`validation_error`: `names is required`, `names must be an array of 1 to 100 strings` (names is not an array), `names must contain at least one name`, `names must contain at most 100 names`, `names must be strings`, `Idempotency-Key is required for a batch`, an invalid `spelling`, or a Content-Type other than `application/json`",
      ),
      402: errorContent(
        "`insufficient_credits`: the workspace cannot pay one answer per row that is not a replay; `meta { required, available, shortfall }`. Nothing runs",
      ),
    },
  });
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const data = await parseNamesBatch(ctx, {
      workspaceId: c.get("auth").workspaceId,
      names: body.names,
      spelling: body.spelling ?? "as-written",
      idempotencyKey: c.req.valid("header")["idempotency-key"]!,
    });
    return c.json({ data }, 200);
  });
}
