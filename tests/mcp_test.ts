/**
 * `POST /mcp` driven by the official SDK's Client over Streamable HTTP against a served app: the
 * ten tools are listed with schemas, annotations and costs; each tool answers what its API
 * operation answers, with the same charges; a replay under the same key is free (across MCP and
 * the API, which share one key space); a missing or bad key is refused before any work; a
 * validation failure is a tool error with the API's message, a refusal a normal result; and the
 * API's rate-limit budgets hold.
 */
import assert from "node:assert/strict";
import { DEFAULT_PRICES, DEFAULT_RATE_LIMITS } from "../domain/config/config.ts";
import { INVALID_KEY_MESSAGE, MISSING_KEY_MESSAGE } from "../domain/auth/authenticate.ts";
import {
  bearer,
  countCharges,
  createTestWorkspace,
  DB_TEST,
  type TestEnv,
  type TestEnvOptions,
  withoutRequestId,
} from "./harness.ts";
import { type Client, connectMcp } from "./mcp_client.ts";
import { withServedApp as serve } from "./served_app.ts";

const PRICES = { ...DEFAULT_PRICES, nameParse: 3, findEmail: 7, networkSearch: 4, enrich: 6 };

const TOOL_NAMES = [
  "parse_name",
  "parse_names",
  "find_email",
  "search_network",
  "enrich_email",
  "search_domain",
  "count_domain",
  "start_lead_search",
  "get_lead_search_run",
  "cancel_lead_search_run",
  "get_points",
  "verify_email",
];

/** The served app (served_app.ts) with the test's prices. */
function withServedApp(
  options: TestEnvOptions,
  body: (env: TestEnv, base: string) => Promise<void>,
): Promise<void> {
  return serve({ ...options, config: { prices: PRICES, ...options.config } }, body);
}

type Data = Record<string, unknown>;

async function tool(client: Client, name: string, args: Data) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text: string }[])[0]?.text ?? "";
  return {
    isError: result.isError === true,
    data: result.structuredContent as Data | undefined,
    error: result.isError ? JSON.parse(text).error as Data : undefined,
    text,
  };
}

async function api(
  env: TestEnv,
  apiKey: string,
  method: string,
  path: string,
  body?: unknown,
  key?: string,
) {
  const res = await env.app.request(path, {
    method,
    headers: bearer(apiKey, {
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      ...(key ? { "Idempotency-Key": key } : {}),
    }),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  return { status: res.status, data: json.data as Data | undefined, error: json.error as Data };
}

/** An answer with the values that differ between two runs (ids, times) written as placeholders. */
function comparable(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value)
      .replace(/run_[0-9a-f]{20}/g, "run_<id>")
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, "<time>"),
  );
}

Deno.test(
  "mcp: the tools, with input and output schemas, annotations and costs",
  DB_TEST,
  () =>
    withServedApp({}, async (env, base) => {
      const { apiKey } = await createTestWorkspace(env, 100);
      const client = await connectMcp(base, apiKey);
      try {
        const { tools } = await client.listTools();
        assert.deepEqual(tools.map((t) => t.name), TOOL_NAMES);
        const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
        for (const t of tools) {
          assert.equal(t.inputSchema.type, "object", t.name);
          assert.equal(t.outputSchema?.type, "object", t.name);
          assert.ok((t.description ?? "").length > 40, t.name);
          assert.ok(!t.description?.includes("curl"), `${t.name}: no curl example`);
        }
        // Costs read from the price table (the test's prices differ from the defaults).
        assert.match(byName.parse_name.description!, /Cost: 3 points per answered name/);
        assert.match(byName.parse_names.description!, /Cost: 3 points per answered row/);
        assert.match(byName.find_email.description!, /7 points per completed email lookup/);
        assert.match(byName.search_network.description!, /Cost: 4 points per completed search/);
        assert.match(byName.enrich_email.description!, /Cost: 6 points per completed enrichment/);
        assert.match(byName.start_lead_search.description!, /2 points per delivered lead/);
        assert.match(byName.get_points.description!, /Free/);

        for (const name of ["get_points", "get_lead_search_run"]) {
          assert.equal(byName[name].annotations?.readOnlyHint, true, name);
          assert.equal(byName[name].annotations?.idempotentHint, true, name);
        }
        assert.equal(byName.cancel_lead_search_run.annotations?.idempotentHint, true);
        for (const name of TOOL_NAMES.slice(0, 6)) {
          assert.equal(byName[name].annotations?.readOnlyHint, false, name);
          assert.equal(byName[name].annotations?.idempotentHint, false, name);
          assert.ok(byName[name].inputSchema.properties?.idempotencyKey, `${name} takes a key`);
        }

        // The input is the route's own request schema: the document's, plus idempotencyKey.
        const document = await (await env.app.request("/api/v1/openapi.json")).json();
        const parseRequest = document.components.schemas.ParseNameRequest;
        assert.deepEqual(
          byName.parse_name.inputSchema.properties?.name,
          parseRequest.properties.name,
        );
        assert.deepEqual(byName.parse_name.inputSchema.required, ["name"]);
        assert.deepEqual(byName.get_lead_search_run.inputSchema.required, ["runId"]);
        assert.equal(
          (byName.get_lead_search_run.inputSchema.properties?.page as Data).type,
          "integer",
        );
        const findIf = byName.find_email.inputSchema as Data;
        assert.ok(findIf.if && findIf.then && findIf.else, "find states its modes' fields");
        assert.deepEqual(
          Object.keys(byName.get_points.outputSchema?.properties ?? {}).sort(),
          ["available", "granted", "prices", "reserved"].sort(),
        );
      } finally {
        await client.close();
      }
    }),
);

