/**
 * The official MCP SDK's client, typed (see routes/mcp/sdk.ts for why the pragma), connected
 * over Streamable HTTP to a served app's `/mcp` with an API key.
 */
import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export { Client, StreamableHTTPClientTransport };

export async function connectMcp(base: string, apiKey: string): Promise<Client> {
  const client = new Client({ name: "contact-data-tests", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("/mcp", base), {
    requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
  });
  await client.connect(transport);
  return client;
}
