import assert from "node:assert/strict";
import { runAdmin } from "../admin.ts";
import { silentLogger } from "../domain/shared/logger.ts";
import { DB_TEST, startTestService } from "./harness.ts";

Deno.test(
  "admin CLI beside a running server on the same DATA_DIR / DATABASE_URL",
  DB_TEST,
  async (t) => {
    const running = await startTestService(silentLogger);
    const { env, base } = running;
    const admin = async (...args: string[]) => {
      const result = await runAdmin(args, env);
      if (!result.ok) {
        return {
          exitCode: result.exitCode,
          message: result.message,
          output: null as never,
        };
      }
      return { exitCode: 0, message: "", output: result.output as Record<string, never> };
    };
    try {
      let workspaceId = "";
      let apiKey = "";
      await t.step(
        "workspace create → the key reads /api/v1/points on the live server",
        async () => {
          const created = await admin("workspace", "create", "--name", "acme", "--points", "250");
          assert.equal(created.exitCode, 0);
          ({ workspaceId, apiKey } = created.output);
          assert.match(apiKey, /^svc_sk_[0-9a-f]{48}$/);
          assert.deepEqual(Object.keys(created.output).sort(), ["apiKey", "workspaceId"]);
          const res = await fetch(`${base}/api/v1/points`, {
            headers: { Authorization: `Bearer ${apiKey}` },
          });
          assert.equal(res.status, 200);
          assert.equal((await res.json()).data.available, 250);
          const wrong = await fetch(`${base}/api/v1/points`, {
            headers: {
              Authorization: `Bearer ${apiKey.slice(0, -1)}${apiKey.endsWith("0") ? "1" : "0"}`,
            },
          });
          assert.deepEqual(await wrong.json(), {
            error: { code: "unauthenticated", message: "Invalid API key" },
          });
        },
      );
      await t.step("key create / revoke", async () => {
        const key = await admin(
          "key",
          "create",
          "--workspace",
          workspaceId,
          "--expires-in",
          "3600",
        );
        assert.equal(key.exitCode, 0);
        assert.match(key.output.apiKey, /^svc_sk_/);
        assert.match(key.output.keyId, /^key_/);
        const headers = { Authorization: `Bearer ${key.output.apiKey}` };
        assert.equal(
          (await (await fetch(`${base}/api/v1/points`, { headers })).json()).data.available,
          250,
        );
        const revoked = await admin("key", "revoke", "--key-id", key.output.keyId);
        assert.equal(revoked.exitCode, 0);
        await new Promise((r) => setTimeout(r, 5100)); // the server caches a verified key for 5 s
        const res = await fetch(`${base}/api/v1/points`, { headers });
        assert.equal(res.status, 401);
        await res.body?.cancel();
      });
      await t.step("points grant and balance", async () => {
        const granted = await admin(
          "points",
          "grant",
          "--workspace",
          workspaceId,
          "--points",
          "50",
        );
        assert.deepEqual(granted.output.balance, { available: 300, reserved: 0, granted: 300 });
        const balance = await admin("balance", "--workspace", workspaceId);
        assert.deepEqual(balance.output.balance, { available: 300, reserved: 0, granted: 300 });
        assert.deepEqual((balance.output.entries as { kind: string }[]).map((e) => e.kind), [
          "grant",
          "grant",
        ]);
      });
      await t.step("bad arguments: exit code 2 and a clear message", async () => {
        for (
          const [args, message] of [
            [[], /no command/],
            [["frobnicate"], /unknown command/],
            [["workspace", "create"], /--name is required/],
            [
              ["points", "grant", "--workspace", workspaceId, "--points", "-5"],
              /--points|Unknown option|argument/,
            ],
            [
              ["key", "create", "--workspace", workspaceId, "--expires-in", "soon"],
              /--expires-in must be an integer/,
            ],
            [["balance", "--workspace", workspaceId, "--verbose"], /Unknown option|verbose/],
          ] as [string[], RegExp][]
        ) {
          const result = await admin(...args);
          assert.equal(result.exitCode, 2, args.join(" "));
          assert.match(result.message, message);
        }
        const missing = await admin("balance", "--workspace", "ws_nope");
        assert.equal(missing.exitCode, 1);
        assert.match(missing.message, /No workspace with id ws_nope/);
      });
    } finally {
      await running.stop();
      await running.cleanup();
    }
  },
);
