/**
 * The embedded database belongs to one process (domain/stores/data_dir_lock.ts): a second server
 * on the same DATA_DIR is refused at once, whether it starts at the same moment as the first or
 * later (it never becomes a client of the first one's socket); the admin CLI still works beside a
 * running server (through its socket), and waits for a server that holds the lock but is not
 * serving yet instead of opening the files itself.
 */
import assert from "node:assert/strict";
import { runAdmin } from "../admin.ts";
import { dataDirInUseMessage, tryLockDataDir } from "../domain/stores/data_dir_lock.ts";
import { openDatabase } from "../domain/stores/database.ts";
import { DB_TEST } from "./harness.ts";
import { api, freePort, ServiceChild } from "./service_child.ts";

const IN_USE = /DATA_DIR .* is in use by another server \(pid \d+\)/;

function serverOn(label: string, dataDir: string, port: number): ServiceChild {
  return new ServiceChild(label, {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    LOG_REQUESTS: "false",
    LEAD_SEARCH_RUNNER: "off",
  });
}

/**
 * The "failed to start" log line of a refused process, with its exit code; a process that is
 * still running after 60 s was not refused (it is killed so the test ends).
 */
async function refusal(child: ServiceChild): Promise<{ code: number; error: string }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const status = await Promise.race([
    child.exited(),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`${child.label} was not refused; it kept running:\n${child.output()}`));
      }, 60_000);
    }),
  ]).finally(() => clearTimeout(timer));
  const [record] = child.logged("failed to start");
  return { code: status.code, error: String(record?.error ?? child.output()) };
}

Deno.test(
  "DATA_DIR lock: two servers started at once on one DATA_DIR — one serves, the other is refused",
  DB_TEST,
  async () => {
    const dataDir = await Deno.makeTempDir({ prefix: "fixg-lock-" });
    // What a first start that died while unpacking the template leaves behind.
    await Deno.mkdir(`${dataDir}/pglite.unpacking-999999/base`, { recursive: true });
    const ports = [freePort(), freePort()];
    const children = ports.map((port, i) => serverOn(`server-${i}`, dataDir, port));
    try {
      const outcomes = await Promise.all(children.map(async (child, i) => {
        try {
          await child.waitHealthy(`http://127.0.0.1:${ports[i]}`, 90_000);
          return "serving";
        } catch {
          return "exited";
        }
      }));
      assert.deepEqual([...outcomes].sort(), ["exited", "serving"], outcomes.join());
      const serving = children[outcomes.indexOf("serving")];
      const refused = await refusal(children[outcomes.indexOf("exited")]);
      assert.equal(refused.code, 1);
      assert.match(refused.error, IN_USE);
      assert.ok(refused.error.includes(`(pid ${serving.pid})`), refused.error);
      const left = [...Deno.readDirSync(dataDir)].map((e) => e.name);
      assert.ok(!left.some((name) => name.includes(".unpacking-")), left.join());
    } finally {
      await Promise.all(children.map((child) => child.kill("SIGTERM")));
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
);

Deno.test(
  "DATA_DIR lock: a second server started later is refused, the admin CLI works through the socket",
  DB_TEST,
  async () => {
    const dataDir = await Deno.makeTempDir({ prefix: "fixg-lock-" });
    const [first, second] = [freePort(), freePort()];
    const server = serverOn("first", dataDir, first);
    try {
      await server.waitHealthy(`http://127.0.0.1:${first}`, 90_000);
      const late = serverOn("second", dataDir, second);
      const refused = await refusal(late);
      assert.equal(refused.code, 1, late.output());
      assert.equal(
        refused.error,
        `DATA_DIR ${dataDir} is in use by another server (pid ${server.pid})`,
      );
      assert.equal(late.logged("listening").length, 0);

      // The CLI beside the running server: its writes are the server's.
      const created = await runAdmin(
        ["workspace", "create", "--name", "lock-cli", "--points", "7"],
        {
          DATA_DIR: dataDir,
        },
      );
      assert.ok(created.ok, created.ok ? "" : created.message);
      const { apiKey } = created.output as { apiKey: string };
      const points = await api(`http://127.0.0.1:${first}`, apiKey, "/api/v1/points");
      assert.equal(points.status, 200);
      assert.equal(points.body.data.available, 7);
    } finally {
      await server.kill("SIGTERM");
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
);

Deno.test(
  "DATA_DIR lock: a client waits while a server holds the lock without serving, then opens it",
  DB_TEST,
  async () => {
    const dataDir = await Deno.makeTempDir({ prefix: "fixg-lock-" });
    try {
      // A server that has taken the lock and is still starting (no socket yet).
      const starting = await tryLockDataDir(`${dataDir}/pglite.lock`, "server");
      assert.ok(starting.lock);
      const refused = await openDatabase({
        url: null,
        pgliteDir: `${dataDir}/pglite`,
        waitMs: 300,
      }).then(() => null, (error: Error) => error.message);
      assert.match(refused ?? "opened", IN_USE);

      let opened = false;
      const client = openDatabase({ url: null, pgliteDir: `${dataDir}/pglite` }).then((db) => {
        opened = true;
        return db;
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(opened, false, "the client waits for the lock's holder");
      starting.lock.release();
      const db = await client;
      try {
        assert.equal((await db.sql`SELECT 1 AS one`)[0].one, 1);
        // While the client owns the files, a server is refused and told who holds them.
        const server = await tryLockDataDir(`${dataDir}/pglite.lock`, "server");
        assert.equal(server.lock, null);
        assert.equal(server.holder?.pid, Deno.pid);
        assert.match(
          dataDirInUseMessage(dataDir, server.holder!),
          /is in use by an admin command \(pid \d+\)/,
        );
      } finally {
        await db.close();
      }
    } finally {
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
);
