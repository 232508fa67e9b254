import assert from "node:assert/strict";
import { maintainEmbeddedDatabase } from "../workers/embedded_database_maintenance.ts";
import { createTestEnv, createTestWorkspace, DB_TEST } from "./harness.ts";

Deno.test(
  "embedded database maintenance: a vacuum and analyze gives the tables their statistics",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      await createTestWorkspace(env, 10);
      const tuples = async () => {
        const rows = await env.db.sql<{ relname: string; reltuples: number }[]>`
          SELECT relname, reltuples FROM pg_class
           WHERE relname IN ('ledger_entries', 'balances', 'idempotency_records')
           ORDER BY relname`;
        return Object.fromEntries(rows.map((row) => [row.relname, Number(row.reltuples)]));
      };
      // Never vacuumed nor analyzed: the planner knows nothing of these tables.
      assert.deepEqual(await tuples(), {
        balances: -1,
        idempotency_records: -1,
        ledger_entries: -1,
      });

      await maintainEmbeddedDatabase(env.ctx);

      assert.deepEqual(await tuples(), { balances: 1, idempotency_records: 0, ledger_entries: 1 });
      assert.equal(env.logLines.length, 1);
      const line = JSON.parse(env.logLines[0]);
      assert.equal(line.msg, "embedded database vacuumed and analyzed");
      assert.equal(typeof line.durationMs, "number");
    } finally {
      await env.close();
    }
  },
);
