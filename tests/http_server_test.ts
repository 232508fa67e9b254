/**
 * The service's HTTP server (server/http_server.ts) on raw TCP connections: an idle keep-alive
 * connection, one that never sent a request, one whose request head stopped half-way and one
 * whose body stopped half-way are all closed by the server after the idle timeout; a slow request
 * is not cut; a graceful shutdown answers requests in progress, closes idle connections at once
 * and cuts what is still open after its grace.
 */
import assert from "node:assert/strict";
import { type HttpServer, serveHttp } from "../server/http_server.ts";

const IDLE_MS = 600;
const BIG_BYTES = 8 * 1024 * 1024;
const encoder = new TextEncoder();

function startServer(idleTimeoutMs = IDLE_MS): HttpServer {
  return serveHttp(
    { port: 0, hostname: "127.0.0.1", idleTimeoutMs, onListen() {} },
    async (request) => {
      const path = new URL(request.url).pathname;
      if (request.method === "POST") return Response.json({ got: await request.json() });
      if (path === "/slow") {
        await new Promise((resolve) => setTimeout(resolve, 2 * IDLE_MS));
        return new Response("slow done");
      }
      if (path === "/forever") await new Promise(() => {});
      if (path === "/big") {
        // A large answer, ready after a while: written in full even while the server stops.
        await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
        return new Response("x".repeat(BIG_BYTES));
      }
      return new Response("ok");
    },
  );
}

/** Opens a connection and sends `bytes`; `closed` resolves with what came back once the server closes it. */
async function open(server: HttpServer, bytes = "") {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
  if (bytes) await conn.write(encoder.encode(bytes));
  const opened = performance.now();
  const closed = (async () => {
    const buffer = new Uint8Array(4096);
    let text = "";
    for (;;) {
      const n = await conn.read(buffer).catch(() => null);
      if (n === null) break;
      text += new TextDecoder().decode(buffer.subarray(0, n));
    }
    try {
      conn.close();
    } catch { /* closed */ }
    return { afterMs: performance.now() - opened, text };
  })();
  return { conn, closed };
}

const GET = (path: string) => `GET ${path} HTTP/1.1\r\nHost: test\r\n\r\n`;
const OPTS = { sanitizeOps: false, sanitizeResources: false };

Deno.test(
  "http server: the idle timeout closes silent, idle and half-sent connections",
  OPTS,
  async () => {
    const server = startServer();
    assert.equal(server.mode, "connections");
    try {
      const silent = await open(server);
      const keepAlive = await open(server, GET("/"));
      const halfHead = await open(server, "GET / HTTP/1.1\r\nHo");
      const halfBody = await open(
        server,
        'POST / HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{"a":',
      );
      const slow = await open(server, GET("/slow"));
      const [s, k, h, b, w] = await Promise.all(
        [silent, keepAlive, halfHead, halfBody, slow].map((c) => c.closed),
      );
      for (const [label, result] of Object.entries({ s, k, h, b })) {
        assert.ok(
          result.afterMs >= IDLE_MS - 50,
          `${label} closed too early (${result.afterMs} ms)`,
        );
        assert.ok(result.afterMs < IDLE_MS + 1500, `${label} closed after ${result.afterMs} ms`);
      }
      assert.match(k.text, /^HTTP\/1.1 200/, "the keep-alive request was answered first");
      assert.equal(h.text, "", "nothing answered to a half-sent head");
      assert.doesNotMatch(b.text, /200 OK/, "nothing answered to a half-sent body");
      // The slow request outlived the timeout: answered, then closed once idle.
      assert.match(w.text, /slow done/);
      assert.ok(w.afterMs >= 3 * IDLE_MS - 50, `slow connection closed after ${w.afterMs} ms`);
      assert.equal(server.openConnections(), 0);
    } finally {
      await server.shutdown(0);
    }
  },
);