Deno.test(
  "mcp: each tool answers as its API operation does, and charges the same",
  DB_TEST,
  () =>
    // No result cache: the second of two same searches would answer `cached: true`.
    withServedApp({ config: { searchCacheSeconds: 0 } }, async (env, base) => {
      const viaApi = await createTestWorkspace(env, 1000);
      const viaMcp = await createTestWorkspace(env, 1000);
      const client = await connectMcp(base, viaMcp.apiKey);
      try {
        const calls: { tool: string; args: Data; method: string; path: string; key?: string }[] = [
          {
            tool: "parse_name",
            args: { name: "Ada Lovelace" },
            method: "POST",
            path: "/api/v1/name/parse",
          },
          {
            tool: "parse_names",
            args: { names: ["Ada Lovelace", "Grace Hopper", "Madonna"], idempotencyKey: "batch-1" },
            method: "POST",
            path: "/api/v1/name/parse/batch",
            key: "batch-1",
          },
          {
            tool: "find_email",
            args: { name: "Ada Lovelace", company: "analytical.example" },
            method: "POST",
            path: "/api/v1/find",
          },
          {
            tool: "search_network",
            args: { firstName: "Charles", lastName: "Babbage" },
            method: "POST",
            path: "/api/v1/network-search",
          },
          {
            tool: "enrich_email",
            args: { email: "ada.lovelace@analytical.example" },
            method: "POST",
            path: "/api/v1/enrich/email",
          },
          {
            // Refused free (a free-mail domain): the charges below stay the same.
            tool: "search_domain",
            args: { domain: "gmail.com" },
            method: "POST",
            path: "/api/v1/domain-search",
          },
          {
            tool: "start_lead_search",
            args: { count: 3, filters: { jobTitle: ["engineer"] }, idempotencyKey: "run-1" },
            method: "POST",
            path: "/api/v1/lead-search",
            key: "run-1",
          },
        ];
        const runIds: Record<string, string> = {};
        for (const call of calls) {
          const { idempotencyKey: _key, ...body } = call.args;
          const fromApi = await api(env, viaApi.apiKey, call.method, call.path, body, call.key);
          const fromMcp = await tool(client, call.tool, call.args);
          assert.equal(fromApi.status, 200, `${call.tool}: ${JSON.stringify(fromApi.error)}`);
          assert.equal(fromMcp.isError, false, `${call.tool}: ${fromMcp.text}`);
          assert.deepEqual(comparable(fromMcp.data), comparable(fromApi.data), call.tool);
          // The text block carries the same answer, for clients that read text only.
          assert.deepEqual(JSON.parse(fromMcp.text), fromMcp.data);
          if (call.tool === "start_lead_search") {
            runIds.api = (fromApi.data!.run as Data).id as string;
            runIds.mcp = (fromMcp.data!.run as Data).id as string;
          }
        }
        // The lookups answered from the directory and charged: the comparison is not of refusals.
        assert.equal(await countCharges(env, viaMcp.workspaceId), 1 + 2 + 1 + 1 + 1);

        const runPath = `/api/v1/lead-search/runs/${runIds.api}`;
        const polled = await api(env, viaApi.apiKey, "GET", `${runPath}?page=1`);
        const polledMcp = await tool(client, "get_lead_search_run", { runId: runIds.mcp, page: 1 });
        assert.deepEqual(comparable(polledMcp.data), comparable(polled.data));
        const cancelled = await api(env, viaApi.apiKey, "POST", `${runPath}/cancel`, {});
        const cancelledMcp = await tool(client, "cancel_lead_search_run", { runId: runIds.mcp });
        assert.deepEqual(cancelledMcp.data, cancelled.data);
        assert.deepEqual(cancelledMcp.data, { status: "cancelled" });

        const counted = await api(
          env,
          viaApi.apiKey,
          "GET",
          "/api/v1/domain-search/count?domain=analytical.example",
        );
        const countedMcp = await tool(client, "count_domain", { domain: "analytical.example" });
        assert.deepEqual(countedMcp.data, counted.data);
        assert.ok(((counted.data as Data).people as number) > 0);

        const points = await api(env, viaApi.apiKey, "GET", "/api/v1/points");
        const pointsMcp = await tool(client, "get_points", {});
        assert.deepEqual(pointsMcp.data, points.data);
        // 1000 − 3 (parse) − 2 × 3 (two answered rows) − 7 (find) − 4 (search) − 6 (enrich).
        assert.equal((pointsMcp.data as Data).available, 1000 - 3 - 6 - 7 - 4 - 6);
        assert.equal(
          await countCharges(env, viaMcp.workspaceId),
          await countCharges(env, viaApi.workspaceId),
        );

        // Neither the names, the address nor the key reached a log line.
        const log = env.logLines.join("\n");
        for (const secret of ["Lovelace", "Babbage", "analytical.example", viaMcp.apiKey]) {
          assert.ok(!log.includes(secret), `the log holds ${secret}`);
        }
        assert.ok(log.includes('"route":"/mcp"'), "the /mcp request is logged, as every request");
      } finally {
        await client.close();
      }
    }),
);

