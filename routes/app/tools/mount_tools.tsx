/**
 * The tools (`/app/tools…`): the index, and one page per lookup, each billed exactly like its
 * API route through the shared steps of `tool_call.tsx`.
 */
import type { Hono } from "hono";
import type { DomainContext } from "../../../domain/context.ts";
import type { WebEnv } from "../web_env.ts";
import { mountToolsIndex } from "./tools_index.tsx";
import { mountNameParseTool } from "./name_parse_tool.tsx";
import { mountFindTool } from "./find_tool.tsx";
import { mountNetworkSearchTool } from "./network_search_tool.tsx";
import { mountEnrichTool } from "./enrich_tool.tsx";
import { mountVerifyTool } from "./verify_tool.tsx";

export function mountTools(web: Hono<WebEnv>, ctx: DomainContext): void {
  mountToolsIndex(web, ctx);
  mountNameParseTool(web, ctx);
  mountFindTool(web, ctx);
  mountNetworkSearchTool(web, ctx);
  mountEnrichTool(web, ctx);
  mountVerifyTool(web, ctx);
}
