/**
 * One route definition for every billed operation: the API key, the operation's rate-limit
 * budget, the shared Idempotency-Key header, a JSON body, the common error answers, and the
 * operation's cost, declared here beside the route (the OpenAPI `x-cost` reads it and fills in
 * the points from the price table the ledger charges). Handlers stay thin: validate, call one
 * domain verb, answer `{ data }`.
 */
import { createRoute, z } from "@hono/zod-openapi";
import type { PriceTable, RateLimitBudget } from "../domain/config/config.ts";
import type { DomainContext } from "../domain/context.ts";
import { keyedAndLimited } from "./guard.ts";
import {
  API_KEY_SECURITY,
  COMMON_ERROR_RESPONSES,
  errorContent,
  IN_PROGRESS_NOTE,
  OptionalIdempotencyHeaders,
  RequiredIdempotencyHeaders,
} from "./schemas.ts";

/** One billable unit of an operation: which price of the table, and what it is paid per. */
export interface DeclaredCost {
  price: keyof PriceTable;
  per: string;
}

export interface BilledRouteDefinition<Body extends z.ZodType, Answer extends z.ZodType> {
  path: string;
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  budget: RateLimitBudget;
  cost: DeclaredCost[];
  idempotencyKey: "optional" | "required";
  body: Body;
  answer: { schema: Answer; description: string };
  /** Answers beside 200 and the common ones (400, 401, 409, 429, 500, 503 are always listed). */
  errors?: Record<number, ReturnType<typeof errorContent>>;
}

export function billedRoute<Body extends z.ZodType, Answer extends z.ZodType>(
  ctx: DomainContext,
  definition: BilledRouteDefinition<Body, Answer>,
) {
  return createRoute({
    method: "post",
    path: definition.path,
    operationId: definition.operationId,
    tags: definition.tags,
    summary: definition.summary,
    description: definition.description,
    security: API_KEY_SECURITY,
    middleware: keyedAndLimited(ctx, definition.budget),
    "x-cost": definition.cost,
    request: {
      headers: definition.idempotencyKey === "required"
        ? RequiredIdempotencyHeaders
        : OptionalIdempotencyHeaders,
      body: {
        required: true,
        content: { "application/json": { schema: definition.body } },
      },
    },
    responses: {
      200: {
        description: definition.answer.description,
        content: {
          "application/json": { schema: z.object({ data: definition.answer.schema }) },
        },
      },
      400: errorContent(
        "`validation_error`: the body, its Content-Type (must be `application/json`) or the Idempotency-Key is invalid. Not billed",
      ),
      409: errorContent(
        `\`idempotency_conflict\` (the key was used for a different request, or more than 30 days ago), or ${IN_PROGRESS_NOTE}. Not billed`,
      ),
      503: errorContent(
        "`incomplete`: the charge could not be recorded, so the answer was withheld, or the service could not reach its database; not billed",
      ),
      ...definition.errors,
      ...COMMON_ERROR_RESPONSES,
    },
  });
}
