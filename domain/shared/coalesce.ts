/**
 * Coalesces concurrent calls of a batch operation: while `maxInFlight` runs are busy, new calls
 * queue, and the next run takes every queued item at once (up to `maxBatchItems`). Each caller
 * gets exactly its own results, in order, or the run's error.
 */
export type BatchRun<I, O> = (items: I[]) => Promise<O[]>;

interface Pending<I, O> {
  items: I[];
  resolve: (results: O[]) => void;
  reject: (error: unknown) => void;
}

export function coalesce<I, O>(
  run: BatchRun<I, O>,
  options: { maxInFlight?: number; maxBatchItems?: number } = {},
): BatchRun<I, O> {
  const maxInFlight = options.maxInFlight ?? 1;
  const maxBatchItems = options.maxBatchItems ?? 1000;
  const queue: Pending<I, O>[] = [];
  let inFlight = 0;

  function pump(): void {
    while (inFlight < maxInFlight && queue.length > 0) {
      const batch: Pending<I, O>[] = [];
      let count = 0;
      while (
        queue.length > 0 && (batch.length === 0 || count + queue[0].items.length <= maxBatchItems)
      ) {
        const next = queue.shift()!;
        count += next.items.length;
        batch.push(next);
      }
      inFlight++;
      flush(batch).finally(() => {
        inFlight--;
        pump();
      });
    }
  }

  async function flush(batch: Pending<I, O>[]): Promise<void> {
    try {
      const results = await run(batch.flatMap((pending) => pending.items));
      let offset = 0;
      for (const pending of batch) {
        pending.resolve(results.slice(offset, offset + pending.items.length));
        offset += pending.items.length;
      }
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    }
  }

  return (items) => {
    if (items.length === 0) return Promise.resolve([]);
    return new Promise<O[]>((resolve, reject) => {
      queue.push({ items, resolve, reject });
      pump();
    });
  };
}
