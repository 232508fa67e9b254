/**
 * Instances sharing one database must share the server secret (domain/stores/secret_check.ts):
 * the first start stores a verifier of it, a later start with another secret refuses with a
 * message naming SVC_SECRET — whether the secret came from SVC_SECRET or was generated into
 * DATA_DIR/secret.
 */
import assert from "node:assert/strict";
import { migrate } from "../domain/stores/migrate.ts";
import {
  checkServerSecret,
  SECRET_CHECK_SETTING,
  secretVerifier,
} from "../domain/stores/secret_check.ts";
import { DB_TEST, openTestDatabase } from "./harness.ts";
import { freePort, ServiceChild } from "./service_child.ts";

const USES_POSTGRES = Boolean(Deno.env.get("TEST_DATABASE_URL"));

Deno.test(
  "server secret: stored once as a verifier, matched, a different one refused",
  DB_TEST,
  async () => {
    const db = await openTestDatabase();
    try {
      await migrate(db.sql);
      const secret = "a".repeat(64);
      const [first, second] = await Promise.all([
        checkServerSecret(db.sql, secret, { kind: "env" }),
        checkServerSecret(db.sql, secret, { kind: "env" }),
      ]);
      assert.deepEqual([first, second].sort(), ["matched", "stored"]);
      assert.equal(await checkServerSecret(db.sql, secret, { kind: "env" }), "matched");
      const rows = await db.sql<{ value: string }[]>`SELECT value FROM service_settings`;
      assert.deepEqual(rows.map((r) => r.value), [secretVerifier(secret)]);
      assert.ok(!rows[0].value.includes(secret), "never the secret itself");

      await assert.rejects(
        checkServerSecret(db.sql, "b".repeat(64), { kind: "env" }),
        /^SecretMismatch: SVC_SECRET differs from the secret this database was first used with/,
      );
      await assert.rejects(
        checkServerSecret(db.sql, "b".repeat(64), { kind: "file", path: "/srv/data/secret" }),
        /SVC_SECRET is unset and the secret in \/srv\/data\/secret differs .* set SVC_SECRET to the same value on every instance/,
      );
      const [kept] = await db.sql<{ value: string }[]>`
      SELECT value FROM service_settings WHERE name = ${SECRET_CHECK_SETTING}`;
      assert.equal(kept.value, secretVerifier(secret), "a refused start changes nothing");
    } finally {
      await db.drop();
    }
  },
);

/** Starts the service and waits for it to serve, or to exit; the log record of either. */
async function start(label: string, env: Record<string, string>) {
  const port = freePort();
  const child = new ServiceChild(label, {
    ...env,
    PORT: String(port),
    HOST: "127.0.0.1",
    LOG_REQUESTS: "false",
    LEAD_SEARCH_RUNNER: "off",
  });
  try {
    await child.waitHealthy(`http://127.0.0.1:${port}`, 90_000);
    return { child, serving: true, error: "" };
  } catch {
    await child.exited();
    return {
      child,
      serving: false,
      error: String(child.logged("failed to start")[0]?.error ?? child.output()),
    };
  }
}

Deno.test({
  name: "server secret: a second instance on one Postgres with another secret is refused" +
    (USES_POSTGRES ? "" : " (ignored: needs TEST_DATABASE_URL)"),
  ignore: !USES_POSTGRES,
  ...DB_TEST,
  fn: async () => {
    const pg = await openTestDatabase();
    const scratch = await Deno.makeTempDir({ prefix: "fixg-secret-" });
    const running: ServiceChild[] = [];
    try {
      const base = { DATABASE_URL: pg.url!, KV_PATH: `${scratch}/kv.sqlite3` };
      const a = await start("a", { ...base, DATA_DIR: `${scratch}/a`, SVC_SECRET: "s".repeat(40) });
      running.push(a.child);
      assert.ok(a.serving, a.error);
      assert.deepEqual(a.child.logged("server secret checked")[0]?.verifier, "stored");

      const b = await start("b", { ...base, DATA_DIR: `${scratch}/b`, SVC_SECRET: "t".repeat(40) });
      running.push(b.child);
      assert.equal(b.serving, false);
      assert.equal((await b.child.exited()).code, 1);
      assert.match(
        b.error,
        /^SVC_SECRET differs from the secret this database was first used with/,
      );

      // No SVC_SECRET: a secret generated into its own DATA_DIR is another secret too.
      const c = await start("c", { ...base, DATA_DIR: `${scratch}/c` });
      running.push(c.child);
      assert.equal(c.serving, false);
      assert.match(
        c.error,
        new RegExp(`^SVC_SECRET is unset and the secret in ${scratch}/c/secret differs`),
      );

      // The same secret: served.
      const d = await start("d", { ...base, DATA_DIR: `${scratch}/d`, SVC_SECRET: "s".repeat(40) });
      running.push(d.child);
      assert.ok(d.serving, d.error);
      assert.deepEqual(d.child.logged("server secret checked")[0]?.verifier, "matched");
    } finally {
      await Promise.all(running.map((child) => child.kill("SIGTERM")));
      await pg.drop();
      await Deno.remove(scratch, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test(
  "server secret: the embedded database refuses a restart whose DATA_DIR/secret was replaced",
  DB_TEST,
  async () => {
    const dataDir = await Deno.makeTempDir({ prefix: "fixg-secret-" });
    try {
      const first = await start("first", { DATA_DIR: dataDir });
      assert.ok(first.serving, first.error);
      assert.equal((await first.child.kill("SIGTERM")).code, 0);
      await Deno.remove(`${dataDir}/secret`);
      const again = await start("again", { DATA_DIR: dataDir });
      assert.equal(again.serving, false);
      assert.match(again.error, /^SVC_SECRET is unset and the secret in .*\/secret differs/);
    } finally {
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
);
