/**
 * The order in which several socket connections reach embedded PGlite's one backend.
 *
 * pglite-socket 0.2.17 queues each protocol message on its own and only keeps a connection's
 * messages together inside a transaction. Outside one, the extended protocol's Parse / Bind /
 * Describe / Execute / Sync of two connections interleave on the backend (they share its unnamed
 * statement and portal): concurrent lookups failed with `34000 invalid_cursor_name` and stalled.
 * A failing message also left its queue stopped for good.
 *
 * This queue gives the backend to one connection for a whole exchange: from its first message
 * until the backend answers ReadyForQuery with status idle (`I`). An extended-protocol batch up to
 * its Sync, a COPY, and a transaction up to its COMMIT or ROLLBACK therefore run as one unit, and
 * the other connections' messages wait in arrival order. A connection that goes away while it
 * holds the backend has its batch closed (Sync) and its transaction rolled back, and the backend
 * passes on.
 *
 * It replaces the server's own queue (`installExchangeQueue`); the shape it fills is the one
 * pglite-socket's connection handler calls (enqueue, clearQueueForHandler,
 * clearTransactionIfNeeded, getQueueLength).
 */
import type { PGlite } from "@electric-sql/pglite";
import type { PGLiteSocketServer } from "@electric-sql/pglite-socket";

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
}

const SYNC = new Uint8Array([0x53, 0, 0, 0, 4]);
const READY_FOR_QUERY = 0x5a; // 'Z'
const IDLE = 0x49; // 'I'

export class ExchangeQueue {
  readonly #db: PGlite;
  #queue: QueuedMessage[] = [];
  /** The connection whose exchange is under way, or null when the backend is idle. */
  #owner: number | null = null;
  #draining = false;
  /** The owner went away while its message was being answered: release once it is. */
  #releaseWhenDrained: number | null = null;

  constructor(db: PGlite) {
    this.#db = db;
  }

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void) {
    return new Promise<number>((resolve, reject) => {
      this.#queue.push({ handlerId, message, onData, resolve, reject });
      void this.#drain();
    });
  }

  getQueueLength(): number {
    return this.#queue.length;
  }

  /** A connection closed: its waiting messages are dropped. */
  clearQueueForHandler(handlerId: number): void {
    this.#queue = this.#queue.filter((queued) => {
      if (queued.handlerId !== handlerId) return true;
      queued.reject(new Error("connection closed"));
      return false;
    });
  }

  /** A connection closed: if it held the backend, its batch and transaction are closed. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.#owner !== handlerId) return;
    // Not while one of its messages is still being answered: the drain loop passes it on.
    if (this.#draining) {
      this.#releaseWhenDrained = handlerId;
      return;
    }
    await this.#release();
    void this.#drain();
  }

  async #release(): Promise<void> {
    this.#releaseWhenDrained = null;
    try {
      await this.#db.runExclusive(() =>
        this.#db.execProtocolRawStream(SYNC, { onRawData: () => {} })
      );
      if (this.#db.isInTransaction()) await this.#db.exec("ROLLBACK");
    } finally {
      this.#owner = null;
    }
  }

  async #drain(): Promise<void> {
    if (this.#draining) return;
    this.#draining = true;
    try {
      for (;;) {
        if (this.#releaseWhenDrained !== null && this.#releaseWhenDrained === this.#owner) {
          await this.#release();
        }
        const index = this.#owner === null
          ? (this.#queue.length > 0 ? 0 : -1)
          : this.#queue.findIndex((queued) => queued.handlerId === this.#owner);
        if (index < 0) break;
        const [next] = this.#queue.splice(index, 1);
        this.#owner = next.handlerId;
        const reply = new ReplyWatcher();
        try {
          await this.#db.runExclusive(() =>
            this.#db.execProtocolRawStream(next.message, {
              onRawData: (chunk) => {
                reply.read(chunk);
                next.onData(chunk);
              },
            })
          );
          next.resolve(reply.bytes);
        } catch (error) {
          // The handler closes its connection on this; clearTransactionIfNeeded frees the backend.
          next.reject(error);
        }
        if (reply.lastReadyStatus === IDLE) this.#owner = null;
      }
    } finally {
      this.#draining = false;
    }
  }
}

/**
 * Follows the backend's reply message by message (type byte, then a length that counts itself)
 * and remembers the status of the last ReadyForQuery that ended it, if one did.
 */
class ReplyWatcher {
  bytes = 0;
  lastReadyStatus: number | null = null;
  #header = new Uint8Array(5);
  #headerFilled = 0;
  #bodyLeft = 0;
  #type = 0;

  read(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    let offset = 0;
    while (offset < chunk.length) {
      if (this.#bodyLeft > 0) {
        const take = Math.min(this.#bodyLeft, chunk.length - offset);
        if (this.#type === READY_FOR_QUERY && this.#bodyLeft === take) {
          this.lastReadyStatus = chunk[offset + take - 1];
        }
        this.#bodyLeft -= take;
        offset += take;
        continue;
      }
      this.#header[this.#headerFilled++] = chunk[offset++];
      if (this.#headerFilled < 5) continue;
      this.#headerFilled = 0;
      this.#type = this.#header[0];
      const length = new DataView(this.#header.buffer).getInt32(1);
      this.#bodyLeft = length - 4;
      // Any message after a ReadyForQuery means the reply did not end with it.
      this.lastReadyStatus = null;
    }
  }
}

/**
 * Puts an ExchangeQueue in place of the server's own, before `start()`. The server's field is
 * private in pglite-socket's types (pinned at 0.2.17 in deno.json); a version without it fails
 * here, at startup, rather than later under load.
 */
export function installExchangeQueue(server: PGLiteSocketServer, db: PGlite): void {
  const fields = server as unknown as Record<string, unknown>;
  if (
    !fields.queryQueue || typeof (fields.queryQueue as { enqueue?: unknown }).enqueue !== "function"
  ) {
    throw new Error("pglite-socket has no queryQueue to replace: check its version (deno.json)");
  }
  fields.queryQueue = new ExchangeQueue(db);
}
