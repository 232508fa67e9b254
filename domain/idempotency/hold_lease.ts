/**
 * Keeps an Idempotency-Key's lease while its holder works: renewed every third of the lease, so a
 * slow lookup (find may take its whole `VERIFY_LOOKUP_SECONDS`) is never taken for a dead one,
 * while a process that died stops renewing and its key is free within one lease. `stop()` ends
 * the renewals and waits for one in flight, so none lands after the key was released.
 */
import type { IdempotencyRecords } from "./claim_idempotency_key.ts";

export function holdLease(
  records: IdempotencyRecords,
  input: { workspaceId: string; key: string; leaseToken: string },
): () => Promise<void> {
  let inFlight: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const timer = setInterval(() => {
    inFlight = inFlight.then(() => stopped ? false : records.renew(input)).catch(() => false);
  }, Math.max(1, Math.floor(records.leaseMs / 3)));
  return async () => {
    stopped = true;
    clearInterval(timer);
    await inFlight;
  };
}
