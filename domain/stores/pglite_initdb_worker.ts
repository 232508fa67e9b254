/**
 * Creates an embedded database directory (PGlite's initdb) away from the service's heap: as its
 * own short process (`deno run pglite_initdb_worker.ts <dir> <startParams as JSON>`), or, where
 * the service may not start processes, on a Worker thread that is then terminated
 * (database.ts, `createEmbeddedDirectory`).
 *
 * PGlite's initdb runs a second PGlite instance beside a full copy of its WebAssembly heap (peak
 * ~600 MB). Done on the service's own thread it left ~350 MB resident for good (idle 504–847 MB
 * after a first start against ~330 MB after a later one); a terminated Worker gives back all but
 * ~100 MB (the allocator keeps the worker thread's arenas); an ended process gives back all.
 */
/// <reference lib="deno.worker" />
import { PGlite } from "@electric-sql/pglite";

export interface InitdbRequest {
  dir: string;
  startParams: string[];
}

export type InitdbReply = { ok: true } | { ok: false; message: string };

async function initdb(request: InitdbRequest): Promise<InitdbReply> {
  try {
    const db = await PGlite.create(request.dir, { startParams: request.startParams });
    await db.close();
    return { ok: true };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

/** A Worker's global scope has WorkerGlobalScope; it also sees `import.meta.main` and Deno.args. */
const onWorker = typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !==
  "undefined";

if (!onWorker && import.meta.main) {
  // As a process: the reply is the last line of stdout.
  const reply = await initdb({ dir: Deno.args[0], startParams: JSON.parse(Deno.args[1]) });
  console.log(JSON.stringify(reply));
  Deno.exit(reply.ok ? 0 : 1);
} else {
  self.onmessage = async (event: MessageEvent<InitdbRequest>) => {
    self.postMessage(await initdb(event.data));
  };
}
