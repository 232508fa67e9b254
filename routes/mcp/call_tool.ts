/**
 * One tool call, answered by the API operation it names: the call becomes the HTTP request a
 * client would send (the caller's own `Authorization`, the `idempotencyKey` as the header, the
 * other arguments as the body, path or query), the app answers it, and the answer becomes the
 * tool's result. A 200 is a result whose `structuredContent` is the answer's `data` (a refusal
 * with its `reason` among them); any error answer is a tool error carrying the API's envelope.
 */
import type { CallToolResult } from "./sdk.ts";
import { IDEMPOTENCY_KEY_RULE } from "../../domain/idempotency/idempotency_key.ts";
import { IDEMPOTENCY_KEY_ARGUMENT, type ToolBinding } from "./tool_definitions.ts";

export interface ToolCaller {
  /** The app itself: the request is answered in-process, never sent over a network. */
  fetch(request: Request): Response | Promise<Response>;
  /** The origin and headers of the `/mcp` request the call arrived in. */
  origin: string;
  authorization: string;
  requestId: string;
}

export async function callTool(
  binding: ToolBinding,
  args: Record<string, unknown>,
  caller: ToolCaller,
): Promise<CallToolResult> {
  const request = toRequest(binding, args, caller);
  if ("error" in request) return toolError(request.error);
  const response = await caller.fetch(request.request);
  const answer = await response.json() as { data?: Record<string, unknown>; error?: ApiError };
  if (response.ok && answer.data) {
    const retryAfter = answer.data.retryAfterSeconds;
    return {
      content: [
        { type: "text", text: JSON.stringify(answer.data) },
        // Said in words too: an agent reading the text learns when calling again gets further.
        ...(typeof retryAfter === "number"
          ? [{ type: "text" as const, text: tryAgainIn(retryAfter) }]
          : []),
      ],
      structuredContent: answer.data,
    };
  }
  return toolError(answer.error ?? { code: "internal_error", message: "Internal error" });
}

/**
 * A lookup a mail server greylisted (or asked us to leave for a while): when to call again. The
 * same arguments (and idempotencyKey) then ask the same recipients from the same sender, which a
 * greylisting server lets through once its delay has passed.
 */
export function tryAgainIn(seconds: number): string {
  return `Not verified yet: the mail server asked to come back later (greylisting). Nothing was ` +
    `charged. Call this tool again with the same arguments in ${seconds} seconds ` +
    `(retryAfterSeconds).`;
}

interface ApiError {
  code: string;
  message: string;
  retryAfterSeconds?: number;
  meta?: Record<string, unknown>;
}

/** The API's error envelope as the tool error's text: the same code and message, word for word. */
function toolError(error: ApiError): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify({ error }) }] };
}

function toRequest(
  binding: ToolBinding,
  args: Record<string, unknown>,
  caller: ToolCaller,
): { request: Request } | { error: ApiError } {
  const { tool, operation } = binding;
  const rest: Record<string, unknown> = { ...args };
  const headers = new Headers({
    Authorization: caller.authorization,
    "X-Request-Id": caller.requestId,
  });

  const key = rest[IDEMPOTENCY_KEY_ARGUMENT];
  delete rest[IDEMPOTENCY_KEY_ARGUMENT];
  if (key !== undefined && typeof key !== "string") return invalid(IDEMPOTENCY_KEY_RULE);
  if (typeof key === "string") headers.set("Idempotency-Key", key);
  else if (tool.freshKeyWhenAbsent) headers.set("Idempotency-Key", crypto.randomUUID());

  let path = tool.path;
  const query = new URLSearchParams();
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in !== "path" && parameter.in !== "query") continue;
    const value = rest[parameter.name];
    delete rest[parameter.name];
    if (value === undefined || value === null) {
      if (parameter.required) return invalid(`${parameter.name} is required`);
      continue;
    }
    if (typeof value !== "string" && typeof value !== "number") {
      return invalid(`${parameter.name} must be a ${parameter.schema?.type ?? "string"}`);
    }
    if (parameter.in === "path") {
      path = path.replace(`{${parameter.name}}`, encodeURIComponent(String(value)));
    } else query.set(parameter.name, String(value));
  }

  const url = new URL(path, caller.origin);
  url.search = query.toString();
  let body: string | undefined;
  if (binding.sendsBody) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(rest);
  }
  return { request: new Request(url, { method: tool.method.toUpperCase(), headers, body }) };
}

function invalid(message: string): { error: ApiError } {
  return { error: { code: "validation_error", message } };
}
