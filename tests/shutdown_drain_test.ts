/**
 * `SHUTDOWN_DRAIN_SECONDS` on a real process: after SIGTERM, `/readyz` answers 503 for that long
 * while requests are still served (a load balancer that has not yet seen it fail sends new
 * requests to an open port), then the listener closes and the process exits 0.
 */
import assert from "node:assert/strict";
import { freePort, ServiceChild, sleep } from "./service_child.ts";
import { DB_TEST, openTestDatabase } from "./harness.ts";

Deno.test(
  "stop: with SHUTDOWN_DRAIN_SECONDS, /readyz fails while requests are still served, then the port closes",
  DB_TEST,
  async () => {
    const dataDir = await Deno.makeTempDir({ prefix: "drain-test-" });
    const pg = Deno.env.get("TEST_DATABASE_URL") ? await openTestDatabase() : null;
    const port = freePort();
    const base = `http://127.0.0.1:${port}`;
    const child = new ServiceChild("drain", {
      DATA_DIR: dataDir,
      ...(pg?.url ? { DATABASE_URL: pg.url } : {}),
      HOST: "127.0.0.1",
      PORT: String(port),
      LEAD_SEARCH_RUNNER: "off",
      LOG_REQUESTS: "false",
      SHUTDOWN_DRAIN_SECONDS: "2",
      STOP_GRACE_SECONDS: "1",
    });
    try {
      await child.waitHealthy(base);
      const get = async (path: string) => {
        const res = await fetch(`${base}${path}`, { headers: { Connection: "close" } });
        return { status: res.status, body: await res.json() };
      };
      assert.equal((await get("/readyz")).status, 200);

      const signalled = performance.now();
      child.signal("SIGTERM");
      await sleep(300);
      // Draining: unready, and still serving (new connections too).
      const ready = await get("/readyz");
      assert.equal(ready.status, 503);
      assert.equal(ready.body.status, "stopping");
      assert.equal((await get("/healthz")).status, 200);
      await sleep(800);
      assert.equal((await get("/readyz")).status, 503, "still draining after a second");
      assert.equal((await get("/healthz")).status, 200);

      // Then the listener closes, and the process exits 0.
      let closedAfter = Infinity;
      while (performance.now() - signalled < 10_000) {
        try {
          const res = await fetch(`${base}/healthz`, { headers: { Connection: "close" } });
          await res.body?.cancel();
        } catch {
          closedAfter = performance.now() - signalled;
          break;
        }
        await sleep(50);
      }
      assert.ok(closedAfter >= 1_900, `the port stayed open for the drain (${closedAfter} ms)`);
      assert.ok(closedAfter < 5_000, `then it closed (${closedAfter} ms)`);
      const status = await child.exited();
      assert.equal(status.code, 0, child.output().slice(-2000));
      assert.ok(child.logged("draining").length === 1, "the drain is logged");
    } finally {
      child.killGroup();
      await child.status;
      await pg?.drop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
);
