/**
 * The HTTP server of main.ts: Deno.serve's HTTP engine (hyper), with what Deno.serve lacks as of
 * Deno 2.9 — connections that stop sending are closed, and a stop that cannot wait forever.
 *
 * Deno.serve never closes a connection on its own: an idle keep-alive connection, a client that
 * sent half its request headers, or one whose body stopped arriving keep their socket for as long
 * as the client likes (measured: all three still open after 70 s). It has no idle-timeout
 * option (an upstream pull request adds `keepAliveTimeout`, not released). So this server
 * accepts connections itself and serves each one with Deno's own per-connection server
 * (`serveHttpOnConnection`, the function behind Deno.serve on a listener, reached through
 * `Deno[Deno.internal]`), which gives it a handle per connection:
 *
 * - A connection with no request in progress for `idleTimeoutMs` (since its last answer was
 *   written, or since it was opened when no complete request head ever came) is closed.
 * - A request body announced with `Content-Length` (at most `maxBufferedBodyBytes`) is read before
 *   the handler runs; if it has not all arrived within `idleTimeoutMs` the connection is cut.
 *   Bodies without a length (chunked) or larger go to the handler as they come.
 * - `shutdown(graceMs)` stops accepting, closes idle connections at once, lets requests in
 *   progress finish (their answers say `Connection: close`; each connection is closed once its
 *   last answer is written), and cuts whatever is still open after `graceMs`.
 *
 * Plain Deno.serve is used instead (with the same shutdown deadline, but no idle timeout) when
 * `idleTimeoutMs` is 0, when `plain` is asked for (Deno Deploy, whose own proxy holds the
 * client connections and may move the listening address), or when this Deno has no
 * `serveHttpOnConnection`. Throughput is the same as Deno.serve's within the noise (bare Hono,
 * 32 connections: ~30k GET and ~26k POST req/s either way on the 2-core CI machine).
 */
import { withBufferedBody } from "./buffered_request.ts";

export interface HttpServer {
  readonly addr: Deno.NetAddr;
  /** `connections`: idle connections are closed; `deno-serve`: plain Deno.serve. */
  readonly mode: "connections" | "deno-serve";
  /** Resolves once the server has stopped. */
  readonly finished: Promise<void>;
  /** Open connections (the `connections` mode only; 0 otherwise). */
  openConnections(): number;
  /**
   * Stops accepting connections, closes idle ones, lets requests in progress finish and cuts
   * whatever is still open after `graceMs`. Resolves when every connection is closed.
   */
  shutdown(graceMs: number): Promise<void>;
}

export interface ServeHttpOptions {
  port: number;
  hostname: string;
  /** Close a connection with no request in progress after this long; 0 = never (plain Deno.serve). */
  idleTimeoutMs: number;
  /** Use plain Deno.serve whatever the timeout (Deno Deploy). */
  plain?: boolean;
  /** Request bodies up to this size (with a Content-Length) are read under the idle timeout. */
  maxBufferedBodyBytes?: number;
  onListen?: (addr: Deno.NetAddr) => void;
  onError?: (error: unknown) => Response | Promise<Response>;
}

type ServeHandler = (request: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) =>
  | Response
  | Promise<Response>;

/** The per-connection server Deno.serve is built on, when this Deno has it. */
type ServeOnConnection = (
  connection: Deno.Conn,
  signal: AbortSignal,
  handler: ServeHandler,
  onError: (error: unknown) => Response | Promise<Response>,
  onListen: () => void,
) => { finished: Promise<void>; shutdown(): Promise<void> };

function serveOnConnectionFunction(): ServeOnConnection | null {
  // deno-lint-ignore no-explicit-any
  const internal = (Deno as any)[(Deno as any).internal];
  const fn = internal?.serveHttpOnConnection;
  return typeof fn === "function" && fn.length >= 4 ? fn as ServeOnConnection : null;
}

/**
 * Only the error's name is printed: an error escaping the app (which logs its own) might carry
 * request content in its message, and names sent for parsing must never reach a log.
 */
function logServerError(error: unknown): void {
  console.error(JSON.stringify({
    time: new Date().toISOString(),
    level: "error",
    msg: "http server error",
    errorName: (error as Error)?.name ?? typeof error,
  }));
}

