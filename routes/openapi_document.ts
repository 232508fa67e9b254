/**
 * `GET /api/v1/openapi.json`: the OpenAPI 3.1 document generated from the route schemas, with
 * each billable operation's current cost: the route declares which prices it charges, the
 * points come from the same price table the ledger charges. Each operation also carries a curl
 * example built from the document itself (its path, parameters, security and the request body
 * schema's examples): `x-codeSamples` for renderers that read it, and an "Example" section of
 * its description for those that do not (Swagger UI at `/docs`).
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { PriceTable } from "../domain/config/config.ts";
import type { AppEnv } from "./app_env.ts";
import type { DeclaredCost } from "./billed_route.ts";

/** The licence the service and its client are published under (`client/package.json` too). */
export const SERVICE_LICENSE = { name: "MIT", identifier: "MIT" };

const DESCRIPTION = `Contact-data service: name parsing, verified work emails, profile search,
email enrichment and lead search. Every operation except this document needs
\`Authorization: Bearer svc_sk_…\` (a workspace API key). Answers are \`{ "data": … }\`,
failures \`{ "error": { "code", "message", "retryAfterSeconds"? } }\`; branch on \`code\`.
Every answer carries \`X-Request-Id\` and the \`RateLimit-*\` headers of its budget.
Each billable operation states its cost in points under \`x-cost\`.

The examples are curl commands: set \`BASE\` to the service's address (e.g.
\`http://localhost:8787\`) and \`KEY\` to a workspace API key first.`;

type Json = Record<string, unknown>;
type Operation = Json & { description?: string; parameters?: Parameter[] };
interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  example?: unknown;
  schema?: Json;
}
interface OpenApiDocument {
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Json> };
  security?: Record<string, string[]>[];
}

/** One entry of `x-codeSamples` (the Redocly / Scalar extension). */
export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

export function buildOpenApiDocument(
  app: OpenAPIHono<AppEnv>,
  prices: PriceTable,
): Record<string, unknown> {
  app.openAPIRegistry.registerComponent("securitySchemes", "apiKey", {
    type: "http",
    scheme: "bearer",
    description:
      "A workspace API key: `svc_sk_` followed by 48 hex characters (issued in lower case; either case is accepted). Sent as `Authorization: Bearer <key>`; anything else (no header, `Bearer` with no key, another scheme) is answered `Missing API key`",
  });
  const document = app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "Contact-data service API",
      version: "v1",
      description: DESCRIPTION,
      license: SERVICE_LICENSE,
    },
    // Relative to where this document is served: a self-hosted service knows no public address
    // of its own, and behind a proxy the address it is reached at is the right one.
    servers: [{ url: "/", description: "The service that serves this document" }],
  }) as unknown as OpenApiDocument;

  for (const methods of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(methods)) {
      // Each billed route declares its own cost (billed_route.ts); the rest are free.
      // A body the route checks itself (its validator would refuse another media type) is still
      // required: the document says so, as the route answers a missing one 400.
      if (operation["x-body-required"] === true) {
        delete operation["x-body-required"];
        const body = operation.requestBody as { required?: boolean } | undefined;
        if (body) body.required = true;
      }
      const costs = (operation["x-cost"] ?? []) as DeclaredCost[];
      operation["x-cost"] = costs.map((cost) => ({
        points: prices[cost.price],
        per: cost.per,
        priceName: cost.price,
      }));
      if (costs.length === 0) continue;
      const costText = costs.map((cost) => `${prices[cost.price]} points per ${cost.per}`)
        .join("; ");
      operation.description = `${operation.description ?? ""}\n\nCost: ${costText}.`.trim();
    }
  }
  nullableRefs(document);
  addCurlExamples(document);
  return document as Record<string, unknown>;
}

/**
 * The generator renders a nullable use of a named schema that is also used non-null (`balance`:
 * `BalanceSchema.nullable()`) as `allOf: [{ $ref }, { type: ["object", "null"] }]`, which no null
 * satisfies (the `$ref` member still demands an object). Everywhere in the document such a pair
 * becomes `anyOf: [{ $ref }, { type: "null" }]`, the OpenAPI 3.1 form of "this object or null";
 * the marker's other keywords (its description) stay on the property.
 */
export function nullableRefs(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) nullableRefs(item);
    return;
  }
  if (typeof node !== "object" || node === null) return;
  const schema = node as Json;
  const members = schema.allOf;
  if (Array.isArray(members) && members.length === 2) {
    const [ref, marker] = members as Json[];
    const markerType = marker?.type;
    if (
      typeof ref?.$ref === "string" && Object.keys(ref).length === 1 &&
      Array.isArray(markerType) && markerType.includes("null") &&
      Object.keys(marker).every((key) => key === "type" || key === "description")
    ) {
      const { type: _type, ...rest } = marker;
      delete schema.allOf;
      Object.assign(schema, rest, { anyOf: [ref, { type: "null" }] });
    }
  }
  for (const value of Object.values(schema)) nullableRefs(value);
}

/**
 * For every operation of the document: a curl command in `x-codeSamples` and, the same command,
 * an "Example" markdown section at the end of its description.
 */