Deno.test(
  "http server: a body sent in pieces, all within the timeout, is read whole",
  OPTS,
  async () => {
    const server = startServer();
    try {
      const body = JSON.stringify({ name: "Ada Lovelace", pad: "x".repeat(100) });
      const { conn, closed } = await open(
        server,
        `POST / HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      // Three pieces, the whole within the timeout.
      for (let i = 0; i < body.length; i += Math.ceil(body.length / 3)) {
        await new Promise((resolve) => setTimeout(resolve, IDLE_MS / 5));
        await conn.write(encoder.encode(body.slice(i, i + Math.ceil(body.length / 3))));
      }
      const result = await closed;
      assert.match(result.text, /^HTTP\/1.1 200/);
      assert.match(result.text, /"Ada Lovelace"/);
    } finally {
      await server.shutdown(0);
    }
  },
);

Deno.test(
  "http server: shutdown answers requests in progress, closes idle connections, cuts after its grace",
  OPTS,
  async () => {
    const server = startServer(60_000);
    const idle = await open(server, GET("/"));
    const inProgress = await open(server, GET("/slow"));
    const big = await open(server, GET("/big"));
    const forever = await open(server, GET("/forever"));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    const stopping = server.shutdown(3 * IDLE_MS);
    const idleClosed = await idle.closed;
    assert.ok(performance.now() - started < 300, "an idle connection is closed at once");
    const answered = await inProgress.closed;
    const answeredAfter = performance.now() - started;
    assert.match(answered.text, /slow done/, "a request in progress is answered");
    assert.match(answered.text, /\r\nconnection: close\r\n/i, "its answer says Connection: close");
    // …and its connection is closed once the answer is written, not at the end of the grace.
    assert.ok(answeredAfter < 2 * IDLE_MS + 300, `closed ${answeredAfter} ms after the stop began`);
    const bigAnswer = await big.closed;
    assert.ok(bigAnswer.text.endsWith("x".repeat(1000)), "a large answer is written in full");
    assert.ok(bigAnswer.text.length > BIG_BYTES, `${bigAnswer.text.length} bytes of ${BIG_BYTES}`);
    await stopping;
    const took = performance.now() - started;
    assert.ok(took >= 3 * IDLE_MS - 50 && took < 3 * IDLE_MS + 1000, `shutdown took ${took} ms`);
    assert.equal((await forever.closed).text, "", "a request that never ends is cut");
    assert.match(idleClosed.text, /^HTTP\/1.1 200/);
    await assert.rejects(() => Deno.connect({ hostname: "127.0.0.1", port: server.addr.port }));
  },
);

Deno.test(
  "http server: shutdown writes a large answer in full to a client that reads slowly",
  OPTS,
  async () => {
    const server = startServer(60_000);
    try {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
      await conn.write(encoder.encode(GET("/big")));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const stopping = server.shutdown(10_000);
      // Nothing read until the answer is long handed over: most of it waits in socket buffers.
      await new Promise((resolve) => setTimeout(resolve, 3 * IDLE_MS));
      const buffer = new Uint8Array(64 * 1024);
      let received = 0;
      let tail = "";
      for (;;) {
        const n = await conn.read(buffer).catch(() => null);
        if (n === null) break;
        received += n;
        tail = (tail + new TextDecoder().decode(buffer.subarray(0, n))).slice(-2000);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      conn.close();
      assert.ok(received > BIG_BYTES, `${received} bytes of ${BIG_BYTES}`);
      assert.ok(tail.endsWith("x".repeat(1000)));
      await stopping;
    } finally {
      await server.shutdown(0);
    }
  },
);

Deno.test(
  "http server: IDLE_TIMEOUT_SECONDS=0 or Deno Deploy → plain Deno.serve, same shutdown deadline",
  OPTS,
  async () => {
    for (const options of [{ idleTimeoutMs: 0 }, { idleTimeoutMs: 1000, plain: true }]) {
      const server = serveHttp(
        { port: 0, hostname: "127.0.0.1", onListen() {}, ...options },
        () => new Promise<Response>(() => {}),
      );
      assert.equal(server.mode, "deno-serve");
      const forever = await open(server, GET("/"));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const started = performance.now();
      await server.shutdown(300);
      const took = performance.now() - started;
      assert.ok(took < 1500, `shutdown took ${took} ms`);
      // Deno.serve's cancel (Deno 2.9) does not close a connection whose handler never answers:
      // it closes when the process exits, which main.ts does once the shutdown has resolved.
      forever.conn.close();
      await forever.closed;
    }
  },
);