const defaultOnError = (error: unknown) => {
  logServerError(error);
  return new Response("Internal Server Error", { status: 500 });
};

export function serveHttp(options: ServeHttpOptions, handler: ServeHandler): HttpServer {
  const serveOnConnection = options.plain || options.idleTimeoutMs <= 0
    ? null
    : serveOnConnectionFunction();
  if (!serveOnConnection) return servePlain(options, handler);
  return serveConnections(options, handler, serveOnConnection);
}

function servePlain(options: ServeHttpOptions, handler: ServeHandler): HttpServer {
  installCutErrorListener();
  const cut = new AbortController();
  const server = Deno.serve({
    port: options.port,
    hostname: options.hostname,
    signal: cut.signal,
    onListen: (addr) => options.onListen?.(addr),
    onError: options.onError,
  }, handler);
  let stopping: Promise<void> | undefined;
  return {
    addr: server.addr,
    mode: "deno-serve",
    finished: server.finished,
    openConnections: () => 0,
    shutdown: (graceMs) =>
      stopping ??= (async () => {
        // Graceful first; after the grace, Deno's non-graceful cancel of the whole server.
        let timer: ReturnType<typeof setTimeout> | undefined;
        const graceful = server.shutdown().catch(() => {});
        await Promise.race([
          graceful,
          new Promise<void>((resolve) => timer = setTimeout(resolve, graceMs)),
        ]);
        clearTimeout(timer);
        if (!cut.signal.aborted) {
          cutting = true;
          try {
            cut.abort();
          } finally {
            cutting = false;
          }
        }
        await Promise.race([
          server.finished.catch(() => {}),
          new Promise((r) => setTimeout(r, 500)),
        ]);
      })(),
  };
}

/** What the server knows of one connection. */
interface Connection {
  /** Requests whose answer is not yet fully written. */
  inFlight: number;
  /** performance.now() of the last request start or finished answer (or of the accept). */
  lastActive: number;
  /** performance.now() since when a request body is being read, or 0. */
  receivingSince: number;
  /** Aborting it closes the connection at once (Deno's non-graceful cancel). */
  abort: AbortController;
  /** The connection has ended. */
  done: boolean;
  /**
   * hyper's graceful close of this connection: the request in progress is answered, then the
   * connection closes (set once the connection is being served).
   */
  close: (() => Promise<void>) | null;
}

/**
 * Set while this module cuts a connection. Deno's cancel throws `BadResource` from inside the
 * abort listener when the connection ended a moment before (its resource is taken as soon as it
 * starts closing); that error is reported as an uncaught exception. Only that one is silenced.
 */
let cutting = false;
let errorListenerInstalled = false;

function installCutErrorListener() {
  if (errorListenerInstalled) return;
  errorListenerInstalled = true;
  globalThis.addEventListener("error", (event) => {
    if (cutting && (event as ErrorEvent).error instanceof Deno.errors.BadResource) {
      event.preventDefault();
    }
  });
}

function cut(c: Connection) {
  if (c.done || c.abort.signal.aborted) return;
  cutting = true;
  try {
    c.abort.abort();
  } finally {
    cutting = false;
  }
}

/**
 * Closes a connection whose last answer has been handed over, once that answer is written:
 * hyper's graceful close of the connection. (A `Connection: close` header set by the handler
 * does not make hyper close it, measured on Deno 2.9; and the graceful close cannot start
 * earlier: it ends a request body still being read.)
 */
function closeGracefully(c: Connection) {
  if (c.done) return;
  if (!c.close) return cut(c);
  c.close().catch(() => cut(c));
}

