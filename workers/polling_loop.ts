/**
 * A background loop on the main thread: calls `step` again at once while it finds work, sleeps
 * `pollMs` when it finds none (or fails: one log line with the error's kind, never its text).
 * `stop()` asks `step` to hand its work back (`stopping()`), wakes a sleep, and resolves once the
 * current step has returned.
 */
import type { Logger } from "../domain/shared/logger.ts";

export interface PollingLoop {
  stop(): Promise<void>;
}

export function startPollingLoop(
  options: {
    pollMs: number;
    logger: Logger;
    failureMessage: string;
    /** One unit of work; false when there was none. */
    step: (stopping: () => boolean) => Promise<boolean>;
  },
): PollingLoop {
  let stopping = false;
  let wake: (() => void) | null = null;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });
  const loop = (async () => {
    while (!stopping) {
      try {
        if (await options.step(() => stopping)) continue;
      } catch (error) {
        options.logger.warn(options.failureMessage, {
          errorName: (error as Error)?.name ?? typeof error,
          errorCode: String((error as { code?: unknown })?.code ?? ""),
        });
      }
      if (!stopping) await sleep(options.pollMs);
    }
  })();
  return {
    stop: async () => {
      stopping = true;
      wake?.();
      await loop;
    },
  };
}
