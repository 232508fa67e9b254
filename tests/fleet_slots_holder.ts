/**
 * A process that takes `VERIFY_MAX_SESSIONS_PER_HOST` slots at one host on the database of
 * `DATABASE_URL` and holds them until it is killed (tests/fleet_session_slots_test.ts kills it with
 * SIGKILL). Prints "held" once it holds them.
 */
import postgres from "postgres";
import { createLeasedHostSessionSlots } from "../domain/verify/leased_host_session_slots.ts";

const sql = postgres(Deno.env.get("DATABASE_URL")!, { max: 2, onnotice: () => {} });
const slots = createLeasedHostSessionSlots({
  sql,
  maxPerHost: 2,
  leaseMs: Number(Deno.env.get("LEASE_MS")),
});
const never = new AbortController().signal;
await slots.acquire("mx.killed.test", never);
await slots.acquire("mx.killed.test", never);
console.log("held");
await new Promise(() => {}); // until killed
