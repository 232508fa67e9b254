/**
 * The MCP SDK's modules, typed. Its package exports `./*` as runtime `x.js` but types as
 * `x.js.d.ts`, which do not exist, so Deno would see every such import as `any`; each export
 * below names its types by the extension-less path, whose `.d.ts` does exist.
 */
// @ts-types="@modelcontextprotocol/sdk/server/index"
export { Server } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
export { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
  type ToolAnnotations,
} from "@modelcontextprotocol/sdk/types.js";
