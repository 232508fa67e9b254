import assert from "node:assert/strict";
import { createApiKey } from "../domain/auth/create_api_key.ts";
import { revokeApiKey } from "../domain/auth/revoke_api_key.ts";
import {
  bearer,
  createTestEnv,
  createTestWorkspace,
  DB_TEST,
  withoutRequestId,
} from "./harness.ts";

const MISSING = "Missing API key. Pass it as: Authorization: Bearer <key>";

Deno.test(
  "auth: every 401 message, before any work; 404, 405 and 500 envelopes",
  DB_TEST,
  async (t) => {
    const env = await createTestEnv({
      app: {
        extraRoutes: (app) =>
          app.get("/test/boom", () => {
            throw new Error("password=hunter2 at /srv/secret/db.ts:42");
          }),
      },
    });
    try {
      const ws = await createTestWorkspace(env, 10);
      const get = (headers: HeadersInit = {}, path = "/api/v1/points", method = "GET") =>
        env.app.request(path, { method, headers });

      await t.step("a valid key reads its own workspace's points", async () => {
        const res = await get(bearer(ws.apiKey));
        assert.equal(res.status, 200);
        const body = await res.json();
        assert.deepEqual(
          {
            available: body.data.available,
            reserved: body.data.reserved,
            granted: body.data.granted,
          },
          { available: 10, reserved: 0, granted: 10 },
        );
        assert.equal(typeof body.data.prices.nameParse, "number");
        assert.ok(res.headers.get("x-request-id"));
      });

      const expect401 = async (res: Response, message: string) => {
        assert.equal(res.status, 401);
        assert.deepEqual(withoutRequestId(await res.json()), {
          error: { code: "unauthenticated", message },
        });
        assert.ok(res.headers.get("x-request-id"));
      };

      await t.step("missing key", async () => {
        await expect401(await get(), MISSING);
        await expect401(await get({ Authorization: "" }), MISSING);
        await expect401(await get({ Authorization: "   " }), MISSING);
      });
      await t.step("Bearer with no key, or another scheme: the key is missing", async () => {
        for (
          const authorization of [
            "Bearer",
            "Bearer ",
            "Bearer    ",
            "bearer \t ",
            "Basic abc",
            `Basic ${btoa("a:b")}`,
            "Token " + ws.apiKey,
            ws.apiKey,
            "Bearer" + ws.apiKey,
          ]
        ) {
          await expect401(await get({ Authorization: authorization }), MISSING);
        }
      });
      await t.step("a browser session cookie is not a key", async () => {
        await expect401(await get({ Cookie: "session=abc123; svc_session=xyz" }), MISSING);
      });
      await t.step("malformed and unknown keys are invalid", async () => {
        await expect401(await get(bearer("svc_sk_123")), "Invalid API key");
        await expect401(await get(bearer("svc_sk_" + "0".repeat(48))), "Invalid API key");
        // The prefix is exact; only the hex digits are read in either case.
        await expect401(await get(bearer(ws.apiKey.toUpperCase())), "Invalid API key");
        await expect401(await get(bearer("SVC_SK_" + ws.apiKey.slice(7))), "Invalid API key");
        await expect401(await get(bearer(ws.apiKey + "0")), "Invalid API key");
        await expect401(await get(bearer(ws.apiKey.slice(0, -1) + "g")), "Invalid API key");
        await expect401(
          await get({ Authorization: `Bearer ${ws.apiKey} extra` }),
          "Invalid API key",
        );
      });
      await t.step("the key's hex digits in upper or mixed case are the same key", async () => {
        const hex = ws.apiKey.slice(7);
        const mixed = [...hex].map((ch, i) => (i % 2 ? ch.toUpperCase() : ch)).join("");
        for (const key of ["svc_sk_" + hex.toUpperCase(), "svc_sk_" + mixed]) {
          const res = await get(bearer(key));
          assert.equal(res.status, 200, key);
          assert.equal((await res.json()).data.available, 10);
        }
        const res = await get({ Authorization: `bearer   ${ws.apiKey}  ` });
        assert.equal(res.status, 200);
        await res.body?.cancel();
      });
      await t.step("expired key", async () => {
        const key = await createApiKey(env, {
          workspaceId: ws.workspaceId,
          expiresAt: new Date(env.clock.now() + 60_000),
        });
        assert.equal((await get(bearer(key.apiKey))).status, 200);
        env.clock.advance(60_001);
        await expect401(await get(bearer(key.apiKey)), "This API key has expired");
      });
      await t.step("revoked key", async () => {
        const key = await createApiKey(env, { workspaceId: ws.workspaceId });
        assert.equal((await get(bearer(key.apiKey))).status, 200);
        await revokeApiKey(env, { keyId: key.keyId });
        await expect401(await get(bearer(key.apiKey)), "Invalid API key");
      });
      await t.step("each key sees only its workspace", async () => {
        const other = await createTestWorkspace(env, 77);
        const body = await (await get(bearer(other.apiKey))).json();
        assert.equal(body.data.available, 77);
      });

      await t.step("404 not_found for unknown paths, with or without a key", async () => {
        for (const headers of [{}, bearer(ws.apiKey)]) {
          const res = await get(headers, "/api/v1/nothing-here");
          assert.equal(res.status, 404);
          assert.equal((await res.json()).error.code, "not_found");
          assert.ok(res.headers.get("x-request-id"));
        }
      });
      await t.step("405 method_not_allowed with Allow", async () => {
        for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
          const res = await get(bearer(ws.apiKey), "/api/v1/points", method);
          assert.equal(res.status, 405);
          assert.deepEqual(withoutRequestId(await res.json()), {
            error: { code: "method_not_allowed", message: "Method not allowed" },
          });
          assert.equal(res.headers.get("allow"), "GET, HEAD");
        }
        const res = await get({}, "/api/v1/openapi.json", "DELETE");
        assert.equal(res.status, 405);
        assert.match(res.headers.get("allow") ?? "", /GET/);
      });
      await t.step(
        "a trailing slash is no route: 404, never a 405 naming its own method",
        async () => {
          const cases: [string, string][] = [
            ["POST", "/api/v1/name/parse/"],
            ["POST", "/api/v1/name/parse/batch/"],
            ["POST", "/api/v1/find/"],
            ["POST", "/api/v1/network-search/"],
            ["POST", "/api/v1/enrich/email/"],
            ["POST", "/api/v1/lead-search/"],
            ["GET", "/api/v1/lead-search/runs/run_1/"],
            ["POST", "/api/v1/lead-search/runs/run_1/cancel/"],
            ["GET", "/api/v1/points/"],
            ["HEAD", "/api/v1/points/"],
            ["DELETE", "/api/v1/points/"],
            ["GET", "/api/v1/openapi.json/"],
            ["GET", "/docs//"],
            ["GET", "/healthz/"],
            ["GET", "/app/"],
            ["GET", "/app/tools/"],
            ["POST", "/app/sign-in/"],
          ];
          for (const [method, path] of cases) {
            const res = await get(bearer(ws.apiKey), path, method);
            assert.equal(res.status, 404, `${method} ${path}`);
            assert.equal(res.headers.get("allow"), null, `${method} ${path}`);
            if (path.startsWith("/app/")) {
              // The app's addresses answer its own "not found" page; the API's keep their JSON.
              assert.match(res.headers.get("content-type") ?? "", /^text\/html/, path);
              await res.body?.cancel();
            } else if (method !== "HEAD") {
              assert.deepEqual(withoutRequestId(await res.json()), {
                error: { code: "not_found", message: "No such endpoint" },
              });
            } else await res.body?.cancel();
          }
          // The real paths still answer 405 for a wrong method, with a path parameter too.
          for (
            const [method, path, allow] of [
              ["GET", "/api/v1/name/parse", "POST"],
              ["GET", "/api/v1/lead-search/runs/run_1/cancel", "POST"],
              ["POST", "/api/v1/lead-search/runs/run_1", "GET, HEAD"],
              ["DELETE", "/app/tools", "GET, HEAD"],
            ]
          ) {
            const res = await get(bearer(ws.apiKey), path, method);
            assert.equal(res.status, 405, `${method} ${path}`);
            assert.equal(res.headers.get("allow"), allow, `${method} ${path}`);
            await res.body?.cancel();
          }
        },
      );
      await t.step("500 internal_error hides internals", async () => {
        const res = await get({}, "/test/boom");
        assert.equal(res.status, 500);
        const text = await res.text();
        assert.deepEqual(withoutRequestId(JSON.parse(text)), {
          error: { code: "internal_error", message: "Internal error" },
        });
        assert.ok(!text.includes("hunter2"));
        assert.ok(
          !env.logLines.join("\n").includes("hunter2"),
          "the log keeps the error kind, not its text",
        );
      });
      await t.step("request logs carry no key", () => {
        const log = env.logLines.join("\n");
        assert.ok(log.includes('"msg":"request"'));
        assert.ok(!log.includes(ws.apiKey));
        assert.ok(!log.includes(ws.apiKey.slice(7, 30)));
      });
    } finally {
      await env.close();
    }
  },
);

Deno.test(
  "500 from a failing store: generic message, nothing billed, no driver text",
  DB_TEST,
  async () => {
    const env = await createTestEnv({ config: { authCacheSeconds: 60 } });
    try {
      const ws = await createTestWorkspace(env, 10);
      assert.equal(
        (await env.app.request("/api/v1/points", { headers: bearer(ws.apiKey) })).status,
        200,
      );
      await env.db.sql`ALTER TABLE balances RENAME TO balances_gone`;
      const res = await env.app.request("/api/v1/points", { headers: bearer(ws.apiKey) });
      assert.equal(res.status, 500);
      const text = await res.text();
      assert.deepEqual(withoutRequestId(JSON.parse(text)), {
        error: { code: "internal_error", message: "Internal error" },
      });
      assert.ok(!/balances|relation|postgres/i.test(text));
      await env.db.sql`ALTER TABLE balances_gone RENAME TO balances`;
    } finally {
      await env.close();
    }
  },
);
