/**
 * The lead-search runner on a Worker thread (`LEAD_SEARCH_RUNNER=worker`, the default): the same
 * loop as the inline runner, with its own database connection, so choosing and delivering pages
 * never takes the HTTP thread's time. On Postgres it connects by URL; on the embedded database it
 * connects to the socket the main thread serves PGlite on (whole exchanges take turns there,
 * domain/stores/pglite_exchange_queue.ts). The main thread starts it with a `start` message and
 * stops it with `stop`; the worker finishes its page, hands its run back, closes its connection
 * and answers `stopped`.
 */
/// <reference lib="deno.worker" />
import { connectDatabase, type DatabaseTarget } from "../domain/stores/database.ts";
import { systemClock } from "../domain/shared/clock.ts";
import { jsonLogger } from "../domain/shared/logger.ts";
import { startLeadSearchRunner } from "./lead_search_runner.ts";

export interface WorkerStart {
  type: "start";
  database: DatabaseTarget;
  pollMs: number;
  leaseMs: number;
  /** `LEAD_SEARCH_PAGE_DELAY_MS` (tests only). */
  pageDelayMs: number;
}

let stop: (() => Promise<void>) | null = null;

self.onmessage = async (event: MessageEvent<WorkerStart | { type: "stop" }>) => {
  const message = event.data;
  if (message.type === "start" && !stop) {
    const db = await connectDatabase(message.database, "url" in message.database ? 2 : 1);
    const runner = startLeadSearchRunner(
      { db, clock: systemClock, logger: jsonLogger() },
      { pollMs: message.pollMs, leaseMs: message.leaseMs, pageDelayMs: message.pageDelayMs },
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
