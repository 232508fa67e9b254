import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { DomainContext } from "../../domain/context.ts";
import { createWebhookEndpoint } from "../../domain/webhooks/create_webhook_endpoint.ts";
import { deleteWebhookEndpoint } from "../../domain/webhooks/delete_webhook_endpoint.ts";
import { listWebhookEndpoints } from "../../domain/webhooks/list_webhook_endpoints.ts";
import { WEBHOOK_EVENTS } from "../../domain/webhooks/webhook_events.ts";
import type { AppEnv } from "../app_env.ts";
import { keyedAndLimited } from "../guard.ts";
import { API_KEY_SECURITY, COMMON_ERROR_RESPONSES, errorContent } from "../schemas.ts";

const EndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  disabledAt: z.string().nullable().openapi({ description: "Set when it answered 410 Gone" }),
  disabledWhy: z.string().nullable(),
  createdAt: z.string(),
}).openapi("WebhookEndpoint");

const EndpointIdParams = z.object({
  endpointId: z.string().max(100).openapi({ param: { name: "endpointId", in: "path" } }),
});

const DESCRIPTION =
  "Deliveries follow Standard Webhooks: a POST of `{type, timestamp, data: {id, status}}` with headers `webhook-id`, `webhook-timestamp` and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under the endpoint's `whsec_` secret; verify with any Standard Webhooks library). A 2xx ends a delivery; anything else is retried after about 5 s, 5 min, 30 min, 2 h, 5 h, then every 10 h for about three days; 410 Gone disables the endpoint. An endpoint must be https at global addresses.";

export function mountWebhooks(app: OpenAPIHono<AppEnv>, ctx: DomainContext): void {
  const middleware = keyedAndLimited(ctx, "account");
  app.openapi(
    createRoute({
      method: "post",
      path: "/api/v1/webhooks",
      operationId: "createWebhookEndpoint",
      tags: ["Webhooks"],
      summary: "Register a webhook endpoint",
      description:
        `Events: \`lead_search.run.completed\`, \`bulk.job.completed\` (the terminal status in \`data.status\`). The answer carries the signing secret, shown this once. ${DESCRIPTION}`,
      security: API_KEY_SECURITY,
      middleware,
      request: {
        body: {
          required: true,
          content: {
            "application/json": {
              schema: z.object({
                url: z.string({ error: "url must be a string" }).max(2048).openapi({
                  description: "An https URL whose host resolves to global addresses only",
                  example: "https://93.184.215.14/hooks/contact-data",
                }),
                events: z.array(
                  z.enum(WEBHOOK_EVENTS, {
                    error: `events must be among ${WEBHOOK_EVENTS.join(", ")}`,
                  }),
                  {
                    error: "events must be an array",
                  },
                ).min(1, "events must name at least one event").max(10).openapi({
                  example: ["bulk.job.completed", "lead_search.run.completed"],
                }),
              }),
            },
          },
        },
      },
      responses: {
        200: {
          description: "The endpoint and its secret (shown once)",
          content: {
            "application/json": {
              schema: z.object({ data: EndpointSchema.extend({ secret: z.string() }) }),
            },
          },
        },
        400: errorContent("`validation_error`: the URL (scheme, host, addresses) or the events"),
        ...COMMON_ERROR_RESPONSES,
      },
    }),
    async (c) => {
      const body = c.req.valid("json");
      const data = await createWebhookEndpoint(ctx, {
        workspaceId: c.get("auth").workspaceId,
        actor: { kind: "api-key", keyId: c.get("auth").keyId },
        url: body.url,
        events: body.events,
      });
      return c.json({ data }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/api/v1/webhooks",
      operationId: "listWebhookEndpoints",
      tags: ["Webhooks"],
      summary: "List webhook endpoints",
      description: "The workspace's endpoints, newest first; never their secrets.",
      security: API_KEY_SECURITY,
      middleware,
      responses: {
        200: {
          description: "The endpoints",
          content: { "application/json": { schema: z.object({ data: z.array(EndpointSchema) }) } },
        },
        ...COMMON_ERROR_RESPONSES,
      },
    }),
    async (c) => {
      const data = await listWebhookEndpoints(ctx, { workspaceId: c.get("auth").workspaceId });
      return c.json({ data }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: "delete",
      path: "/api/v1/webhooks/{endpointId}",
      operationId: "deleteWebhookEndpoint",
      tags: ["Webhooks"],
      summary: "Delete a webhook endpoint",
      description: "Nothing more is sent to it; its pending deliveries end `failed`.",
      security: API_KEY_SECURITY,
      middleware,
      request: { params: EndpointIdParams },
      responses: {
        200: {
          description: "Deleted",
          content: {
            "application/json": {
              schema: z.object({ data: z.object({ deleted: z.literal(true) }) }),
            },
          },
        },
        404: errorContent("`not_found`: no endpoint with this id in this workspace"),
        ...COMMON_ERROR_RESPONSES,
      },
    }),
    async (c) => {
      await deleteWebhookEndpoint(ctx, {
        workspaceId: c.get("auth").workspaceId,
        actor: { kind: "api-key", keyId: c.get("auth").keyId },
        endpointId: c.req.valid("param").endpointId,
      });
      return c.json({ data: { deleted: true as const } }, 200);
    },
  );
}
