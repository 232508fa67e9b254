import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { DomainContext } from "../../domain/context.ts";
import { AUDIT_ACTIONS } from "../../domain/audit/audit_event.ts";
import { listAuditLog, MAX_AUDIT_PAGE } from "../../domain/audit/list_audit_log.ts";
import type { AppEnv } from "../app_env.ts";
import { keyedAndLimited } from "../guard.ts";
import { API_KEY_SECURITY, COMMON_ERROR_RESPONSES } from "../schemas.ts";

const EntrySchema = z.object({
  id: z.number().int().openapi({ description: "The entry's number; the paging cursor" }),
  at: z.string().openapi({ description: "When (ISO 8601, UTC)" }),
  workspaceId: z.string().nullable(),
  actor: z.object({
    kind: z.enum(["member", "api-key", "cli", "public-page", "service"]),
    id: z.string().nullable().openapi({ description: "The member's or API key's id" }),
  }),
  action: z.enum(AUDIT_ACTIONS),
  subjectId: z.string().nullable().openapi({
    description: "The id of what the act changed (a key, member, endpoint)",
  }),
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
    .openapi({ description: "Kinds and counts; never a secret or a person's data" }),
}).openapi("AuditEntry");

/** 1 to `MAX_AUDIT_PAGE` (200). */
const LIMIT = /^(?:[1-9]|[1-9]\d|1\d\d|200)$/;

export function mountAuditLog(app: OpenAPIHono<AppEnv>, ctx: DomainContext): void {
  const route = createRoute({
    method: "get",
    path: "/api/v1/audit-log",
    operationId: "getAuditLog",
    tags: ["Account"],
    summary: "The workspace's audit log",
    description:
      "Every administrative act on the workspace, newest first: API keys created and revoked, points granted, members added, do-not-contact changes, webhook endpoints created and deleted, with who did it (a member, an API key, the operator CLI). Ids and counts only, never a secret. Page with `cursor` (the previous answer's `nextCursor`). Free; `account` budget.",
    security: API_KEY_SECURITY,
    middleware: keyedAndLimited(ctx, "account"),
    request: {
      query: z.object({
        cursor: z.string().regex(/^\d{1,18}$/, "cursor must be a nextCursor value").optional(),
        limit: z.string().regex(LIMIT, `limit must be 1 to ${MAX_AUDIT_PAGE}`).optional(),
      }),
    },
    responses: {
      200: {
        description: "A page of entries",
        content: {
          "application/json": {
            schema: z.object({
              data: z.object({ entries: z.array(EntrySchema), nextCursor: z.number().nullable() }),
            }),
          },
        },
      },
      ...COMMON_ERROR_RESPONSES,
    },
  });
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    const data = await listAuditLog(ctx, {
      workspaceId: c.get("auth").workspaceId,
      cursor: query.cursor === undefined ? undefined : Number(query.cursor),
      limit: query.limit === undefined ? undefined : Number(query.limit),
    });
    return c.json({ data }, 200);
  });
}
