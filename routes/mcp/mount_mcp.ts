/**
 * `POST /mcp`: the Model Context Protocol over Streamable HTTP, stateless (a fresh server and
 * transport per request, JSON answers, no session), with the operations as tools
 * (`mcp_tools.ts`). The API key is checked before the protocol reads anything: a missing,
 * invalid or expired key is an HTTP 401 carrying the API's message as a JSON-RPC error. GET and
 * DELETE (server-sent streams, sessions) are not offered: 405, as the transport's spec allows.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  Server,
  WebStandardStreamableHTTPServerTransport,
} from "./sdk.ts";
import type { DomainContext } from "../../domain/context.ts";
import { ServiceError } from "../../domain/errors.ts";
import type { AppEnv } from "../app_env.ts";
import { callTool } from "./call_tool.ts";
import { MCP_TOOLS } from "./mcp_tools.ts";
import { bindTools, type OpenApiDocument, type ToolBinding } from "./tool_definitions.ts";

export const MCP_PATH = "/mcp";
/** JSON-RPC's range for server-defined errors: the key was refused. */
const UNAUTHENTICATED_RPC_CODE = -32001;

const INSTRUCTIONS =
  "Contact data for one workspace: split names, find verified work emails, search professional-network profiles, enrich an email address, and run lead searches. Lookups cost points (each tool's description says how many; get_points shows the balance and prices). Pass an idempotencyKey to make a retry of a billed call free.";

export function mountMcp(
  app: OpenAPIHono<AppEnv>,
  ctx: DomainContext,
  options: { openApiDocument: () => Record<string, unknown> },
): void {
  let bindings: ToolBinding[] | undefined;
  const tools = () =>
    bindings ??= bindTools(options.openApiDocument() as unknown as OpenApiDocument, MCP_TOOLS);

  app.post(MCP_PATH, async (c) => {
    const authorization = c.req.header("authorization");
    try {
      c.set("auth", await ctx.authenticate(authorization));
    } catch (error) {
      if (!(error instanceof ServiceError) || error.code !== "unauthenticated") throw error;
      return c.json({
        jsonrpc: "2.0",
        id: null,
        error: {
          code: UNAUTHENTICATED_RPC_CODE,
          message: error.message,
          data: { code: error.code },
        },
      }, 401);
    }

    const server = new Server(
      { name: "contact-data-service", version: "v1" },
      { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
    );
    // The SDK would print a failure with its details; the log gets its kind only.
    server.onerror = (error: Error) =>
      ctx.logger.warn("mcp error", { requestId: c.get("requestId"), errorName: error.name });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: tools().map((binding) => binding.listing),
    }));
    server.setRequestHandler(CallToolRequestSchema, (request: CallToolRequest) => {
      const binding = tools().find((b) => b.tool.name === request.params.name);
      if (!binding) throw new McpError(ErrorCode.InvalidParams, "No such tool");
      return callTool(binding, request.params.arguments ?? {}, {
        fetch: (inner) => app.fetch(inner),
        origin: new URL(c.req.url).origin,
        authorization: authorization!,
        requestId: c.get("requestId"),
      });
    });

    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      await server.close();
    }
  });
}
