/**
 * A start verb, waiting out a moment of `idempotency_in_progress`: a double-clicked button sends
 * the form twice, the browser shows the second answer, and that answer should be what the first
 * one made (a replay), not a refusal. A start takes milliseconds; after about two seconds the
 * refusal stands.
 */
import { ServiceError } from "../../domain/errors.ts";

export async function patiently<T>(start: () => Promise<T>): Promise<T> {
  for (let attempt = 1;; attempt++) {
    try {
      return await start();
    } catch (e) {
      if (!(e instanceof ServiceError) || e.code !== "idempotency_in_progress" || attempt >= 10) {
        throw e;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
