/**
 * The service's operations as MCP tools: each tool names the API operation it is. A tool call is
 * sent to that operation through the app itself, so its key check, rate-limit budget, validation,
 * billing and Idempotency-Key handling are the API's own, not a second copy of them.
 */
import type { ToolAnnotations } from "./sdk.ts";

export interface McpTool {
  name: string;
  /** The operation in the OpenAPI document: its schemas, description and cost describe the tool. */
  method: "get" | "post";
  path: string;
  annotations: ToolAnnotations;
  /**
   * The batch requires an Idempotency-Key; a tool call without one is a new batch under a fresh
   * key (as a retry without a key is a new lookup everywhere else).
   */
  freshKeyWhenAbsent?: boolean;
}

/** Lookups add charges and may reach outside services; none is idempotent without a key. */
const LOOKUP = { readOnlyHint: false, destructiveHint: false, idempotentHint: false };

export const MCP_TOOLS: readonly McpTool[] = [
  {
    name: "parse_name",
    method: "post",
    path: "/api/v1/name/parse",
    annotations: { ...LOOKUP, openWorldHint: false },
  },
  {
    name: "parse_names",
    method: "post",
    path: "/api/v1/name/parse/batch",
    annotations: { ...LOOKUP, openWorldHint: false },
    freshKeyWhenAbsent: true,
  },
  {
    name: "find_email",
    method: "post",
    path: "/api/v1/find",
    annotations: { ...LOOKUP, openWorldHint: true },
  },
  {
    name: "search_network",
    method: "post",
    path: "/api/v1/network-search",
    annotations: { ...LOOKUP, openWorldHint: true },
  },
  {
    name: "enrich_email",
    method: "post",
    path: "/api/v1/enrich/email",
    annotations: { ...LOOKUP, openWorldHint: true },
  },
  {
    name: "search_domain",
    method: "post",
    path: "/api/v1/domain-search",
    // The service's own records; a company name may be resolved by the company resolver.
    annotations: { ...LOOKUP, openWorldHint: true },
  },
  {
    name: "count_domain",
    method: "get",
    path: "/api/v1/domain-search/count",
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  {
    name: "start_lead_search",
    method: "post",
    path: "/api/v1/lead-search",
    annotations: { ...LOOKUP, openWorldHint: false },
  },
  {
    name: "get_lead_search_run",
    method: "get",
    path: "/api/v1/lead-search/runs/{runId}",
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  {
    name: "cancel_lead_search_run",
    method: "post",
    path: "/api/v1/lead-search/runs/{runId}/cancel",
    // A repeated cancel answers as the first did and changes nothing more.
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
  },
  {
    name: "get_points",
    method: "get",
    path: "/api/v1/points",
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  {
    name: "verify_email",
    method: "post",
    path: "/api/v1/verify",
    annotations: { ...LOOKUP, openWorldHint: true },
  },
];
