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
import type { InitdbReply, InitdbRequest } from "./pglite_initdb_worker.ts";
import { unpackTemplate } from "./pglite_template.ts";
import {
  DataDirInUse,
  dataDirInUseMessage,
  type DataDirLock,
  tryLockDataDir,
} from "./data_dir_lock.ts";

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

async function openEmbedded(options: OpenDatabaseOptions): Promise<Database> {
  const dir = options.pgliteDir ?? "./data/pglite";
  const socketPath = options.pgliteSocketPath ??
    (dir === "memory://" ? await Deno.makeTempFile({ suffix: ".sock" }) : `${dir}.sock`);
  let lock: DataDirLock | null = null;
  if (dir !== "memory://") {
    const dataDir = parentOf(dir);
    await Deno.mkdir(dataDir, { recursive: true });
    const lockPath = `${dir}.lock`;
    if (options.role === "server") {
      const attempt = await tryLockDataDir(lockPath, "server");
      if (!attempt.lock) throw new DataDirInUse(dataDir, attempt.holder);
      lock = attempt.lock;
    } else {
      const end = Date.now() + (options.waitMs ?? 60_000);
      for (;;) {
        const running = await connectToRunningEmbedded(socketPath, options.poolSize);
        if (running) return running;
        const attempt = await tryLockDataDir(lockPath, "admin");
        if (attempt.lock) {
          lock = attempt.lock;
          break;
        }
        if (Date.now() >= end) {
          const inUse = dataDirInUseMessage(dataDir, attempt.holder);
          throw new Error(`${inUse}, and its database socket ${socketPath} does not answer`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }
  try {
    return await openEmbeddedFiles(dir, socketPath, options.poolSize, lock);
  } catch (error) {
    lock?.release();
    throw error;
  }
}

/** Opens the PGlite files (this process holds `lock`) and serves them on `socketPath`. */
async function openEmbeddedFiles(
  dir: string,
  socketPath: string,
  poolSize: number | undefined,
  lock: DataDirLock | null,
): Promise<Database> {
  // Left by a first start that died while unpacking the template (nobody else can be unpacking
  // now: unpacking happens under the lock).
  if (lock) await removeUnpackingLeftovers(dir);
  let created: "template" | "initdb" | null = null;
  if (dir !== "memory://" && !await exists(`${dir}/PG_VERSION`)) {
    created = await createEmbeddedDirectory(dir);
  }
  let db: PGlite;
  try {
    db = await PGlite.create(dir === "memory://" ? undefined : dir, {
      startParams: [...PGLITE_START_PARAMS],
    });
  } catch (error) {
    if (created !== "template") throw error;
    // A template this PGlite cannot open (pglite_template.ts): set it aside, run initdb instead.
    await Deno.rename(dir, `${dir}.template-failed-${Date.now()}`);
    await initdbOutsideTheHeap(dir);
    db = await PGlite.create(dir, { startParams: [...PGLITE_START_PARAMS] });
  }
  await Deno.remove(socketPath).catch(() => {});
  const server = new PGLiteSocketServer({
    db,
    path: socketPath,
    maxConnections: (poolSize ?? 8) + 8,
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
    max: poolSize ?? 1,
    ...quietNotices,
  });
  return {
    sql,
    ledgerSql: sql,
    kind: "pglite",
    location: dir,
    target: { socketPath },
    close: async () => {
      await sql.end({ timeout: 5 });
      await server.stop();
      await db.close();
      await Deno.remove(socketPath).catch(() => {});
      lock?.release();
    },
  };
}

function parentOf(dir: string): string {
  return dir.slice(0, Math.max(dir.lastIndexOf("/"), 0)) || ".";
}

async function removeUnpackingLeftovers(dir: string): Promise<void> {
  const parent = parentOf(dir);
  const prefix = `${dir.slice(dir.lastIndexOf("/") + 1)}.unpacking-`;
  try {
    for await (const entry of Deno.readDir(parent)) {
      if (entry.isDirectory && entry.name.startsWith(prefix)) {
        await Deno.remove(`${parent}/${entry.name}`, { recursive: true }).catch(() => {});
      }
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

/**
 * PGlite's start-up settings: its defaults, then the memory settings of a small embedded database.
 * PGlite's WebAssembly heap never shrinks, so whatever Postgres touches once stays resident.
 * `shared_buffers` is the big one: Postgres' default 128 MB is resident from the start (idle RSS
 * of PGlite alone 287 MB; 155 MB with 16 MB). The data files stay in the OS page cache, so a
 * smaller buffer pool costs a read() per miss, not a disk access. `maintenance_work_mem` caps
 * what a VACUUM (embedded_database_maintenance.ts) or an index build may take; `temp_buffers`
 * what a temporary table may (the service makes none).
 */
export const PGLITE_START_PARAMS: readonly string[] = [
  ...PGlite.defaultStartParams,
  ...["-c", "shared_buffers=16MB"],
  ...["-c", "maintenance_work_mem=16MB"],
  ...["-c", "temp_buffers=1MB"],
  ...["-c", "work_mem=4MB"],
];

/**
 * A new data directory: the shipped template unpacked (pglite_template.ts: a few MB, under a
 * second), or, where there is none for this PGlite version, PGlite's initdb outside the service's
 * heap, which would keep ~350 MB of it for good (pglite_initdb_worker.ts). The template is unpacked
 * beside `dir` and renamed into place, so a crash never leaves half a database behind.
 */
async function createEmbeddedDirectory(dir: string): Promise<"template" | "initdb"> {
  const parent = parentOf(dir);
  await Deno.mkdir(parent, { recursive: true });
  const staging = `${dir}.unpacking-${Deno.pid}`;
  await Deno.remove(staging, { recursive: true }).catch(() => {});
  if (await isEmptyOrMissing(dir) && await unpackTemplate(staging)) {
    await Deno.remove(dir).catch(() => {});
    await Deno.rename(staging, dir);
    return "template";
  }
  await Deno.remove(staging, { recursive: true }).catch(() => {});
  await initdbOutsideTheHeap(dir);
  return "initdb";
}

/** PGlite's initdb in a short `deno run` process, or on a Worker that is then ended. */
async function initdbOutsideTheHeap(dir: string): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  const script = new URL("./pglite_initdb_worker.ts", import.meta.url);
  const request: InitdbRequest = { dir, startParams: [...PGLITE_START_PARAMS] };
  const reply = Deno.permissions.querySync({ name: "run", command: Deno.execPath() }).state ===
      "granted"
    ? await initdbInProcess(script, request)
    : await initdbOnWorker(script, request);
  if (!reply.ok) {
    throw new Error(`creating the embedded database in ${dir} failed: ${reply.message}`);
  }
}

async function isEmptyOrMissing(dir: string): Promise<boolean> {
  try {
    for await (const _ of Deno.readDir(dir)) return false;
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return true;
    throw error;
  }
}

async function initdbInProcess(script: URL, request: InitdbRequest): Promise<InitdbReply> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-sys",
      script.pathname,
      request.dir,
      JSON.stringify(request.startParams),
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const lines = new TextDecoder().decode(output.stdout).trim().split("\n");
  try {
    return JSON.parse(lines[lines.length - 1]) as InitdbReply;
  } catch {
    const stderr = new TextDecoder().decode(output.stderr).trim().split("\n").slice(-3).join(" ");
    return { ok: false, message: `initdb process exited with ${output.code}: ${stderr}` };
  }
}

async function initdbOnWorker(script: URL, request: InitdbRequest): Promise<InitdbReply> {
  const worker = new Worker(script.href, { type: "module" });
  try {
    return await new Promise<InitdbReply>((resolve) => {
      worker.onmessage = (event: MessageEvent<InitdbReply>) => resolve(event.data);
      worker.onerror = (event) => {
        event.preventDefault();
        resolve({ ok: false, message: event.message });
      };
      worker.postMessage(request);
    });
  } finally {
    worker.terminate();
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
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
    ledgerSql: sql,
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
