/**
 * `VERIFY_MAX_SESSIONS_PER_HOST` across instances: leased slots in the shared database
 * (`leased_host_session_slots.ts`). Two slot sets on one database stand for two instances; a set
 * that never gives its slots back stands for one killed with `kill -9`. Runs on PGlite, and on
 * Postgres with TEST_DATABASE_URL (the path several instances really share).
 */
import assert from "node:assert/strict";
import { migrate } from "../domain/stores/migrate.ts";
import { createLeasedHostSessionSlots } from "../domain/verify/leased_host_session_slots.ts";
import { DB_TEST, openTestDatabase } from "./harness.ts";

const never = new AbortController().signal;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test(
  "fleet slots: two instances never hold more than the limit at one host",
  DB_TEST,
  async () => {
    const db = await openTestDatabase();
    try {
      await migrate(db.sql);
      const instances = [0, 1].map(() =>
        createLeasedHostSessionSlots({ sql: db.sql, maxPerHost: 2, leaseMs: 30_000 })
      );
      let open = 0;
      let mostOpen = 0;
      const session = async (slots: typeof instances[number], host: string) => {
        const release = await slots.acquire(host, never);
        mostOpen = Math.max(mostOpen, ++open);
        await sleep(20);
        open--;
        release();
      };
      // Eight sessions from each instance at one host (its name in another case: one host).
      await Promise.all(
        instances.flatMap((slots, i) =>
          Array.from({ length: 8 }, () => session(slots, i === 0 ? "mx.a.test" : "MX.A.test"))
        ),
      );
      assert.equal(mostOpen, 2, "never more than VERIFY_MAX_SESSIONS_PER_HOST across both");
      // Each instance alone could have held two: the limit is the fleet's, not each one's.
      await sleep(50);
      const [{ n }] = await db.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM verify_host_slots WHERE lease_until > now()`;
      assert.equal(n, 0, "every slot given back");
    } finally {
      await db.drop();
    }
  },
);

Deno.test(
  "fleet slots: a killed instance's slots come back within the lease",
  DB_TEST,
  async () => {
    const db = await openTestDatabase();
    try {
      await migrate(db.sql);
      // Dead: it renews nothing.
      const killed = createLeasedHostSessionSlots({
        sql: db.sql,
        maxPerHost: 2,
        leaseMs: 800,
        renewEveryMs: 0,
      });
      const alive = createLeasedHostSessionSlots({ sql: db.sql, maxPerHost: 2, leaseMs: 800 });
      // The killed instance took both slots and will never give them back.
      await killed.acquire("mx.b.test", never);
      await killed.acquire("mx.b.test", never);
      const started = performance.now();
      const timeout = AbortSignal.timeout(300);
      await assert.rejects(alive.acquire("mx.b.test", timeout), "no slot while both are leased");
      const release = await alive.acquire("mx.b.test", AbortSignal.timeout(5_000));
      const waited = performance.now() - started;
      assert.ok(waited >= 700, `waited for the lease (${Math.round(waited)} ms)`);
      assert.ok(waited < 3_000, `not much past it (${Math.round(waited)} ms)`);
      // Another host is not held up by this one.
      (await alive.acquire("mx.c.test", AbortSignal.timeout(200)))();
      release();
    } finally {
      await db.drop();
    }
  },
);

Deno.test(
  "fleet slots: a live holder's lease is renewed while its session lasts",
  DB_TEST,
  async () => {
    const db = await openTestDatabase();
    try {
      await migrate(db.sql);
      const holder = createLeasedHostSessionSlots({ sql: db.sql, maxPerHost: 1, leaseMs: 400 });
      const other = createLeasedHostSessionSlots({ sql: db.sql, maxPerHost: 1, leaseMs: 400 });
      const release = await holder.acquire("mx.e.test", never);
      await sleep(1_000); // two and a half leases
      await assert.rejects(other.acquire("mx.e.test", AbortSignal.timeout(300)), "still held");
      release();
      (await other.acquire("mx.e.test", AbortSignal.timeout(2_000)))();
    } finally {
      await db.drop();
    }
  },
);

Deno.test(
  "fleet slots: a late release never frees a slot another instance took",
  DB_TEST,
  async () => {
    const db = await openTestDatabase();
    try {
      await migrate(db.sql);
      // A holder whose renewals stopped (a stalled process): its lease runs out while it lives.
      const slow = createLeasedHostSessionSlots({
        sql: db.sql,
        maxPerHost: 1,
        leaseMs: 200,
        renewEveryMs: 0,
      });
      const other = createLeasedHostSessionSlots({ sql: db.sql, maxPerHost: 1, leaseMs: 30_000 });
      const lateRelease = await slow.acquire("mx.d.test", never);
      await sleep(300); // the lease ran out: the slot is free for others
      const release = await other.acquire("mx.d.test", AbortSignal.timeout(2_000));
      lateRelease(); // the slow session ends after its lease: it must not free the other's slot
      await sleep(100);
      const third = createLeasedHostSessionSlots({ sql: db.sql, maxPerHost: 1, leaseMs: 30_000 });
      await assert.rejects(third.acquire("mx.d.test", AbortSignal.timeout(300)));
      release();
    } finally {
      await db.drop();
    }
  },
);

Deno.test({
  name: "fleet slots: kill -9 of a process holding slots frees them within the lease" +
    (Deno.env.get("TEST_DATABASE_URL") ? "" : " (ignored: needs TEST_DATABASE_URL)"),
  ignore: !Deno.env.get("TEST_DATABASE_URL"),
  ...DB_TEST,
  async fn() {
    const db = await openTestDatabase();
    try {
      await migrate(db.sql);
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--config", "deno.dev.json", "tests/fleet_slots_holder.ts"],
        env: { DATABASE_URL: db.url!, LEASE_MS: "1500" },
        stdout: "piped",
        stderr: "inherit",
      }).spawn();
      const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      let out = "";
      while (!out.includes("held")) {
        const { value, done } = await reader.read();
        if (done) throw new Error("the holder ended before holding its slots");
        out += value;
      }
      const alive = createLeasedHostSessionSlots({ sql: db.sql, maxPerHost: 2, leaseMs: 30_000 });
      await assert.rejects(alive.acquire("mx.killed.test", AbortSignal.timeout(300)));
      child.kill("SIGKILL");
      await child.status;
      reader.releaseLock();
      await child.stdout.cancel().catch(() => {});
      const killedAt = performance.now();
      const release = await alive.acquire("mx.killed.test", AbortSignal.timeout(10_000));
      const waited = performance.now() - killedAt;
      assert.ok(waited < 1_500 + 1_000, `a slot back within the lease (${Math.round(waited)} ms)`);
      release();
    } finally {
      await db.drop();
    }
  },
});
