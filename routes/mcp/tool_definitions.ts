/**
 * Each MCP tool's listing, read from the served OpenAPI document: the input schema is the
 * operation's request body (or its path and query parameters) plus an optional `idempotencyKey`,
 * the output schema is the 200 answer's `data`, and the description is the operation's, with its
 * cost from the price table. References to components are written out in place, because a tool's
 * schemas stand alone.
 */
import type { Tool } from "./sdk.ts";
import type { McpTool } from "./mcp_tools.ts";

type Json = Record<string, unknown>;

export interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Json;
}

export interface OpenApiOperation {
  summary?: string;
  description?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Json }> };
  responses?: Record<string, { content?: Record<string, { schema?: Json }> }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, Json> };
}

/** The field of a tool's input that travels as the `Idempotency-Key` header. */
export const IDEMPOTENCY_KEY_ARGUMENT = "idempotencyKey";

export interface ToolBinding {
  tool: McpTool;
  listing: Tool;
  operation: OpenApiOperation;
  /** Whether the tool's other arguments are the operation's JSON body. */
  sendsBody: boolean;
}

export function bindTools(document: OpenApiDocument, tools: readonly McpTool[]): ToolBinding[] {
  return tools.map((tool) => {
    const operation = document.paths[tool.path]?.[tool.method];
    if (!operation) throw new Error(`No operation ${tool.method} ${tool.path} for ${tool.name}`);
    const inline = inlineReferences(document);
    const sendsBody = operation.requestBody?.required === true;
    const listing: Tool = {
      name: tool.name,
      title: operation.summary,
      description: toolDescription(tool, operation),
      inputSchema: inputSchema(operation, sendsBody, inline) as Tool["inputSchema"],
      outputSchema: answerSchema(operation, inline) as Tool["outputSchema"],
      annotations: { title: operation.summary, ...tool.annotations },
    };
    return { tool, listing, operation, sendsBody };
  });
}

/** The operation's description (its cost included) without the curl example that closes it. */
function toolDescription(tool: McpTool, operation: OpenApiOperation): string {
  const text = (operation.description ?? "").split("\n\n#### Example")[0].trim();
  const key = tool.freshKeyWhenAbsent
    ? ` Without \`${IDEMPOTENCY_KEY_ARGUMENT}\` the call is a new batch under a fresh key; pass one to make a retry free.`
    : "";
  return `${operation.summary ?? tool.name}. ${text}${key}`;
}

function inputSchema(
  operation: OpenApiOperation,
  sendsBody: boolean,
  inline: (schema: Json) => Json,
): Json {
  const parameters = operation.parameters ?? [];
  const properties: Json = {};
  const required: string[] = [];
  let base: Json = { type: "object" };
  if (sendsBody) {
    const body = operation.requestBody?.content?.["application/json"]?.schema;
    if (!body) throw new Error("a required body without a JSON schema");
    base = inline(body);
  }
  for (const parameter of parameters) {
    if (parameter.in !== "path" && parameter.in !== "query") continue;
    properties[parameter.name] = inline({
      ...parameter.schema,
      ...(parameter.description ? { description: parameter.description } : {}),
    });
    if (parameter.required) required.push(parameter.name);
  }
  const key = parameters.find((p) => p.in === "header" && p.name === "idempotency-key");
  if (key) {
    properties[IDEMPOTENCY_KEY_ARGUMENT] = inline({
      ...key.schema,
      description: `Sent as the Idempotency-Key header. ${key.schema?.description ?? ""}`.trim(),
    });
  }
  return {
    ...base,
    type: "object",
    properties: { ...(base.properties as Json | undefined), ...properties },
    ...(required.length > 0 || base.required
      ? { required: [...(base.required as string[] | undefined ?? []), ...required] }
      : {}),
  };
}

/** The 200 answer's `data`: what a call returns as `structuredContent`. */
function answerSchema(operation: OpenApiOperation, inline: (schema: Json) => Json): Json {
  const answer = operation.responses?.["200"]?.content?.["application/json"]?.schema;
  const data = answer && (inline(answer).properties as Json | undefined)?.data;
  if (!data) throw new Error("an operation without a `data` answer");
  return flatObject(data as Json);
}

/**
 * An extended schema arrives as `allOf` of object schemas; MCP wants the object type said at the
 * top, and a client reads one list of properties more easily than a conjunction.
 */
function flatObject(schema: Json): Json {
  const members = schema.allOf as Json[] | undefined;
  const plain = (member: Json) =>
    Object.keys(member).every((key) =>
      ["type", "properties", "required", "description", "example"].includes(key)
    );
  if (!members || !members.every(plain)) return { type: "object", ...schema };
  const { allOf: _allOf, ...rest } = schema;
  return {
    ...rest,
    type: "object",
    properties: Object.assign({}, ...members.map((m) => m.properties ?? {})),
    required: [...new Set(members.flatMap((m) => (m.required ?? []) as string[]))],
  };
}

/** Writes every `#/components/schemas/…` reference out in place (the document has no cycles). */
export function inlineReferences(document: OpenApiDocument): (schema: Json) => Json {
  const schemas = document.components?.schemas ?? {};
  const walk = (node: unknown, depth: number): unknown => {
    if (depth > 32) throw new Error("schema references nest too deep");
    if (Array.isArray(node)) return node.map((item) => walk(item, depth + 1));
    if (typeof node !== "object" || node === null) return node;
    const object = node as Json;
    if (typeof object.$ref === "string") {
      const target = schemas[object.$ref.replace("#/components/schemas/", "")];
      if (!target) throw new Error(`unknown reference ${object.$ref}`);
      const { $ref: _ref, ...siblings } = object;
      return { ...(walk(target, depth + 1) as Json), ...siblings };
    }
    // The generator leaves keys set to `undefined`, which the served JSON drops: so does this.
    return Object.fromEntries(
      Object.entries(object).filter(([, value]) => value !== undefined)
        .map(([key, value]) => [key, walk(value, depth + 1)]),
    );
  };
  return (schema) => walk(schema, 0) as Json;
}
