/**
 * The document says what the service checks: requests generated from the served OpenAPI
 * document's own schemas (body, path, query and header parameters; property-based, fast-check),
 * each admitted by a JSON Schema validator (Ajv, draft 2020-12), are sent to the app served on
 * 127.0.0.1, and none may be refused as invalid (400 `validation_error`) or fail (5xx).
 * Outcomes that depend on state, not on the request's form, are allowed: an unknown run (404,
 * 400 `invalid_continuation`), an active run (409), a reused key (409), a name that does not split
 * (400 `invalid_input`). Bounded: CONFORMANCE_RUNS requests per operation (default 100), a fixed
 * seed (CONFORMANCE_SEED), and a time limit.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { Ajv2020 } from "ajv/dist/2020.js";
import {
  inlineReferences,
  type OpenApiDocument,
  type OpenApiOperation,
} from "../routes/mcp/tool_definitions.ts";
import { arbitraryOf } from "./schema_arbitrary.ts";
import {
  bearer,
  createTestEnv,
  createTestWorkspace,
  DB_TEST,
  UNLIMITED_RATE_LIMITS,
} from "./harness.ts";
import { importProfiles } from "./profiles.ts";

type Json = Record<string, unknown>;

const RUNS = Number(Deno.env.get("CONFORMANCE_RUNS") ?? 100);
const SEED = Number(Deno.env.get("CONFORMANCE_SEED") ?? 20261127);
const TIME_LIMIT_MS = 150_000;

/** Answers that say something about the service's state, not about the request's form. */
const STATE_CODES = new Set([
  "not_found",
  "invalid_continuation",
  "run_already_active",
  "run_already_continued",
  "idempotency_conflict",
  "insufficient_credits",
  "invalid_input",
  "results_expired",
]);

/**
 * A bulk job's checks the document states in words, not in a schema: the key is required to
 * start a job but not for a dry run (a header cannot depend on a query parameter), and rows are
 * each checked as their single call checks its body, a job with no valid row being refused.
 */
const BULK_JOB_CHECKS = new Set([
  "Idempotency-Key is required to start a job",
  "No row is valid: nothing to do",
]);

/**
 * Operations not generated: registering a webhook resolves the URL's host in DNS, so its answer
 * depends on the world, and random host names would send lookups off this machine. Its checks
 * have their own tests (tests/webhooks_test.ts).
 */
const NOT_GENERATED = new Set(["POST /api/v1/webhooks"]);

interface GeneratedRequest {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body?: unknown;
}

/** One arbitrary per operation: its parameters and body, each from the document's schema. */
function requestArbitrary(
  operation: OpenApiOperation,
  inline: (schema: Json) => Json,
): { arbitrary: fc.Arbitrary<GeneratedRequest>; admits: (request: GeneratedRequest) => boolean } {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  const group = (where: string) => {
    const parameters = (operation.parameters ?? []).filter((p) => p.in === where);
    const schema = {
      type: "object",
      properties: Object.fromEntries(parameters.map((p) => [p.name, inline(p.schema ?? {})])),
      required: parameters.filter((p) => p.required).map((p) => p.name),
      additionalProperties: false,
    };
    return { schema, validate: ajv.compile(schema) };
  };
  const path = group("path");
  const query = group("query");
  const headers = group("header");
  const bodySchema = operation.requestBody?.required
    ? inline(operation.requestBody.content?.["application/json"]?.schema ?? {})
    : undefined;
  const body = bodySchema ? ajv.compile(bodySchema) : undefined;
  return {
    arbitrary: fc.record({
      path: arbitraryOf(path.schema) as fc.Arbitrary<Record<string, unknown>>,
      query: arbitraryOf(query.schema) as fc.Arbitrary<Record<string, unknown>>,
      headers: arbitraryOf(headers.schema) as fc.Arbitrary<Record<string, unknown>>,
      ...(bodySchema ? { body: arbitraryOf(bodySchema) } : {}),
    }),
    admits: (request) =>
      path.validate(request.path) && query.validate(request.query) &&
      headers.validate(request.headers) && (!body || body(request.body)),
  };
}

