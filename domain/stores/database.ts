/**
 * One SQL code path for both databases: a real Postgres (`DATABASE_URL`) or embedded PGlite
 * (Postgres in WASM) under DATA_DIR, served on a unix socket through pglite-socket so the same
 * `postgres` client and the same SQL reach it (`embedded_database.ts`). The admin CLI connects to
 * a running server's socket the same way.
 */
import postgres from "postgres";
import { connectToEmbedded, openEmbedded } from "./embedded_database.ts";

import type { Database, DatabaseTarget, OpenDatabaseOptions, Sql } from "./database_handle.ts";

export type {
  Database,
  DatabaseTarget,
  OpenDatabaseOptions,
  Sql,
  TransactionSql,
} from "./database_handle.ts";

/**
 * Seconds postgres.js waits for a server Postgres to accept a connection and finish its start-up
 * (its default, 30 s, left start-up silent for half a minute on a port that never answers).
 */
export const CONNECT_TIMEOUT_SECONDS = 10;
/** The longest the first query may take: a peer that is not Postgres may never answer at all. */
export const FIRST_QUERY_TIMEOUT_MS = 15_000;

const quietNotices = { onnotice: () => {} };

/**
 * Charge flushes in flight at once (`createCharger`'s shards): PGlite runs one statement at a
 * time, so a second flight would only queue behind the first.
 */
export const CHARGE_SHARDS = { postgres: 2, pglite: 1 } as const;

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.url) {
    const settings = { connect_timeout: CONNECT_TIMEOUT_SECONDS, ...quietNotices };
    const sql = postgres(options.url, { max: options.poolSize ?? 10, ...settings });
    await firstQuery(sql, options.url, options.firstQueryTimeoutMs ?? FIRST_QUERY_TIMEOUT_MS);
    const ledgerSql = postgres(options.url, { max: CHARGE_SHARDS.postgres, ...settings });
    return {
      sql,
      ledgerSql,
      kind: "postgres",
      location: redactUrl(options.url),
      target: { url: options.url },
      close: async () => {
        await Promise.all([sql.end({ timeout: 5 }), ledgerSql.end({ timeout: 5 })]);
      },
    };
  }
  return await openEmbedded(options);
}

/**
 * Connects to a database another part of the service opened (a Worker thread reaching the main
 * thread's), never creating one: an embedded database must already be served on its socket.
 */
export async function connectDatabase(target: DatabaseTarget, poolSize: number): Promise<Database> {
  if ("url" in target) return await openDatabase({ url: target.url, poolSize });
  const conn = await Deno.connect({ transport: "unix", path: target.socketPath });
  conn.close();
  return connectToEmbedded(target.socketPath, poolSize);
}

/**
 * `SELECT 1` on a new server-Postgres pool, bounded in time: a refused connection, a wrong role
 * or password, a port that never answers or a peer that is not Postgres (which may send bytes
 * postgres.js waits on forever) fails here with one line naming `DATABASE_URL` and the cause,
 * never the password. The pool is ended first.
 */
async function firstQuery(sql: Sql, url: string, timeoutMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  let cause: string | null = null;
  try {
    const result = await Promise.race([sql`SELECT 1`.then(() => "ok" as const), timedOut]);
    if (result === "timeout") {
      cause = `no answer from a Postgres server within ${timeoutMs / 1000} s ` +
        "(is it a Postgres port?)";
    }
  } catch (error) {
    cause = describeConnectError(error);
  } finally {
    clearTimeout(timer);
  }
  if (cause === null) return;
  // A connection stuck in its start-up is destroyed, not waited for.
  await Promise.race([
    sql.end({ timeout: 0 }).catch(() => {}),
    new Promise((resolve) => setTimeout(resolve, 1_000)),
  ]);
  const password = safePassword(url);
  const message = `DATABASE_URL (${redactUrl(url)}): cannot open the database: ${cause}`;
  throw new Error(password ? message.replaceAll(password, "***") : message);
}

function describeConnectError(error: unknown): string {
  const e = error as { message?: string; code?: string };
  const message = String(e?.message ?? error).split("\n")[0];
  return e?.code === "CONNECT_TIMEOUT"
    ? `no connection within ${CONNECT_TIMEOUT_SECONDS} s (${message})`
    : message;
}

function safePassword(url: string): string {
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    return "";
  }
}

function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = "";
    parsed.username = parsed.username ? "***" : "";
    return parsed.toString();
  } catch {
    return "postgres";
  }
}
