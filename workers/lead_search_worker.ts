/**
 * The lead-search runner on a Worker thread (`LEAD_SEARCH_RUNNER=worker`, the default with
 * `DATABASE_URL`): the same loop as the inline runner, with its own Postgres connections, so
 * delivering pages never takes the HTTP thread's time. The main thread starts it with a `start`
 * message and stops it with `stop`; the worker finishes its page, hands its run back, closes its
 * database and answers `stopped`.
 *
 * The embedded database is not offered to a Worker: PGlite is one backend owned by the main
 * thread, and a second thread's connection through its socket would interleave with the main
 * thread's (see domain/stores/database.ts). There the runner runs inline.
 */
/// <reference lib="deno.worker" />
import { openDatabase } from "../domain/stores/database.ts";
import { systemClock } from "../domain/shared/clock.ts";
import { jsonLogger } from "../domain/shared/logger.ts";
import { startLeadSearchRunner } from "./lead_search_runner.ts";

export interface WorkerStart {
  type: "start";
  databaseUrl: string;
  pollMs: number;
  leaseMs: number;
}

let stop: (() => Promise<void>) | null = null;

self.onmessage = async (event: MessageEvent<WorkerStart | { type: "stop" }>) => {
  const message = event.data;
  if (message.type === "start" && !stop) {
    const db = await openDatabase({ url: message.databaseUrl, poolSize: 2 });
    const runner = startLeadSearchRunner(
      { db, clock: systemClock, logger: jsonLogger() },
      { pollMs: message.pollMs, leaseMs: message.leaseMs },
    );
    stop = async () => {
      await runner.stop();
      await db.close();
    };
    self.postMessage({ type: "started" });
  } else if (message.type === "stop") {
    await stop?.();
    self.postMessage({ type: "stopped" });
  }
};
