/**
 * One SQL code path for both databases: a real Postgres (`DATABASE_URL`) or embedded PGlite
 * (Postgres in WASM) under DATA_DIR, served on a unix socket through pglite-socket so the same
 * `postgres` client and the same SQL reach it. The admin CLI connects to a running server's
 * socket the same way.
 */
import postgres from "postgres";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { installExchangeQueue } from "./pglite_exchange_queue.ts";

export type Sql = postgres.Sql;
export type TransactionSql = postgres.TransactionSql;

export interface Database {
  readonly sql: Sql;
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
}

const quietNotices = { onnotice: () => {} };

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.url) {
    const sql = postgres(options.url, { max: options.poolSize ?? 10, ...quietNotices });
    return {
      sql,
      kind: "postgres",
      location: redactUrl(options.url),
      target: { url: options.url },
      close: () => sql.end({ timeout: 5 }),
    };
  }
  return await openEmbedded(options);
}

async function openEmbedded(options: OpenDatabaseOptions): Promise<Database> {
  const dir = options.pgliteDir ?? "./data/pglite";
  const socketPath = options.pgliteSocketPath ??
    (dir === "memory://" ? await Deno.makeTempFile({ suffix: ".sock" }) : `${dir}.sock`);
  const running = await connectToRunningEmbedded(socketPath, options.poolSize);
  if (running) return running;

  if (dir !== "memory://") await Deno.mkdir(dir, { recursive: true });
  const db = await PGlite.create(dir === "memory://" ? undefined : dir);
  await Deno.remove(socketPath).catch(() => {});
  const server = new PGLiteSocketServer({
    db,
    path: socketPath,
    maxConnections: (options.poolSize ?? 8) + 8,
  });
  // Whole exchanges, not single messages, take turns on the one backend (pglite_exchange_queue.ts).
  installExchangeQueue(server, db);
  await server.start();
  // One connection for the service: PGlite is one backend answering one exchange at a time, so
  // more connections only queue; with one, postgres.js pipelines the statements (bench:parse:
  // 1,929 req/s single and 22,400 names/s batch on one connection, 1,357 and 21,800 on eight).
  // Other threads and the admin CLI connect to the same socket.
  const sql = postgres({
    path: socketPath,
    max: options.poolSize ?? 1,
    ...quietNotices,
  });
  return {
    sql,
    kind: "pglite",
    location: dir,
    target: { socketPath },
    close: async () => {
      await sql.end({ timeout: 5 });
      await server.stop();
      await db.close();
      await Deno.remove(socketPath).catch(() => {});
    },
  };
}

/**
 * When another process (the running server) already owns this PGlite directory, talk to it
 * through its socket instead of opening the files twice.
 */
async function connectToRunningEmbedded(
  socketPath: string,
  poolSize?: number,
): Promise<Database | null> {
  try {
    const conn = await Deno.connect({ transport: "unix", path: socketPath });
    conn.close();
  } catch {
    return null;
  }
  return connectToEmbedded(socketPath, poolSize ?? 4);
}

/** A client of the embedded database another thread or process serves on `socketPath`. */
function connectToEmbedded(socketPath: string, poolSize: number): Database {
  const sql = postgres({ path: socketPath, max: poolSize, ...quietNotices });
  return {
    sql,
    kind: "pglite",
    location: socketPath,
    target: { socketPath },
    close: () => sql.end({ timeout: 5 }),
  };
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
