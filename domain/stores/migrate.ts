/**
 * Applies the numbered SQL migrations in `migrations/` once each, in order. Safe to run twice and
 * from several processes at once: a transaction-scoped advisory lock serialises them and each
 * migration is recorded in the same transaction that applies it.
 */
import type { Sql } from "./database.ts";

const MIGRATIONS_DIR = new URL("./migrations/", import.meta.url);
/** Arbitrary constant naming this service's migration lock. */
const MIGRATION_LOCK_ID = 7_362_110_245;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export async function readMigrations(): Promise<Migration[]> {
  const migrations: Migration[] = [];
  for await (const entry of Deno.readDir(MIGRATIONS_DIR)) {
    const match = /^(\d+)_[\w-]+\.sql$/.exec(entry.name);
    if (!entry.isFile || !match) continue;
    const sql = await Deno.readTextFile(new URL(entry.name, MIGRATIONS_DIR));
    migrations.push({ version: Number(match[1]), name: entry.name, sql });
  }
  migrations.sort((a, b) => a.version - b.version);
  return migrations;
}

/** Returns the names of the migrations this call applied. */
export async function migrate(sql: Sql): Promise<string[]> {
  const migrations = await readMigrations();
  return await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`;
    await tx`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`;
    const done = new Set(
      (await tx<{ version: number }[]>`SELECT version FROM schema_migrations`).map((r) =>
        r.version
      ),
    );
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await tx.unsafe(migration.sql);
      await tx`INSERT INTO schema_migrations (version, name)
               VALUES (${migration.version}, ${migration.name})`;
      applied.push(migration.name);
    }
    return applied;
  });
}
