/**
 * What an open database is to the code that uses it (`database.ts` opens a server Postgres,
 * `embedded_database.ts` PGlite): both openers and every caller share these types, so neither
 * opener imports the other for them.
 */
import type postgres from "postgres";

export type Sql = postgres.Sql;
export type TransactionSql = postgres.TransactionSql;

export interface Database {
  readonly sql: Sql;
  /**
   * The client the charger posts on (`createCharger`, one flush in flight per shard). On a server
   * Postgres its own client with one connection per charge shard: the main pool hands out its
   * idle connections in turn, so each flush would wake a backend that had been idle for the
   * previous nine; connections that stay warm answer sooner (docs/architecture.md, "How the hot
   * path stays fast"). On PGlite the same client as `sql`.
   */
  readonly ledgerSql: Sql;
  readonly kind: "postgres" | "pglite";
  /** Where the database lives, for logs (no credentials). */
  readonly location: string;
  /** How another thread or process reaches the same database (`connectDatabase`). */
  readonly target: DatabaseTarget;
  close(): Promise<void>;
}

/** A server Postgres by URL, or a running embedded database by its socket. */
export type DatabaseTarget = { url: string } | { socketPath: string };

export interface OpenDatabaseOptions {
  /** A postgres:// URL, or null for embedded PGlite. */
  url: string | null;
  /** PGlite data directory, or "memory://" for a throwaway database. */
  pgliteDir?: string;
  /** Where the PGlite socket is published; defaults to `<pgliteDir>/../pglite.sock`. */
  pgliteSocketPath?: string;
  poolSize?: number;
  /**
   * A server Postgres: how long the first query (connect, start-up, authentication, `SELECT 1`)
   * may take before opening fails with a message naming `DATABASE_URL` (default 15 s).
   */
  firstQueryTimeoutMs?: number;
  /**
   * Who opens an embedded database. `server`: this process owns it, or refuses at once with
   * `DataDirInUse` when another process does (it never becomes a client of another server's
   * socket). `client` (the default; the admin CLI, tests): a running server's socket when there
   * is one, else the files themselves under the same lock, waiting up to `waitMs` while another
   * process holds it without serving yet (a server starting, another admin command).
   */
  role?: "server" | "client";
  /** How long a client waits for a locked database to be served or released (default 60 s). */
  waitMs?: number;
}