Deno.test(
  "mcp: a replay under the same key is free, in MCP and in the API alike",
  DB_TEST,
  () =>
    withServedApp({}, async (env, base) => {
      const ws = await createTestWorkspace(env, 100);
      const client = await connectMcp(base, ws.apiKey);
      try {
        const args = {
          name: "Ada Lovelace",
          company: "analytical.example",
          idempotencyKey: "find-1",
        };
        const first = await tool(client, "find_email", args);
        assert.equal(first.data?.charged, true);
        assert.equal(first.data?.pointsCharged, 7);
        const again = await tool(client, "find_email", args);
        assert.equal(again.data?.replay, true);
        assert.equal(again.data?.charged, false);
        assert.equal(again.data?.pointsCharged, 0);
        assert.equal(again.data?.email, first.data?.email);
        assert.deepEqual(again.data?.balance, first.data?.balance);

        // One key space: the API call with the same key and body is the same replay.
        const { idempotencyKey: key, ...body } = args;
        const fromApi = await api(env, ws.apiKey, "POST", "/api/v1/find", body, key);
        assert.equal(fromApi.data?.replay, true);
        assert.equal(fromApi.data?.pointsCharged, 0);

        const changed = await tool(client, "find_email", { ...args, name: "Charles Babbage" });
        assert.equal(changed.isError, true);
        assert.equal(changed.error?.code, "idempotency_conflict");
        assert.equal(await countCharges(env, ws.workspaceId), 1);

        // The batch makes a fresh key when none is given: two calls, two batches, both billed.
        await tool(client, "parse_names", { names: ["Ada Lovelace"] });
        const second = await tool(client, "parse_names", { names: ["Ada Lovelace"] });
        assert.equal(second.data?.replay, false);
        assert.equal(second.data?.pointsCharged, 3);
      } finally {
        await client.close();
      }
    }),
);

