/**
 * The SMTP client against a scripted TCP server on 127.0.0.1: multi-line replies arriving in
 * pieces, enhanced status codes, the HELO fallback, and every transport failure as its kind.
 */
import assert from "node:assert/strict";
import { openSmtpSession, parseReply, SmtpFailure } from "./smtp_client.ts";

const OPEN = { sanitizeOps: false, sanitizeResources: false };

/** A server that answers each command line with what `reply` returns (raw bytes; "" = silence). */
function scriptedServer(greeting: string, reply: (line: string) => string | "close") {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  const received: string[] = [];
  (async () => {
    for await (const conn of listener) {
      conns.push(conn);
      conn.setNoDelay(true);
      (async () => {
        const encoder = new TextEncoder();
        const decoder = new TextDecoder();
        try {
          if (greeting) await conn.write(encoder.encode(greeting));
          let buffer = "";
          const chunk = new Uint8Array(4096);
          for (;;) {
            const n = await conn.read(chunk);
            if (n === null) return;
            buffer += decoder.decode(chunk.subarray(0, n));
            let end;
            while ((end = buffer.indexOf("\r\n")) >= 0) {
              const line = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              received.push(line);
              const answer = reply(line);
              if (answer === "close") return conn.close();
              // Send in two pieces to exercise reassembly.
              const bytes = encoder.encode(answer);
              await conn.write(bytes.subarray(0, 3));
              await new Promise((resolve) => setTimeout(resolve, 2));
              await conn.write(bytes.subarray(3));
            }
          }
        } catch {
          // closed by the test
        }
      })();
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    received,
    close() {
      listener.close();
      for (const conn of conns) {
        try {
          conn.close();
        } catch {
          // already closed
        }
      }
    },
  };
}

const options = (port: number) => ({
  address: "127.0.0.1",
  port,
  serverName: "mx.example.test",
  commandTimeoutMs: 300,
});

Deno.test("parseReply: code, enhanced status and text of a multi-line reply", () => {
  assert.deepEqual(parseReply(["550-5.1.1 The email account", "550 5.1.1 does not exist"]), {
    code: 550,
    enhanced: "5.1.1",
    text: "The email account\ndoes not exist",
  });
  assert.deepEqual(parseReply(["250 OK"]), { code: 250, enhanced: null, text: "OK" });
  // An enhanced code whose class disagrees with the reply code is text, not status.
  assert.deepEqual(parseReply(["550 2.0.0 odd"]), { code: 550, enhanced: null, text: "2.0.0 odd" });
  assert.deepEqual(parseReply(["451 4.7.1"]), { code: 451, enhanced: "4.7.1", text: "" });
  assert.throws(() => parseReply(["hello"]), SmtpFailure);
});

Deno.test(
  "smtp client: a whole dialogue with multi-line EHLO arriving in pieces",
  OPEN,
  async () => {
    const server = scriptedServer("220-mx.example.test ESMTP\r\n220 ready\r\n", (line) => {
      if (line.startsWith("EHLO")) {
        return "250-mx.example.test\n250-PIPELINING\r\n250-SIZE 1000\r\n250 SMTPUTF8\r\n";
      }
      if (line.startsWith("MAIL")) return "250 2.1.0 Ok\r\n";
      if (line === "RCPT TO:<ada@example.test>") return "250 2.1.5 Ok\r\n";
      if (line.startsWith("RCPT")) return "550-5.1.1 No such user\r\n550 5.1.1 here\r\n";
      if (line === "QUIT") return "221 2.0.0 Bye\r\n";
      return "500 what\r\n";
    });
    try {
      const session = await openSmtpSession(options(server.port));
      assert.equal(session.greeting.code, 220);
      assert.equal(session.greeting.text, "mx.example.test ESMTP\nready");
      const ehlo = await session.ehlo("verifier.test");
      assert.equal(ehlo.code, 250);
      assert.deepEqual([...session.extensions], ["PIPELINING", "SIZE", "SMTPUTF8"]);
      assert.equal((await session.mailFrom("probe@verifier.test")).code, 250);
      const no = await session.rcptTo("bob@example.test");
      assert.deepEqual([no.code, no.enhanced], [550, "5.1.1"]);
      const yes = await session.rcptTo("ada@example.test");
      assert.deepEqual([yes.code, yes.enhanced], [250, "2.1.5"]);
      await session.quit();
      assert.deepEqual(server.received, [
        "EHLO verifier.test",
        "MAIL FROM:<probe@verifier.test>",
        "RCPT TO:<bob@example.test>",
        "RCPT TO:<ada@example.test>",
        "QUIT",
      ]);
    } finally {
      server.close();
    }
  },
);

Deno.test("smtp client: EHLO refused with 5xx falls back to HELO", OPEN, async () => {
  const server = scriptedServer("220 old server\r\n", (line) => {
    if (line.startsWith("EHLO")) return "502 5.5.1 command not implemented\r\n";
    if (line.startsWith("HELO")) return "250 hello\r\n";
    return "221 bye\r\n";
  });
  try {
    const session = await openSmtpSession(options(server.port));
    const reply = await session.ehlo("verifier.test");
    assert.equal(reply.code, 250);
    assert.equal(session.extensions.size, 0);
    assert.deepEqual(server.received, ["EHLO verifier.test", "HELO verifier.test"]);
    session.close();
  } finally {
    server.close();
  }
});

Deno.test("smtp client: a reply slower than the command timeout is a timeout", OPEN, async () => {
  const server = scriptedServer(
    "220 hi\r\n",
    (line) => (line.startsWith("EHLO") ? "" : "250 ok\r\n"),
  );
  try {
    const session = await openSmtpSession(options(server.port));
    const started = performance.now();
    await assert.rejects(
      () => session.ehlo("verifier.test"),
      (error) => error instanceof SmtpFailure && error.kind === "timeout",
    );
    const elapsed = performance.now() - started;
    assert.ok(elapsed >= 280 && elapsed < 1000, `took ${elapsed} ms`);
    // The session is dead after a timeout.
    await assert.rejects(
      () => session.mailFrom("probe@verifier.test"),
      (error) => error instanceof SmtpFailure && error.kind === "closed",
    );
  } finally {
    server.close();
  }
});

Deno.test(
  "smtp client: no greeting in time, a closed connection, a refused port",
  OPEN,
  async () => {
    const silent = scriptedServer("", () => "");
    const closing = scriptedServer("220 hi\r\n", () => "close");
    const refused = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const refusedPort = (refused.addr as Deno.NetAddr).port;
    refused.close();
    try {
      await assert.rejects(
        () => openSmtpSession(options(silent.port)),
        (error) => error instanceof SmtpFailure && error.kind === "timeout",
      );
      const session = await openSmtpSession(options(closing.port));
      await assert.rejects(
        () => session.ehlo("verifier.test"),
        (error) => error instanceof SmtpFailure && error.kind === "closed",
      );
      await assert.rejects(
        () => openSmtpSession(options(refusedPort)),
        (error) => error instanceof SmtpFailure && error.kind === "refused",
      );
    } finally {
      silent.close();
      closing.close();
    }
  },
);

Deno.test("smtp client: the caller's signal aborts a wait at once", OPEN, async () => {
  const server = scriptedServer("220 hi\r\n", () => "");
  try {
    const controller = new AbortController();
    const session = await openSmtpSession({
      ...options(server.port),
      commandTimeoutMs: 5000,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    await assert.rejects(
      () => session.ehlo("verifier.test"),
      (error) => error instanceof SmtpFailure && error.kind === "aborted",
    );
    assert.ok(performance.now() - started < 1000);
  } finally {
    server.close();
  }
});

Deno.test("smtp client: no command injection through arguments", OPEN, async () => {
  const server = scriptedServer("220 hi\r\n", () => "250 ok\r\n");
  try {
    const session = await openSmtpSession(options(server.port));
    assert.throws(() => session.rcptTo("a@b.test>\r\nDATA"), TypeError);
    await assert.rejects(() => session.ehlo("x\r\nRSET"), TypeError);
    session.close();
    assert.deepEqual(server.received, []);
  } finally {
    server.close();
  }
});

Deno.test("smtp client: non-SMTP garbage is a protocol failure", OPEN, async () => {
  const server = scriptedServer("HTTP/1.1 400 Bad Request\r\n", () => "");
  try {
    await assert.rejects(
      () => openSmtpSession(options(server.port)),
      (error) => error instanceof SmtpFailure && error.kind === "protocol",
    );
  } finally {
    server.close();
  }
});
