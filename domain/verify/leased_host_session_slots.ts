/**
 * `VERIFY_MAX_SESSIONS_PER_HOST` across every instance sharing one Postgres: each SMTP session
 * holds a leased row of `verify_host_slots` (host, slot number below the limit). A session takes a
 * free slot in one statement (an `INSERT … ON CONFLICT DO UPDATE … WHERE` the old lease ran out:
 * two instances racing for one slot, the second's update finds the lease alive and takes none),
 * and deletes its row when it ends. A lease is short (`SLOT_LEASE_MS`, 6 s) and renewed every
 * third of it while the session lasts, so an instance killed while holding slots gives them back
 * within a lease: soon enough that the lookups of an instance restarted in its place do not run
 * out of time waiting for them. Times are the database's (`now()`), so the instances' clocks need
 * not agree.
 *
 * In front of the database, the process keeps its own limit (`createHostSessionSlots`): a process
 * never asks for more slots than the fleet has, and its lookups queue in memory rather than
 * polling. A lookup that finds every slot taken by other instances polls (25 ms growing to
 * 250 ms, jittered) until one frees or its own deadline runs out (then it answers `unavailable`,
 * uncharged, as with the per-process limit). Why leases in Postgres and not a KV counter:
 * docs/decisions/0022-fleet-wide-session-slots.md.
 *
 * A database that cannot be asked while taking a slot leaves the process's own limit in force for
 * that session (the lookup goes on; politeness falls back to what one process can keep). A failed
 * delete is left to the lease.
 */
import type { Sql } from "../stores/database.ts";
import { createHostSessionSlots, type HostSessionSlots } from "./host_session_slots.ts";

export interface LeasedSlotsOptions {
  sql: Sql;
  maxPerHost: number;
  /** How long a slot is held at most without being renewed or given back (a killed instance's). */
  leaseMs: number;
  /** How often a held slot's lease is renewed (default a third of it; 0: never, tests). */
  renewEveryMs?: number;
}

/** The lease of a slot: a killed instance's slots come back within it. */
export const SLOT_LEASE_MS = 6_000;

export function createLeasedHostSessionSlots(options: LeasedSlotsOptions): HostSessionSlots {
  const { sql, maxPerHost } = options;
  const local = createHostSessionSlots(maxPerHost);
  const leaseSeconds = options.leaseMs / 1000;

  async function claim(host: string, token: string): Promise<number | null> {
    const rows = await sql<{ slot: number }[]>`
      WITH free AS (
        SELECT s FROM generate_series(0, ${maxPerHost - 1}::int) AS s
         WHERE NOT EXISTS (
           SELECT 1 FROM verify_host_slots h
            WHERE h.host = ${host} AND h.slot = s AND h.lease_until > now())
         ORDER BY random()
         LIMIT 1)
      INSERT INTO verify_host_slots (host, slot, token, lease_until)
      SELECT ${host}, s, ${token}::uuid, now() + make_interval(secs => ${leaseSeconds}::float8)
        FROM free
      ON CONFLICT (host, slot) DO UPDATE
        SET token = excluded.token, lease_until = excluded.lease_until
        WHERE verify_host_slots.lease_until <= now()
      RETURNING slot`;
    return rows[0]?.slot ?? null;
  }

  return {
    async acquire(host, signal) {
      const key = host.toLowerCase();
      const releaseLocal = await local.acquire(key, signal);
      const token = crypto.randomUUID();
      try {
        for (let attempt = 0;; attempt++) {
          if (signal.aborted) throw signal.reason;
          let slot: number | null;
          try {
            slot = await claim(key, token);
          } catch {
            return releaseLocal;
          }
          if (slot !== null) {
            let released = false;
            const renewEvery = options.renewEveryMs ?? options.leaseMs / 3;
            const renewal = renewEvery > 0
              ? setInterval(() => {
                sql`UPDATE verify_host_slots
                       SET lease_until = now() + make_interval(secs => ${leaseSeconds}::float8)
                     WHERE host = ${key} AND slot = ${slot} AND token = ${token}::uuid`
                  .catch(() => {}); // the next renewal tries again; past the lease, it is lost
              }, renewEvery)
              : undefined;
            return () => {
              if (released) return;
              released = true;
              clearInterval(renewal);
              sql`DELETE FROM verify_host_slots
                   WHERE host = ${key} AND slot = ${slot} AND token = ${token}::uuid`
                .catch(() => {}) // the lease runs out instead
                .finally(releaseLocal);
            };
          }
          const wait = Math.min(250, 25 * 2 ** Math.min(attempt, 4)) * (0.5 + Math.random());
          await sleep(wait, signal);
        }
      } catch (error) {
        releaseLocal();
        throw error;
      }
    },
    active(host) {
      return local.active(host);
    },
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