function serveConnections(
  options: ServeHttpOptions,
  handler: ServeHandler,
  serveOnConnection: ServeOnConnection,
): HttpServer {
  installCutErrorListener();
  const idleMs = options.idleTimeoutMs;
  const maxBody = options.maxBufferedBodyBytes ?? 1024 * 1024;
  const onError = options.onError ?? defaultOnError;
  const listener = Deno.listen({ port: options.port, hostname: options.hostname });
  const addr = listener.addr as Deno.NetAddr;
  const connections = new Set<Connection>();
  let accepting = true;
  let stopping = false;
  let allClosed: (() => void) | null = null;

  // One sweep for every connection, a few times per timeout (at most once a second).
  const sweepEvery = Math.max(50, Math.min(1000, Math.floor(idleMs / 4)));
  const sweeper = setInterval(() => {
    const now = performance.now();
    for (const c of connections) {
      if (c.receivingSince > 0 && now - c.receivingSince >= idleMs) cut(c); // the body stopped
      else if (c.inFlight === 0 && now - c.lastActive >= idleMs) cut(c); // idle, or never asked
    }
  }, sweepEvery);
  Deno.unrefTimer(sweeper);

  const serveConnection = (conn: Deno.Conn) => {
    const c: Connection = {
      inFlight: 0,
      lastActive: performance.now(),
      receivingSince: 0,
      abort: new AbortController(),
      done: false,
      close: null,
    };
    const answered = () => {
      c.inFlight--;
      c.lastActive = performance.now();
      if (stopping && c.inFlight === 0) closeGracefully(c);
    };
    const perConnection: ServeHandler = async (request, info) => {
      c.inFlight++;
      c.lastActive = performance.now();
      // Counted until the answer is fully written (or failed), not only until the handler returns.
      info.completed.then(answered, answered);
      const length = request.headers.get("content-length");
      if (
        length !== null && length !== "0" && Number(length) <= maxBody &&
        request.method !== "GET" && request.method !== "HEAD"
      ) {
        c.receivingSince = c.lastActive;
        let body: Uint8Array<ArrayBuffer>;
        try {
          body = await request.bytes();
        } catch {
          // The connection was cut (the body stopped arriving) or the client went away.
          return new Response(null, { status: 408 });
        } finally {
          c.receivingSince = 0;
        }
        request = withBufferedBody(request, body);
      }
      const response = await handler(request, info);
      if (stopping) {
        // The client learns this is the last answer; the connection's graceful close (started
        // in `answered` once it is handed over) closes the connection after it is written.
        try {
          response.headers.set("connection", "close");
        } catch { /* immutable headers: the graceful close still ends the connection */ }
      }
      return response;
    };
    let server: { finished: Promise<void>; shutdown(): Promise<void> };
    try {
      server = serveOnConnection(conn, c.abort.signal, perConnection, onError, () => {});
      c.close = () => server.shutdown();
    } catch (error) {
      try {
        conn.close();
      } catch { /* already closed */ }
      logServerError(error);
      return;
    }
    connections.add(c);
    server.finished.catch(() => {}).finally(() => {
      c.done = true;
      connections.delete(c);
      if (connections.size === 0) allClosed?.();
    });
  };

  const acceptLoop = (async () => {
    while (accepting) {
      let conn: Deno.Conn;
      try {
        conn = await listener.accept();
      } catch (error) {
        if (!accepting || error instanceof Deno.errors.BadResource) break;
        // Out of file descriptors or a connection reset before accept: try again shortly.
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      if (!accepting) {
        conn.close();
        break;
      }
      serveConnection(conn);
    }
  })();

  options.onListen?.(addr);

  let resolveFinished!: () => void;
  const finished = new Promise<void>((resolve) => resolveFinished = resolve);
  let shuttingDown: Promise<void> | undefined;
  return {
    addr,
    mode: "connections",
    finished,
    openConnections: () => connections.size,
    shutdown: (graceMs) =>
      shuttingDown ??= (async () => {
        accepting = false;
        stopping = true;
        try {
          listener.close();
        } catch { /* already closed */ }
        await acceptLoop;
        // Idle connections now; busy ones once their last answer is handed over (`answered`).
        for (const c of connections) if (c.inFlight === 0) cut(c);
        if (connections.size > 0) {
          let timer: ReturnType<typeof setTimeout> | undefined;
          await Promise.race([
            new Promise<void>((resolve) => allClosed = resolve),
            new Promise<void>((resolve) => timer = setTimeout(resolve, graceMs)),
          ]);
          clearTimeout(timer);
          // Whatever is still open after the grace is cut, its request unanswered.
          for (const c of connections) cut(c);
        }
        clearInterval(sweeper);
        resolveFinished();
      })(),
  };
}
