/**
 * DATABASE_URL that does not lead to a usable Postgres: opening fails soon, in one line that
 * names the variable and the cause and never the password, whatever is on the other end.
 */
import assert from "node:assert/strict";
import { openDatabase } from "../domain/stores/database.ts";
import { runAdmin } from "../admin.ts";

const PASSWORD = "s3cret-pw";

async function openFailure(url: string, firstQueryTimeoutMs = 1_500) {
  const started = performance.now();
  try {
    const db = await openDatabase({ url, firstQueryTimeoutMs });
    await db.close();
  } catch (error) {
    return { message: (error as Error).message, ms: performance.now() - started };
  }
  throw new Error(`${url} opened`);
}

function assertNamed(message: string) {
  assert.match(message, /^DATABASE_URL /);
  assert.ok(!message.includes("\n"), `one line: ${message}`);
  assert.ok(!message.includes(PASSWORD), `no password: ${message}`);
}

/** A local port nothing listens on. */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

Deno.test("DATABASE_URL: a refused connection names the variable and the cause", async () => {
  const { message, ms } = await openFailure(
    `postgres://postgres:${PASSWORD}@127.0.0.1:${closedPort()}/x`,
  );
  assertNamed(message);
  assert.match(message, /ECONNREFUSED|refused/i);
  assert.ok(ms < 5_000, `${ms} ms`);
});

Deno.test("DATABASE_URL: a port that accepts and never answers fails in bounded time", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of listener) held.push(conn);
  })();
  try {
    const port = (listener.addr as Deno.NetAddr).port;
    const { message, ms } = await openFailure(`postgres://u:${PASSWORD}@127.0.0.1:${port}/x`);
    assertNamed(message);
    assert.match(message, /no answer/);
    assert.ok(ms < 4_000, `${ms} ms`);
  } finally {
    listener.close();
    await accepting.catch(() => {});
    for (const conn of held) conn.close();
  }
});

Deno.test("DATABASE_URL: an HTTP server instead of Postgres fails in bounded time", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("hello"),
  );
  try {
    const { message, ms } = await openFailure(
      `postgres://u:${PASSWORD}@127.0.0.1:${server.addr.port}/x`,
    );
    assertNamed(message);
    assert.ok(ms < 4_000, `${ms} ms`);
  } finally {
    await server.shutdown();
  }
});

Deno.test({
  name: "DATABASE_URL: a role that does not exist is named with the variable",
  ignore: !Deno.env.get("TEST_DATABASE_URL"),
  async fn() {
    const base = new URL(Deno.env.get("TEST_DATABASE_URL")!);
    base.username = "fixf_no_such_role";
    base.password = PASSWORD;
    const { message } = await openFailure(base.toString(), 5_000);
    assertNamed(message);
    assert.match(message, /fixf_no_such_role/);
  },
});

Deno.test("admin CLI: an unreachable database is one line and exit 1, no stack", async () => {
  const result = await runAdmin(["balance", "--workspace", "ws_x"], {
    DATABASE_URL: `postgres://postgres:${PASSWORD}@127.0.0.1:${closedPort()}/x`,
  });
  assert.equal(result.ok, false);
  assert.equal(result.exitCode, 1);
  if (result.ok) return;
  assertNamed(result.message);
});

Deno.test("admin CLI: a configuration error is one line and exit 1", async () => {
  const result = await runAdmin(["balance", "--workspace", "ws_x"], { DATABASE_URL: "mysql://x" });
  assert.equal(result.exitCode, 1);
  if (result.ok) return;
  assert.match(result.message, /^DATABASE_URL must be/);
});

Deno.test("admin CLI as a process: one line on stderr, exit 1", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      new URL("../admin.ts", import.meta.url).pathname,
      "balance",
      "--workspace",
      "ws_x",
    ],
    env: { DATABASE_URL: `postgres://postgres@127.0.0.1:${closedPort()}/x` },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr).trim();
  assert.equal(output.code, 1, stderr);
  assert.equal(stderr.split("\n").length, 1, stderr);
  assert.match(stderr, /^admin: DATABASE_URL .*ECONNREFUSED/);
});