Deno.test(
  "mcp: a missing or bad key is refused with 401 before any work",
  DB_TEST,
  () =>
    withServedApp({}, async (env, base) => {
      const ws = await createTestWorkspace(env, 100);
      const call = JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "find_email",
          arguments: { name: "Ada Lovelace", company: "analytical.example" },
        },
      });
      const headers = {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      };
      const cases: [Record<string, string>, string, string][] = [
        [{}, call, MISSING_KEY_MESSAGE],
        [{ Authorization: "Bearer svc_sk_" + "0".repeat(48) }, call, INVALID_KEY_MESSAGE],
        [{ Authorization: `Basic ${ws.apiKey}` }, call, MISSING_KEY_MESSAGE],
        // Not even read: a body that is no JSON-RPC at all is refused for the key, not the body.
        [{}, "{not json", MISSING_KEY_MESSAGE],
      ];
      for (const [auth, body, message] of cases) {
        const res = await fetch(`${base}/mcp`, {
          method: "POST",
          headers: { ...headers, ...auth },
          body,
        });
        assert.equal(res.status, 401);
        const answer = await res.json();
        assert.equal(answer.jsonrpc, "2.0");
        assert.equal(answer.error.message, message);
        assert.equal(answer.error.data.code, "unauthenticated");
      }
      await assert.rejects(connectMcp(base, "svc_sk_" + "f".repeat(48)));
      assert.equal(await countCharges(env, ws.workspaceId), 0);
      const points = await api(env, ws.apiKey, "GET", "/api/v1/points");
      assert.equal(points.data?.available, 100);
      const [{ n }] = await env.db.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM idempotency_records WHERE workspace_id = ${ws.workspaceId}`;
      assert.equal(n, 0);

      // Sessions and server streams are not offered: 405 with the methods that are.
      const get = await fetch(`${base}/mcp`, { headers: bearer(ws.apiKey) });
      assert.equal(get.status, 405);
      assert.equal(get.headers.get("allow"), "POST");
      await get.body?.cancel();
    }),
);

Deno.test(
  "mcp: validation failures are tool errors with the API's message; refusals are results",
  DB_TEST,
  () =>
    withServedApp({}, async (env, base) => {
      const ws = await createTestWorkspace(env, 100);
      const broke = await createTestWorkspace(env, 0);
      const client = await connectMcp(base, ws.apiKey);
      const brokeClient = await connectMcp(base, broke.apiKey);
      try {
        const invalid: [string, Data, string][] = [
          ["parse_name", { name: "   " }, "/api/v1/name/parse"],
          ["find_email", { mode: "network" }, "/api/v1/find"],
          ["search_network", { firstName: "Ada" }, "/api/v1/network-search"],
          ["start_lead_search", { count: 0 }, "/api/v1/lead-search"],
          ["parse_names", { names: [] }, "/api/v1/name/parse/batch"],
        ];
        for (const [name, args, path] of invalid) {
          const result = await tool(client, name, args);
          const fromApi = await api(env, ws.apiKey, "POST", path, args, "some-key");
          assert.equal(fromApi.status, 400, name);
          assert.equal(result.isError, true, name);
          // The same envelope word for word, but for the request id each answer has its own of.
          assert.deepEqual(
            withoutRequestId({ error: result.error! }),
            withoutRequestId({ error: fromApi.error! }),
            name,
          );
        }
        const page = await tool(client, "get_lead_search_run", {
          runId: "run_0a1b2c3d4e5f60718293",
          page: 0,
        });
        assert.equal(page.error?.code, "validation_error");
        const missing = await tool(client, "get_lead_search_run", {});
        assert.deepEqual(missing.error, { code: "validation_error", message: "runId is required" });
        const unknown = await tool(client, "cancel_lead_search_run", {
          runId: "run_0a1b2c3d4e5f60718293",
        });
        assert.equal(unknown.error?.code, "not_found");

        // A refusal is an answer with its reason, not an error; nothing is charged.
        const start = await tool(brokeClient, "start_lead_search", { count: 5 });
        assert.equal(start.isError, false);
        assert.equal(start.data?.reason, "insufficient-credits");
        assert.equal(start.data?.run, null);
        const find = await tool(brokeClient, "find_email", {
          name: "Ada Lovelace",
          company: "analytical.example",
        });
        assert.equal(find.isError, false);
        assert.equal(find.data?.reason, "insufficient-credits");
        // Name parse refuses with 402, and so does the tool, with the API's meta.
        const parse = await tool(brokeClient, "parse_name", { name: "Ada Lovelace" });
        assert.equal(parse.error?.code, "insufficient_credits");
        assert.deepEqual(parse.error?.meta, { required: 3, available: 0, shortfall: 3 });
        assert.equal(await countCharges(env, broke.workspaceId), 0);
        assert.equal(await countCharges(env, ws.workspaceId), 0);
      } finally {
        await client.close();
        await brokeClient.close();
      }
    }),
);

Deno.test(
  "mcp: a tool call counts against its operation's rate-limit budget",
  DB_TEST,
  () =>
    withServedApp({
      config: {
        prices: PRICES,
        rateLimits: { ...DEFAULT_RATE_LIMITS, find: { limit: 2, windowSeconds: 60 } },
      },
    }, async (env, base) => {
      const ws = await createTestWorkspace(env, 100);
      const client = await connectMcp(base, ws.apiKey);
      try {
        const body = { name: "Ada Lovelace", company: "analytical.example" };
        assert.equal((await api(env, ws.apiKey, "POST", "/api/v1/find", body)).status, 200);
        assert.equal((await tool(client, "find_email", body)).isError, false);
        const limited = await tool(client, "find_email", body);
        assert.equal(limited.isError, true);
        assert.equal(limited.error?.code, "rate_limited");
        assert.equal(limited.error?.message, "Rate limit exceeded");
        assert.ok(Number(limited.error?.retryAfterSeconds) >= 1);
        // The API shares the spent budget; other operations keep theirs.
        assert.equal((await api(env, ws.apiKey, "POST", "/api/v1/find", body)).status, 429);
        assert.equal((await tool(client, "parse_name", { name: "Ada Lovelace" })).isError, false);
        assert.equal(await countCharges(env, ws.workspaceId), 2 + 1);
      } finally {
        await client.close();
      }
    }),
);

Deno.test(
  "mcp: verify_email answers what POST /api/v1/verify answers, billed alike",
  DB_TEST,
  () =>
    withServedApp({
      config: { prices: { ...PRICES, verify: 2 } },
      ports: {
        // A mail server that refuses a random probe and accepts every other address.
        verifier: {
          verify: (request) =>
            Promise.resolve({
              kind: "valid",
              address: request.candidates[0],
              mailHosts: ["mx.analytical.example"],
              evidence: {
                mxHost: "mx.analytical.example",
                provider: "other",
                smtpCode: 250,
                enhancedStatus: "2.1.5",
                encrypted: true,
                certificateVerified: false,
                checkedAt: "2026-12-02T00:00:00.000Z",
              },
            }),
        },
      },
    }, async (env, base) => {
      const viaMcp = await createTestWorkspace(env, 100);
      const viaApi = await createTestWorkspace(env, 100);
      const client = await connectMcp(base, viaMcp.apiKey);
      try {
        const { tools } = await client.listTools();
        const listing = tools.find((t) => t.name === "verify_email")!;
        assert.match(listing.description!, /Cost: 2 points per address verified to a verdict/);
        assert.ok(listing.inputSchema.properties?.email);
        assert.ok(listing.outputSchema?.properties?.checks);
        const args = { email: "Ada.Lovelace@analytical.example", idempotencyKey: "v-1" };
        const fromMcp = await tool(client, "verify_email", args);
        const fromApi = await api(env, viaApi.apiKey, "POST", "/api/v1/verify", {
          email: args.email,
        }, "v-1");
        assert.equal(fromMcp.isError, false, fromMcp.text);
        assert.equal(fromMcp.data!.status, "valid");
        // The second asker of an address within the window is answered from the cache.
        assert.deepEqual([fromMcp.data!.cached, fromApi.data!.cached], [false, true]);
        assert.deepEqual(
          comparable({ ...fromMcp.data, cached: true }),
          comparable(fromApi.data),
        );
        assert.equal(fromMcp.data!.pointsCharged, 2);
        const replay = await tool(client, "verify_email", args);
        assert.deepEqual([replay.data!.replay, replay.data!.pointsCharged], [true, 0]);
        const refused = await tool(client, "verify_email", { email: "" });
        assert.equal(refused.isError, true);
        assert.equal(refused.error!.code, "validation_error");
        assert.ok(!env.logLines.join("\n").includes("lovelace"), "no address in the log");
      } finally {
        await client.close();
      }
    }),
);
