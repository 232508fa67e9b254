import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../app_env.ts";
import { errorContent } from "../schemas.ts";

/** A request the HTTP server cannot read never reaches a route; it still is an answer. */
export const UNREADABLE_REQUEST_RESPONSE = {
  "4XX": {
    description:
      "A request the HTTP server cannot read (malformed, or headers too large: 431) is refused before any route runs, without a JSON body",
  },
} as const;

/** `GET /api/v1/openapi.json`: this document, listed in itself so clients see it needs no key. */
export function mountOpenApi(
  app: OpenAPIHono<AppEnv>,
  openApiDocument: () => Record<string, unknown>,
): void {
  const route = createRoute({
    method: "get",
    path: "/api/v1/openapi.json",
    operationId: "getOpenApiDocument",
    tags: ["Operations"],
    summary: "This OpenAPI 3.1 document",
    description:
      "The live description of every operation, with each billable operation's current cost in points (`x-cost`). No key needed.",
    security: [],
    responses: {
      200: {
        description: "The OpenAPI 3.1 document",
        content: {
          "application/json": {
            schema: z.record(z.string(), z.unknown()).openapi({
              description: "An OpenAPI 3.1 document",
            }),
          },
        },
      },
      400: errorContent(
        "`validation_error`: a request body was sent, and it is over 1 MB (a GET needs none)",
      ),
    },
  });
  app.openapi(route, (c) => c.json(openApiDocument(), 200));
}
