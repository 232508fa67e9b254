import { loadConfig } from "../domain/config/config.ts";
import assert from "node:assert/strict";
import { migrate, readMigrations } from "../domain/stores/migrate.ts";
import { openDatabase } from "../domain/stores/database.ts";
import { ensureBootstrapWorkspace } from "../domain/workspaces/ensure_bootstrap_workspace.ts";
import { readBalance } from "../domain/billing/balance.ts";
import { createApiKey } from "../domain/auth/create_api_key.ts";
import { hashApiKey } from "../domain/auth/api_key.ts";
import { memoryLogger } from "../domain/shared/logger.ts";
import { DB_TEST, openTestDatabase } from "./harness.ts";

Deno.test(
  "migrations: run twice, and concurrently from two clients, apply once",
  DB_TEST,
  async () => {
    const db = await openTestDatabase();
    const second = db.url ? await openDatabase({ url: db.url }) : db;
    try {
      const all = (await readMigrations()).map((m) => m.name);
      assert.ok(all.length >= 2);
      const [a, b] = await Promise.all([migrate(db.sql), migrate(second.sql)]);
      assert.deepEqual(
        [...a, ...b].sort(),
        [...all].sort(),
        "every migration applied exactly once",
      );
      assert.deepEqual(await migrate(db.sql), []);
      assert.deepEqual(await migrate(second.sql), []);
      const rows = await db.sql`SELECT version FROM schema_migrations`;
      assert.equal(rows.length, all.length);
    } finally {
      if (second !== db) await second.close();
      await db.drop();
    }
  },
);

Deno.test(
  "bootstrap: the default workspace and its key, idempotent across restarts",
  DB_TEST,
  async () => {
    const db = await openTestDatabase();
    try {
      await migrate(db.sql);
      const apiKey = "svc_sk_" + "ab".repeat(24);
      // Two instances starting at once.
      const [one, two] = await Promise.all([
        ensureBootstrapWorkspace({ db }, { apiKey, points: 500 }),
        ensureBootstrapWorkspace({ db }, { apiKey, points: 500 }),
      ]);
      assert.equal(one.workspaceId, two.workspaceId);
      // A restart with the same settings changes nothing.
      const again = await ensureBootstrapWorkspace({ db }, { apiKey, points: 500 });
      assert.equal(again.workspaceId, one.workspaceId);
      assert.equal(again.created, false);
      assert.deepEqual(await readBalance({ db }, one.workspaceId), {
        available: 500,
        reserved: 0,
        granted: 500,
      });
      assert.equal((await db.sql`SELECT 1 FROM workspaces WHERE name = 'default'`).length, 1);
      assert.equal(
        (await db.sql`SELECT 1 FROM api_keys WHERE workspace_id = ${one.workspaceId}`).length,
        1,
      );
      const grants = await db
        .sql`SELECT amount FROM ledger_entries WHERE workspace_id = ${one.workspaceId}`;
      assert.equal(grants.length, 1);
      // Raising the floor grants only the difference; spending does not trigger a top-up.
      await db.sql`UPDATE balances SET available = 100 WHERE workspace_id = ${one.workspaceId}`;
      await ensureBootstrapWorkspace({ db }, { apiKey, points: 800 });
      assert.deepEqual(await readBalance({ db }, one.workspaceId), {
        available: 400,
        reserved: 0,
        granted: 800,
      });
      await ensureBootstrapWorkspace({ db }, { apiKey, points: 800 });
      assert.equal((await readBalance({ db }, one.workspaceId)).granted, 800);
    } finally {
      await db.drop();
    }
  },
);

Deno.test("SVC_BOOTSTRAP_KEY: hex in either case, kept in the lower-case form keys are hashed in", () => {
  const hex = "0123456789abcdef".repeat(3);
  assert.equal(
    loadConfig({ SVC_BOOTSTRAP_KEY: "svc_sk_" + hex.toUpperCase() }).bootstrap?.key,
    "svc_sk_" + hex,
  );
  assert.throws(
    () => loadConfig({ SVC_BOOTSTRAP_KEY: "SVC_SK_" + hex }),
    /SVC_BOOTSTRAP_KEY must be svc_sk_ followed by 48 hex characters/,
  );
});

