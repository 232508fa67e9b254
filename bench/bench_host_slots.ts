/**
 * `deno task bench:slots`: what a fleet-wide session slot costs a lookup. Takes and gives back one
 * slot of `VERIFY_MAX_SESSIONS_PER_HOST` (a lookup takes one per SMTP session, most take one or
 * two) `BENCH_SLOTS` times (default 2,000), one after another and 16 at once over 8 hosts: the
 * per-process slots (memory), then the leased slots on a new database of the Postgres server
 * `TEST_DATABASE_URL` names (else embedded PGlite, for comparison only: the service leases slots
 * only on a server Postgres). Prints µs per slot, taken and given back.
 */
import { migrate } from "../domain/stores/migrate.ts";
import { createHostSessionSlots } from "../domain/verify/host_session_slots.ts";
import { createLeasedHostSessionSlots } from "../domain/verify/leased_host_session_slots.ts";
import type { HostSessionSlots } from "../domain/verify/host_session_slots.ts";
import { openTestDatabase } from "../tests/harness.ts";

const N = Number(Deno.env.get("BENCH_SLOTS") ?? 2_000);
const never = new AbortController().signal;

async function measure(name: string, slots: HostSessionSlots, settle: () => Promise<void>) {
  let started = performance.now();
  for (let i = 0; i < N; i++) (await slots.acquire("mx.bench.test", never))();
  await settle();
  const serial = (performance.now() - started) * 1000 / N;
  started = performance.now();
  await Promise.all(Array.from({ length: 16 }, async (_, worker) => {
    for (let i = 0; i < N / 16; i++) {
      (await slots.acquire(`mx${worker % 8}.bench.test`, never))();
    }
  }));
  await settle();
  const concurrent = (performance.now() - started) * 1000 / N;
  console.log(
    `${name.padEnd(28)} one at a time: ${serial.toFixed(1).padStart(8)} µs/slot   ` +
      `16 at once over 8 hosts: ${concurrent.toFixed(1).padStart(8)} µs/slot`,
  );
}

await measure("per process (memory)", createHostSessionSlots(2), () => Promise.resolve());
const db = await openTestDatabase();
try {
  await migrate(db.sql);
  // The delete of a given-back slot runs in the background: wait for the table to empty.
  const settle = async () => {
    while ((await db.sql`SELECT 1 FROM verify_host_slots LIMIT 1`).length > 0) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  await measure(
    `leased (${db.kind})`,
    createLeasedHostSessionSlots({ sql: db.sql, maxPerHost: 2, leaseMs: 60_000 }),
    settle,
  );
} finally {
  await db.drop();
}
