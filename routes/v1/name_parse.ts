import type { OpenAPIHono } from "@hono/zod-openapi";
import type { DomainContext } from "../../domain/context.ts";
import { parseName } from "../../domain/name_parse/parse_name.ts";
import type { AppEnv } from "../app_env.ts";
import { billedRoute } from "../billed_route.ts";
import { errorContent } from "../schemas.ts";
import { ParsedNameSchema, ParseNameBodySchema } from "./name_parse_schemas.ts";

export function mountNameParse(app: OpenAPIHono<AppEnv>, ctx: DomainContext): void {
  const route = billedRoute(ctx, {
    path: "/api/v1/name/parse",
    operationId: "parseName",
    tags: ["Names"],
    summary: "Split one name into given name and surname",
    description:
      "Answers with the bundled name model (or the rule when the model is not confident or absent). Names and answers are never stored, logged or cached; a replay recomputes the answer.",
    budget: "name_parse",
    cost: [{ price: "nameParse", per: "answered name" }],
    idempotencyKey: "optional",
    body: ParseNameBodySchema,
    answer: { schema: ParsedNameSchema, description: "The reading, billed once" },
    errors: {
      400: errorContent(
        "`validation_error` (blank or over 256 characters, bad spelling, key or Content-Type) or `invalid_input` (the name cannot be split). Not billed",
      ),
      402: errorContent("`insufficient_credits` with `meta { required, available, shortfall }`"),
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
