/**
 * How the service stops, on real processes, with the cases of `deno task check:stop`
 * (scripts/stop_check.ts): a signal to the server itself (`deno run -A main.ts`), to `deno task
 * start`, and to `npx -y deno@2 task start` (when npx can run deno@2 here) stops the server
 * within 5 s while a billed request in progress is answered (200, charged once, `Connection:
 * close`); every process started is gone too. An idle keep-alive connection is closed by the
 * server after `IDLE_TIMEOUT_SECONDS`. The script runs both signals for every launcher; here each
 * launcher gets one signal, npx both (SIGINT is the hard one: npm passes it to a shell that
 * waits), npx only on Postgres and when it can run deno@2 here. Measured times are printed.
 */
import assert from "node:assert/strict";
import {
  describeStopCase,
  type Launcher,
  measureIdleClose,
  npxAvailable,
  runStopCase,
  stopCaseProblem,
} from "../scripts/stop_check.ts";
import { DB_TEST, openTestDatabase } from "./harness.ts";

const LINUX = Deno.build.os === "linux";
const USES_POSTGRES = Boolean(Deno.env.get("TEST_DATABASE_URL"));
// The npx cases are about the launcher chain, not the database: run on Postgres only, where the
// service starts in a second rather than ten (embedded PGlite).
const NPX = LINUX && USES_POSTGRES && await npxAvailable(30_000);

/**
 * One database for every case (the processes run one after the other): on the embedded default
 * the first start creates it, and the later ones start in seconds. The last test removes it.
 */
let shared: ReturnType<typeof openServiceDatabase> | null = null;
const serviceDatabase = () => shared ??= openServiceDatabase();

async function openServiceDatabase() {
  const dataDir = await Deno.makeTempDir({ prefix: "stop-test-" });
  const pg = Deno.env.get("TEST_DATABASE_URL") ? await openTestDatabase() : null;
  const env: Record<string, string> = { DATA_DIR: dataDir };
  if (pg?.url) env.DATABASE_URL = pg.url;
  return {
    env,
    drop: async () => {
      await pg?.drop();
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    },
  };
}

const cases: [Launcher, Deno.Signal][] = [
  ["server", "SIGTERM"],
  ["deno task", "SIGINT"],
  ["npx", "SIGINT"],
  ["npx", "SIGTERM"],
];

for (const [launcher, signal] of cases) {
  const ignore = !LINUX || (launcher === "npx" && !NPX);
  Deno.test({
    name: `stop: ${signal} to ${launcher === "server" ? "the server" : launcher} stops the ` +
      `server within 5 s, the request in progress answered` +
      (ignore
        ? ` (ignored: ${
          !LINUX
            ? "Linux only"
            : !USES_POSTGRES
            ? "npx cases run with TEST_DATABASE_URL"
            : "npx -y deno@2 cannot run here"
        })`
        : ""),
    ignore,
    ...DB_TEST,
    fn: async () => {
      const database = await serviceDatabase();
      const result = await runStopCase(launcher, signal, database.env);
      console.log(describeStopCase(result));
      assert.equal(stopCaseProblem(result), null, describeStopCase(result));
    },
  });
}

Deno.test({
  name: "stop: an idle keep-alive connection is closed after IDLE_TIMEOUT_SECONDS",
  ...DB_TEST,
  fn: async () => {
    const database = await serviceDatabase();
    try {
      const idle = await measureIdleClose(database.env, 1);
      console.log(
        `IDLE_TIMEOUT_SECONDS=1: closed ${idle.closedAfterMs} ms after the answer ` +
          `(still open at ${idle.stillOpenAt} ms)`,
      );
      assert.ok(idle.answered, "the keep-alive request was answered");
      assert.ok(idle.stillOpenAt > 0, "still open half-way through the timeout");
      assert.ok(
        idle.closedAfterMs >= 900 && idle.closedAfterMs <= 2_500,
        `closed after ${idle.closedAfterMs} ms`,
      );
    } finally {
      await database.drop();
      shared = null;
    }
  },
});
