import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { DomainContext } from "../../domain/context.ts";
import { cancelLeadSearchRun } from "../../domain/lead_search/cancel_lead_search_run.ts";
import { ServiceError } from "../../domain/errors.ts";
import type { AppEnv } from "../app_env.ts";
import { CONTENT_TYPE_MESSAGE } from "../errors.ts";
import { keyedAndLimited } from "../guard.ts";
import { isJsonMediaType, parseMediaType } from "../media_type.ts";
import {
  API_KEY_SECURITY,
  COMMON_ERROR_RESPONSES,
  errorContent,
  INCOMPLETE_RESPONSE,
} from "../schemas.ts";
import { CancelAnswerSchema } from "./lead_search_schemas.ts";
import { RunIdParams } from "./lead_search_run.ts";

export const CANCEL_BODY_MESSAGE = "The body must be a JSON object, null, or empty";

export function mountLeadSearchCancel(app: OpenAPIHono<AppEnv>, ctx: DomainContext): void {
  const route = createRoute({
    method: "post",
    path: "/api/v1/lead-search/runs/{runId}/cancel",
    operationId: "cancelLeadSearchRun",
    tags: ["Lead search"],
    summary: "Cancel a lead-search run",
    description:
      "`queued` → `cancelled` at once (nothing charged, the reservation released); `processing` → `cancelling` (the run stops at its next page; only delivered leads are charged); a `cancelling` run answers `cancelling` again; a finished run answers `already-terminal`. Free. The body may be a JSON object, `null`, or empty (an empty body needs no Content-Type).",
    security: API_KEY_SECURITY,
    middleware: keyedAndLimited(ctx, "account"),
    request: {
      params: RunIdParams,
      // Documented here, read by `readCancelBody` (an empty body needs no Content-Type, which a
      // validated JSON body would): a plain JSON Schema, so the library adds no validator.
      body: {
        required: false,
        description: "Optional: a JSON object (its members are ignored) or `null`",
        content: {
          "application/json": {
            schema: { anyOf: [{ type: "object" }, { type: "null" }], example: {} },
          },
        },
      },
    },
    responses: {
      200: {
        description: "The run's status after the cancel",
        content: { "application/json": { schema: z.object({ data: CancelAnswerSchema }) } },
      },
      400: errorContent("`validation_error`: the body is not a JSON object, null, or empty"),
      404: errorContent("`not_found`: no run with this id in this workspace"),
      503: INCOMPLETE_RESPONSE,
      ...COMMON_ERROR_RESPONSES,
    },
  });
  app.openapi(route, async (c) => {
    await readCancelBody(c.req.raw);
    const data = await cancelLeadSearchRun(ctx, {
      workspaceId: c.get("auth").workspaceId,
      runId: c.req.valid("param").runId,
    });
    return c.json({ data }, 200);
  });
}

/** Accepts an empty body (any Content-Type), or JSON `null` or an object sent as JSON. */
export async function readCancelBody(request: Request): Promise<void> {
  const text = await request.text();
  if (text.trim() === "") return;
  const type = request.headers.get("content-type") ?? "";
  if (!isJsonMediaType(parseMediaType(type))) {
    throw new ServiceError("validation_error", CONTENT_TYPE_MESSAGE);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ServiceError("validation_error", "Request body must be valid JSON");
  }
  if (body !== null && (typeof body !== "object" || Array.isArray(body))) {
    throw new ServiceError("validation_error", CANCEL_BODY_MESSAGE);
  }
}
