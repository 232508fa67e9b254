/**
 * Crash test: the service process is killed (SIGKILL) while batches are being answered and
 * billed, restarted on the same DATA_DIR (or database), and every batch is retried with its
 * Idempotency-Key. Each answerable row must end up charged exactly once, every row answered,
 * and the balance must equal what was granted minus what the ledger charged.
 */
import { ServiceChild } from "./service_child.ts";
import assert from "node:assert/strict";
import { DB_TEST, openTestDatabase } from "./harness.ts";

const KEY = "svc_sk_" + "c3".repeat(24);
// Enough work that no machine finishes it between two looks at the ledger: 100 batches of the
// largest size, all in flight at once.
const BATCHES = 100;
const NAMES = Array.from({ length: 100 }, (_, i) => `Given${i} Family${i}`);
const TOTAL_ROWS = BATCHES * NAMES.length;

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

async function waitHealthy(base: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      const res = await fetch(`${base}/healthz`);
      await res.body?.cancel();
      if (res.ok) return;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("service did not become healthy");
}

/** The service as its own process; `CRASH_TEST_STDERR=1` shows its output in the test output. */
function startProcess(env: Record<string, string>) {
  return new ServiceChild("crash", { ...env, LOG_REQUESTS: "false" }, {
    clearEnv: false,
    show: Boolean(Deno.env.get("CRASH_TEST_STDERR")),
  });
}

async function chargedRows(base: string): Promise<number> {
  const res = await fetch(`${base}/api/v1/points`, { headers: { Authorization: `Bearer ${KEY}` } });
  const { data } = await res.json();
  return data.granted - data.available;
}

async function untilSomeRowsCharged(base: string): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (await chargedRows(base) > 0) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error("no row was charged within 10 s");
}

const batch = (base: string, i: number) =>
  fetch(`${base}/api/v1/name/parse/batch`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${KEY}`,
      "Content-Type": "application/json",
      "Idempotency-Key": `crash-batch-${i}`,
    },
    body: JSON.stringify({ names: NAMES }),
  });

Deno.test(
  "crash: SIGKILL mid-batch, restart, retry — every row charged exactly once",
  DB_TEST,
  async () => {
    const dataDir = await Deno.makeTempDir();
    const pg = Deno.env.get("TEST_DATABASE_URL") ? await openTestDatabase() : null;
    const port = freePort();
    const base = `http://127.0.0.1:${port}`;
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      SVC_BOOTSTRAP_KEY: KEY,
      SVC_BOOTSTRAP_POINTS: "100000",
      RATE_LIMIT_NAME_PARSE_BATCH: "100000/60",
      RATE_LIMIT_ACCOUNT: "100000/60",
    };
    if (pg?.url) env.DATABASE_URL = pg.url;
    let child = startProcess(env);
    try {
      await waitHealthy(base);
      // Many batches in flight, then the process dies without warning. They are sent 30 ms
      // apart: concurrent charges share one commit (group commit), so batches sent all at once
      // could all be charged in the very commit the kill waits for.
      const inFlight = Array.from(
        { length: BATCHES },
        (_, i) =>
          new Promise((resolve) => setTimeout(resolve, i * 30))
            .then(() => batch(base, i)).then((r) => r.text()).catch(() => "lost"),
      );
      // The kill is driven by the ledger, not a timer: as soon as some rows are charged.
      await untilSomeRowsCharged(base);
      child.signal("SIGKILL");
      await child.status;
      await Promise.all(inFlight);

      child = startProcess(env);
      await waitHealthy(base);
      const chargedBeforeCrash = await chargedRows(base);
      console.log(`charged before the crash: ${chargedBeforeCrash} of ${TOTAL_ROWS} rows`);
      assert.ok(chargedBeforeCrash > 0, "the crash came after some work was billed");
      assert.ok(chargedBeforeCrash < TOTAL_ROWS, "the crash interrupted the work");
      let charged = 0;
      for (let i = 0; i < BATCHES; i++) {
        let res = await batch(base, i);
        // A batch whose first attempt still holds its lease answers 409 until the lease ends.
        for (let wait = 0; res.status === 409 && wait < 80; wait++) {
          await res.body?.cancel();
          await new Promise((r) => setTimeout(r, 1000));
          res = await batch(base, i);
        }
        assert.equal(res.status, 200, `batch ${i}`);
        const { data } = await res.json();
        assert.equal(data.results.length, NAMES.length);
        assert.ok(data.results.every((row: { data?: unknown }) => row.data), "every row answered");
        charged += data.pointsCharged;
      }
      // Everything replays now, free.
      for (let i = 0; i < BATCHES; i++) {
        const { data } = await (await batch(base, i)).json();
        assert.equal(data.replay, true);
        assert.equal(data.pointsCharged, 0);
      }
      // Exactly one charge per row across the crash: the balance says so.
      assert.equal(await chargedRows(base), TOTAL_ROWS);
      assert.equal(
        charged,
        TOTAL_ROWS - chargedBeforeCrash,
        "the retries charged the rest",
      );
    } finally {
      child.signal("SIGKILL");
      await child.status;
      await pg?.drop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
);
