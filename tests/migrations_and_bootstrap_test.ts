import { loadConfig } from "../domain/config/config.ts";
import assert from "node:assert/strict";
import { migrate, readMigrations } from "../domain/stores/migrate.ts";
import { openDatabase } from "../domain/stores/database.ts";
import { ensureBootstrapWorkspace } from "../domain/workspaces/ensure_bootstrap_workspace.ts";
import { readBalance } from "../domain/billing/balance.ts";
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
        ensureBootstrapWorkspace(db.sql, { apiKey, points: 500 }),
        ensureBootstrapWorkspace(db.sql, { apiKey, points: 500 }),
      ]);
      assert.equal(one.workspaceId, two.workspaceId);
      // A restart with the same settings changes nothing.
      const again = await ensureBootstrapWorkspace(db.sql, { apiKey, points: 500 });
      assert.equal(again.workspaceId, one.workspaceId);
      assert.equal(again.created, false);
      assert.deepEqual(await readBalance(db.sql, one.workspaceId), {
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
      await ensureBootstrapWorkspace(db.sql, { apiKey, points: 800 });
      assert.deepEqual(await readBalance(db.sql, one.workspaceId), {
        available: 400,
        reserved: 0,
        granted: 800,
      });
      await ensureBootstrapWorkspace(db.sql, { apiKey, points: 800 });
      assert.equal((await readBalance(db.sql, one.workspaceId)).granted, 800);
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
