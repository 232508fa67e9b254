-- The SMTP sessions open to one mail host, across every instance sharing this database
-- (`VERIFY_MAX_SESSIONS_PER_HOST`): one row per slot held, with a lease. A session takes a free
-- slot (no row, or a row whose lease has run out), holds it for its length and deletes it after;
-- the slots of an instance that was killed come back when their leases run out
-- (docs/decisions/0022-fleet-wide-session-slots.md). Host names only: no address.
-- UNLOGGED: a slot is taken and given back per SMTP session, and a WAL flush per commit made that
-- cost ~5 ms each on a server Postgres; what a database crash loses is slots that are held for
-- seconds, and a server restart empties the table, which frees them all as their leases would.
CREATE UNLOGGED TABLE verify_host_slots (
  host text NOT NULL,
  slot integer NOT NULL CHECK (slot >= 0),
  token uuid NOT NULL,
  lease_until timestamptz NOT NULL,
  PRIMARY KEY (host, slot)
);
