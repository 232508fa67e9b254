/**
 * Deno KV, opened once by main.ts and passed in. A local file (default under DATA_DIR), a
 * remote KV Connect URL, ":memory:" in tests, or null for the platform's own KV
 * (`Deno.openKv()` with no argument: the hosted KV on Deno Deploy; elsewhere Deno keeps a file
 * for the main module under its cache directory). Writes go through atomic operations that are
 * checked; `database is locked` (several threads or processes on one sqlite file) is retried.
 */
export async function openKv(path: string | null): Promise<Deno.Kv> {
  if (path === null) return await withKvRetry(() => Deno.openKv());
  if (path !== ":memory:" && !/^https?:\/\//.test(path)) {
    const dir = path.replace(/[\\/][^\\/]*$/, "");
    if (dir && dir !== path) await Deno.mkdir(dir, { recursive: true });
  }
  return await withKvRetry(() => Deno.openKv(path));
}

const LOCKED = /database is locked|SQLITE_BUSY/i;

/** Runs a KV call, retrying briefly while the sqlite file is locked by another thread or process. */
export async function withKvRetry<T>(call: () => Promise<T>, attempts = 20): Promise<T> {
  for (let attempt = 1;; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= attempts || !LOCKED.test(String((error as Error)?.message))) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(2 ** attempt, 50)));
    }
  }
}