Deno.test(
  "bootstrap: a new SVC_BOOTSTRAP_KEY revokes the previous one, never keys made by users",
  DB_TEST,
  async () => {
    const db = await openTestDatabase();
    try {
      await migrate(db.sql);
      const oldKey = "svc_sk_" + "ab".repeat(24);
      const newKey = "svc_sk_" + "cd".repeat(24);
      const first = await ensureBootstrapWorkspace({ db }, { apiKey: oldKey, points: 100 });
      assert.deepEqual(first.revokedKeyIds, []);
      // A key a user made for the same workspace (CLI or app).
      const userKey = await createApiKey({ db }, { workspaceId: first.workspaceId, name: "CRM" });

      const second = await ensureBootstrapWorkspace({ db }, { apiKey: newKey, points: 100 });
      assert.equal(second.workspaceId, first.workspaceId);
      assert.equal(second.revokedKeyIds.length, 1);
      const live = async (apiKey: string) =>
        (await db.sql`SELECT 1 FROM api_keys
                       WHERE key_hash = ${await hashApiKey(apiKey)} AND revoked_at IS NULL`)
          .length === 1;
      assert.equal(await live(oldKey), false, "the previous bootstrap key is revoked");
      assert.equal(await live(newKey), true);
      assert.equal(await live(userKey.apiKey), true, "a user's key is kept");

      // Restarting with the new key again revokes nothing more.
      const third = await ensureBootstrapWorkspace({ db }, { apiKey: newKey, points: 100 });
      assert.deepEqual(third.revokedKeyIds, []);
      // Going back to a revoked key is refused, as before.
      await assert.rejects(
        ensureBootstrapWorkspace({ db }, { apiKey: oldKey, points: 100 }),
        /SVC_BOOTSTRAP_KEY was revoked; set a new one/,
      );
      assert.equal(await live(newKey), true, "a refused start revokes nothing");
    } finally {
      await db.drop();
    }
  },
);

Deno.test(
  "bootstrap: restarting the service with a new SVC_BOOTSTRAP_KEY — the old key answers 401, one log line, no key in it",
  DB_TEST,
  async () => {
    const { startService } = await import("../main.ts");
    const dataDir = await Deno.makeTempDir({ prefix: "fixg-bootstrap-" });
    const pg = Deno.env.get("TEST_DATABASE_URL") ? await openTestDatabase() : null;
    const oldKey = "svc_sk_" + "12".repeat(24);
    const newKey = "svc_sk_" + "34".repeat(24);
    const run = async (apiKey: string) => {
      const logger = memoryLogger();
      const env: Record<string, string> = {
        DATA_DIR: dataDir,
        PORT: "0",
        HOST: "127.0.0.1",
        SVC_BOOTSTRAP_KEY: apiKey,
        SVC_BOOTSTRAP_POINTS: "50",
        ...(pg?.url ? { DATABASE_URL: pg.url } : {}),
      };
      const service = await startService(env, logger, { workers: false });
      const base = `http://127.0.0.1:${service.server.addr.port}`;
      const status = async (key: string) => {
        const res = await fetch(`${base}/api/v1/points`, {
          headers: { Authorization: `Bearer ${key}` },
        });
        await res.body?.cancel();
        return res.status;
      };
      return { service, logger, status };
    };
    try {
      const first = await run(oldKey);
      assert.equal(await first.status(oldKey), 200);
      await first.service.stop();
      const second = await run(newKey);
      try {
        assert.equal(await second.status(newKey), 200);
        assert.equal(await second.status(oldKey), 401, "the previous bootstrap key is revoked");
        const revoked = second.logger.lines.filter((line) =>
          line.includes("previous bootstrap key revoked")
        );
        assert.equal(revoked.length, 1);
        const log = second.logger.lines.join("\n");
        for (const key of [oldKey, newKey]) {
          assert.ok(!log.includes(key.slice("svc_sk_".length, 20)), "no key material in the log");
        }
      } finally {
        await second.service.stop();
      }
    } finally {
      await pg?.drop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
);
