/**
 * One SQL code path for both databases: a real Postgres (`DATABASE_URL`) or embedded PGlite
 * (Postgres in WASM) under DATA_DIR, served on a unix socket through pglite-socket so the same
 * `postgres` client and the same SQL reach it. The admin CLI connects to a running server's
 * socket the same way.
 */
import postgres from "postgres";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

export type Sql = postgres.Sql;
export type TransactionSql = postgres.TransactionSql;

export interface Database {
  readonly sql: Sql;
  readonly kind: "postgres" | "pglite";
  /** Where the database lives, for logs (no credentials). */
  readonly location: string;
  close(): Promise<void>;
}

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
  await server.start();
  // One connection by default: PGlite is one backend, and pglite-socket interleaves the
  // extended-protocol messages of concurrent connections on it. With 8 connections, concurrent
  // find lookups (transactions beside charges) failed with 34000 invalid_cursor_name and stalled
  // (bench:find at 32 connections); with one, postgres.js pipelines the same statements and the
  // billed parse is as fast (bench:parse, same run: 1,929 vs 1,357 req/s, 22,400 vs 21,800 names/s).
  const sql = postgres({
    path: socketPath,
    max: options.poolSize ?? 1,
    ...quietNotices,
  });
  return {
    sql,
    kind: "pglite",
    location: dir,
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
  const sql = postgres({ path: socketPath, max: poolSize ?? 4, ...quietNotices });
  return {
    sql,
    kind: "pglite",
    location: socketPath,
    close: () => sql.end({ timeout: 5 }),
  };
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
