/**
 * The embedded database: PGlite (Postgres in WASM) files under DATA_DIR, created from a template
 * or by initdb outside the service's heap, owned by one process at a time (`pglite.lock`), and
 * served on a unix socket through pglite-socket, so that the same `postgres` client and SQL reach
 * it as reach a server Postgres; and a client of one another thread or process serves.
 */
import postgres from "postgres";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import type { Database, OpenDatabaseOptions } from "./database_handle.ts";
import { installExchangeQueue } from "./pglite_exchange_queue.ts";
import type { InitdbReply, InitdbRequest } from "./pglite_initdb_worker.ts";
import { unpackTemplate } from "./pglite_template.ts";
import {
  DataDirInUse,
  dataDirInUseMessage,
  type DataDirLock,
  tryLockDataDir,
} from "./data_dir_lock.ts";

const quietNotices = { onnotice: () => {} };

export async function openEmbedded(options: OpenDatabaseOptions): Promise<Database> {
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
export function connectToEmbedded(socketPath: string, poolSize: number): Database {
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