Deno.test(
  "openapi.json: no request the document admits is refused as invalid (property-based)",
  DB_TEST,
  async () => {
    const env = await createTestEnv({ config: { rateLimits: UNLIMITED_RATE_LIMITS } });
    const server = Deno.serve(
      { port: 0, hostname: "127.0.0.1", onListen: () => {} },
      env.app.fetch,
    );
    const base = `http://127.0.0.1:${server.addr.port}`;
    const deadline = Date.now() + TIME_LIMIT_MS;
    try {
      await importProfiles(env);
      const { apiKey } = await createTestWorkspace(env, 1_000_000_000);
      const document = await (await fetch(`${base}/api/v1/openapi.json`))
        .json() as OpenApiDocument;
      const inline = inlineReferences(document);
      const usedKeys = new Set<string>();
      const tally: Record<string, { sent: number; statuses: Record<number, number> }> = {};

      for (const [template, methods] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(methods)) {
          const where = `${method.toUpperCase()} ${template}`;
          if (NOT_GENERATED.has(where)) continue;
          const { arbitrary, admits } = requestArbitrary(operation, inline);
          const seen: { sent: number; statuses: Record<number, number> } = tally[where] = {
            sent: 0,
            statuses: {},
          };
          await fc.assert(
            fc.asyncProperty(arbitrary, async (request) => {
              fc.pre(admits(request));
              // A key sent before answers for its first request (409 on another): each key once,
              // so every request is judged on its own form.
              const key = request.headers["idempotency-key"];
              fc.pre(key === undefined || !usedKeys.has(String(key)));
              if (key !== undefined) usedKeys.add(String(key));
              const url = new URL(
                template.replace(
                  /\{(\w+)\}/g,
                  (_, n) => encodeURIComponent(String(request.path[n])),
                ),
                base,
              );
              for (const [name, value] of Object.entries(request.query)) {
                url.searchParams.set(name, String(value));
              }
              const headers = new Headers(bearer(apiKey));
              for (const [name, value] of Object.entries(request.headers)) {
                headers.set(name, String(value));
              }
              if ("body" in request) headers.set("Content-Type", "application/json");
              const response = await fetch(url, {
                method: method.toUpperCase(),
                headers,
                body: "body" in request ? JSON.stringify(request.body) : undefined,
              });
              const text = await response.text();
              seen.sent++;
              seen.statuses[response.status] = (seen.statuses[response.status] ?? 0) + 1;
              const error = response.ok ? null : JSON.parse(text)?.error;
              const code = error?.code ?? null;
              const statedInWords = template === "/api/v1/bulk/jobs" &&
                code === "validation_error" && BULK_JOB_CHECKS.has(error?.message);
              // A started run is cancelled, so the next start is judged on its form again.
              if (template === "/api/v1/lead-search" && response.ok) {
                const runId = JSON.parse(text).data.run?.id;
                if (runId) {
                  await (await fetch(`${base}/api/v1/lead-search/runs/${runId}/cancel`, {
                    method: "POST",
                    headers: bearer(apiKey),
                  })).body?.cancel();
                }
              }
              assert.ok(
                response.ok || (response.status < 500 && (STATE_CODES.has(code) || statedInWords)),
                `${where} admitted by the document, answered ${response.status}: ${text}`,
              );
            }),
            {
              numRuns: RUNS,
              seed: SEED,
              interruptAfterTimeLimit: Math.max(1_000, deadline - Date.now()),
              maxSkipsPerRun: 200,
            },
          );
        }
      }
      console.log(JSON.stringify(tally));
      for (const [where, { sent }] of Object.entries(tally)) {
        assert.ok(sent > 0, `${where}: no admitted request was generated`);
      }
    } finally {
      await server.shutdown();
      await env.close();
    }
  },
);
