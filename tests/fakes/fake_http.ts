/** Small pieces every fake HTTP provider shares: a JSON answer, and a wait that ends on close. */

/** A JSON answer with the given status and extra headers. */
export function jsonAnswer(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/** Waits `ms`, or less when the fake is closing (so a `slow` fake never holds a test up). */
export function sleep(ms: number, closing: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (closing.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      closing.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    closing.addEventListener("abort", done);
  });
}

/** A fake provider's HTTP server on 127.0.0.1, with what every fake records. */
export interface FakeHttpServer {
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  port: number;
  /** Every request's URL, in arrival order. */
  requests: URL[];
  /** The headers of every request, in the same order. */
  headers: Headers[];
  /** Aborted when the fake closes: a `slow` answer waits on it (`sleep`). */
  closing: AbortSignal;
  close(): Promise<void>;
}

/**
 * Serves `handle` on a free port of 127.0.0.1, recording every request's URL and headers before
 * it is handled; `close()` ends pending slow answers and shuts the server down.
 */
export function serveFake(
  handle: (request: Request, url: URL) => Response | Promise<Response>,
): FakeHttpServer {
  const requests: URL[] = [];
  const headers: Headers[] = [];
  const closing = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) => {
      const url = new URL(request.url);
      requests.push(url);
      headers.push(request.headers);
      return handle(request, url);
    },
  );
  const { port } = server.addr as Deno.NetAddr;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    headers,
    closing: closing.signal,
    async close() {
      closing.abort();
      await server.shutdown();
    },
  };
}
