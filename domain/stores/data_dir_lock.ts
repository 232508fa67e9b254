/**
 * The embedded database belongs to one process. Whoever opens the PGlite files holds an exclusive
 * advisory lock (flock) on `DATA_DIR/pglite.lock` for as long as it has them open: the server for
 * its whole life, an admin command only while no server runs (beside a running server it is a
 * client of the server's socket and takes no lock). The kernel drops the lock when its holder
 * exits, however it exits, so a lock is never stale; the pid and role written into the file are
 * only for the message.
 */

export type LockRole = "server" | "admin";

export interface DataDirLock {
  readonly path: string;
  release(): void;
}

export interface LockHolder {
  pid: number | null;
  role: LockRole | null;
}

/** Another process holds the embedded database of this DATA_DIR. */
export class DataDirInUse extends Error {
  constructor(readonly dataDir: string, readonly holder: LockHolder) {
    super(dataDirInUseMessage(dataDir, holder));
    this.name = "DataDirInUse";
  }
}

export function dataDirInUseMessage(dataDir: string, holder: LockHolder): string {
  const pid = holder.pid === null ? "pid unknown" : `pid ${holder.pid}`;
  return holder.role === "admin"
    ? `DATA_DIR ${dataDir} is in use by an admin command (${pid}); start the server once it has finished`
    : `DATA_DIR ${dataDir} is in use by another server (${pid})`;
}

/**
 * Takes the lock at `path` without waiting: the lock, or null and who holds it when another
 * process (or another open of the file in this process) has it.
 */
export async function tryLockDataDir(
  path: string,
  role: LockRole,
): Promise<{ lock: DataDirLock; holder?: undefined } | { lock: null; holder: LockHolder }> {
  const file = await Deno.open(path, { read: true, write: true, create: true, mode: 0o600 });
  let locked = false;
  try {
    locked = await file.tryLock(true);
  } catch (error) {
    file.close();
    throw error;
  }
  if (!locked) {
    file.close();
    return { lock: null, holder: await readHolder(path) };
  }
  await file.truncate(0);
  await file.write(new TextEncoder().encode(`${Deno.pid} ${role}\n`));
  let released = false;
  return {
    lock: {
      path,
      release: () => {
        if (released) return;
        released = true;
        try {
          file.unlockSync();
        } finally {
          file.close();
        }
      },
    },
  };
}

/** Who wrote the lock file last; the holder writes right after locking, so look twice. */
async function readHolder(path: string): Promise<LockHolder> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const text = await Deno.readTextFile(path).catch(() => "");
    const match = /^(\d+)(?: (server|admin))?/.exec(text.trim());
    if (match) return { pid: Number(match[1]), role: (match[2] as LockRole) ?? null };
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
  return { pid: null, role: null };
}