export function addCurlExamples(document: OpenApiDocument): void {
  for (const [path, methods] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(methods)) {
      if (!HTTP_METHODS.has(method)) continue;
      const source = curlCommand(document, path, method, operation);
      const samples: CodeSample[] = [{ lang: "Shell", label: "curl", source }];
      operation["x-codeSamples"] = samples;
      operation.description = `${operation.description ?? ""}\n\n#### Example\n\n` +
        "```sh\n" + source + "\n```";
      operation.description = operation.description.trim();
    }
  }
}

/** `curl` for one operation: `$BASE` and `$KEY` stand for the address and the API key. */
function curlCommand(
  document: OpenApiDocument,
  path: string,
  method: string,
  operation: Operation,
): string {
  const parameters = operation.parameters ?? [];
  const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const parameter = parameters.find((p) => p.in === "path" && p.name === name);
    const value = parameter ? parameterExample(document, parameter) : undefined;
    return encodeURIComponent(value === undefined ? `<${name}>` : String(value));
  });
  const query = parameters
    .filter((p) => p.in === "query")
    .flatMap((p) => {
      const value = parameterExample(document, p);
      if (value === undefined && !p.required) return [];
      return [
        `${encodeURIComponent(p.name)}=${encodeURIComponent(String(value ?? `<${p.name}>`))}`,
      ];
    });
  const lines = [
    `curl${method === "get" ? "" : ` -X ${method.toUpperCase()}`} ` +
    `"$BASE${url}${query.length > 0 ? `?${query.join("&")}` : ""}"`,
  ];
  if (needsBearer(document, operation)) lines.push(`-H "Authorization: Bearer $KEY"`);
  const body = jsonBodyExample(document, operation);
  if (body !== undefined) lines.push(`-H 'Content-Type: application/json'`);
  for (const parameter of parameters.filter((p) => p.in === "header")) {
    const name = headerName(parameter.name);
    if (name === "Idempotency-Key") {
      // A key per operation: one key sent to two operations would be an idempotency_conflict.
      lines.push(
        `-H ${shellQuote(`${name}: ${kebab(String(operation.operationId ?? method))}-0001`)}`,
      );
      continue;
    }
    const value = parameterExample(document, parameter);
    if (value !== undefined || parameter.required) {
      lines.push(`-H ${shellQuote(`${name}: ${value ?? `<${parameter.name}>`}`)}`);
    }
  }
  if (body !== undefined) lines.push(`-d ${shellQuote(JSON.stringify(body))}`);
  return lines.map((line, i) => (i === 0 ? line : `  ${line}`)).join(" \\\n");
}

function needsBearer(document: OpenApiDocument, operation: Operation): boolean {
  const security = (operation.security ?? document.security ?? []) as Record<string, unknown>[];
  return security.some((requirement) => Object.keys(requirement).length > 0);
}

function parameterExample(document: OpenApiDocument, parameter: Parameter): unknown {
  return parameter.example ??
    (parameter.schema ? schemaExample(document, parameter.schema) : undefined);
}

/** The JSON request body the operation's schema describes, from its examples. */
function jsonBodyExample(document: OpenApiDocument, operation: Operation): unknown {
  const requestBody = operation.requestBody as
    | { content?: Record<string, { schema?: Json; example?: unknown }> }
    | undefined;
  const media = requestBody?.content?.["application/json"];
  if (!media) return undefined;
  return media.example ?? (media.schema ? schemaExample(document, media.schema) ?? {} : {});
}

/**
 * A value for a schema: its own `example` (or first `examples`), else one built from its
 * properties' or items' examples (an optional property without one is left out), else its
 * first enum member or default.
 */
function schemaExample(document: OpenApiDocument, schema: Json, depth = 0): unknown {
  if (depth > 8) return undefined;
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.replace("#/components/schemas/", "");
    const target = document.components?.schemas?.[name];
    return target ? schemaExample(document, target, depth + 1) : undefined;
  }
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  for (const key of ["allOf", "anyOf", "oneOf"] as const) {
    const members = schema[key];
    if (Array.isArray(members) && members.length > 0) {
      return schemaExample(document, members[0] as Json, depth + 1);
    }
  }
  if (schema.type === "object" || schema.properties) {
    const properties = (schema.properties ?? {}) as Record<string, Json>;
    const required = new Set((schema.required ?? []) as string[]);
    const value: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(properties)) {
      const example = schemaExample(document, property, depth + 1) ??
        (required.has(name) ? placeholder(property) : undefined);
      if (example !== undefined) value[name] = example;
    }
    return value;
  }
  if (schema.type === "array" && schema.items) {
    const item = schemaExample(document, schema.items as Json, depth + 1);
    return item === undefined ? undefined : [item];
  }
  return undefined;
}

/** A required value no example gives: the smallest one its type allows. */
function placeholder(schema: Json): unknown {
  switch (schema.type) {
    case "integer":
    case "number":
      return schema.minimum ?? 1;
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
      return {};
    default:
      return "string";
  }
}

/** `idempotency-key` → `Idempotency-Key`. */
function headerName(name: string): string {
  return name.split("-").map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join("-");
}

/** `startLeadSearch` → `start-lead-search`. */
function kebab(text: string): string {
  return text.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
}

/** One shell word in single quotes. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
