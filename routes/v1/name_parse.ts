import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { DomainContext } from "../../domain/context.ts";
import { parseName } from "../../domain/name_parse/parse_name.ts";
import type { AppEnv } from "../app_env.ts";
import { keyedAndLimited } from "../guard.ts";
import { API_KEY_SECURITY, COMMON_ERROR_RESPONSES, errorContent } from "../schemas.ts";
import {
  OptionalIdempotencyHeaders,
  ParsedNameSchema,
  ParseNameBodySchema,
} from "./name_parse_schemas.ts";

export function mountNameParse(app: OpenAPIHono<AppEnv>, ctx: DomainContext): void {
  const route = createRoute({
    method: "post",
    path: "/api/v1/name/parse",
    operationId: "parseName",
    tags: ["Names"],
    summary: "Split one name into given name and surname",
    description:
      "Answers with the bundled name model (or the rule when the model is not confident or absent). Names and answers are never stored, logged or cached; a replay recomputes the answer.",
    security: API_KEY_SECURITY,
    middleware: keyedAndLimited(ctx, "name_parse"),
    request: {
      headers: OptionalIdempotencyHeaders,
      body: { required: true, content: { "application/json": { schema: ParseNameBodySchema } } },
    },
    responses: {
      200: {
        description: "The reading, billed once",
        content: { "application/json": { schema: z.object({ data: ParsedNameSchema }) } },
      },
      400: errorContent(
        "`validation_error` (blank or over 256 characters, bad spelling or key) or `invalid_input` (the name cannot be split). Not billed",
      ),
      402: errorContent("`insufficient_credits` with `meta { required, available, shortfall }`"),
      409: errorContent("`idempotency_conflict` or `idempotency_in_progress`"),
      503: errorContent("`incomplete`: the charge could not be recorded; not billed"),
      ...COMMON_ERROR_RESPONSES,
    },
  });
  app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const data = await parseName(ctx, {
      workspaceId: c.get("auth").workspaceId,
      name: body.name,
      spelling: body.spelling ?? "as-written",
      idempotencyKey: c.req.valid("header")["idempotency-key"],
    });
    return c.json({ data }, 200);
  });
}
