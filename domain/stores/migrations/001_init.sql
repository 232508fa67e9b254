-- Workspaces, their API keys, and the points ledger.

CREATE TABLE workspaces (
  id          text PRIMARY KEY,
  name        text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 200),
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- Only a SHA-256 hash of each key is kept, with a short prefix to recognise it by.
CREATE TABLE api_keys (
  id            text PRIMARY KEY,
  workspace_id  text NOT NULL REFERENCES workspaces (id),
  key_hash      text NOT NULL UNIQUE,
  display_prefix text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz,
  revoked_at    timestamptz
);
CREATE INDEX api_keys_workspace ON api_keys (workspace_id);

-- One balance row per workspace: the current state of its accounts.
CREATE TABLE balances (
  workspace_id text PRIMARY KEY REFERENCES workspaces (id),
  available    bigint NOT NULL DEFAULT 0 CHECK (available >= 0),
  reserved     bigint NOT NULL DEFAULT 0 CHECK (reserved >= 0),
  granted      bigint NOT NULL DEFAULT 0 CHECK (granted >= 0),
  updated_at   timestamptz NOT NULL DEFAULT now()
);

-- Reservations hold points for work whose cost is known only at its end (lead-search runs).
CREATE TABLE reservations (
  id           text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id),
  amount       bigint NOT NULL CHECK (amount > 0),
  settled      bigint NOT NULL DEFAULT 0 CHECK (settled >= 0),
  state        text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'closed')),
  created_at   timestamptz NOT NULL DEFAULT now(),
  closed_at    timestamptz,
  CHECK (settled <= amount),
  CHECK ((state = 'closed') = (closed_at IS NOT NULL))
);

-- Every movement of points is a posting with the balance after it.
CREATE TABLE ledger_entries (
  id              bigserial PRIMARY KEY,
  workspace_id    text NOT NULL REFERENCES workspaces (id),
  kind            text NOT NULL CHECK (kind IN ('grant', 'charge', 'reserve', 'settle', 'release')),
  amount          bigint NOT NULL CHECK (amount >= 0),
  operation       text,
  -- The billable unit this posting pays for: unique per workspace, so a unit is charged once.
  charge_key      text,
  reservation_id  text REFERENCES reservations (id),
  available_after bigint NOT NULL CHECK (available_after >= 0),
  reserved_after  bigint NOT NULL CHECK (reserved_after >= 0),
  created_at      timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind IN ('charge', 'settle')) = (charge_key IS NOT NULL)),
  CHECK ((kind IN ('reserve', 'settle', 'release')) = (reservation_id IS NOT NULL))
);
CREATE UNIQUE INDEX ledger_one_charge_per_unit ON ledger_entries (workspace_id, charge_key)
  WHERE charge_key IS NOT NULL;
-- A reservation is reserved once and released (closed) once.
CREATE UNIQUE INDEX ledger_one_reserve_per_reservation ON ledger_entries (reservation_id)
  WHERE kind = 'reserve';
CREATE UNIQUE INDEX ledger_one_release_per_reservation ON ledger_entries (reservation_id)
  WHERE kind = 'release';
CREATE INDEX ledger_entries_workspace ON ledger_entries (workspace_id, id DESC);

-- Idempotency records: one per (workspace, Idempotency-Key), kept as a tombstone after its
-- replay window so an expired key cannot be reused. They hold a fingerprint (HMAC) of the
-- request, never the request; `response` only for routes whose answers may be stored.
CREATE TABLE idempotency_records (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  idem_key     text NOT NULL CHECK (length(idem_key) BETWEEN 1 AND 255),
  scope        text NOT NULL,
  fingerprint  text NOT NULL,
  state        text NOT NULL CHECK (state IN ('running', 'done')),
  lease_token  text,
  lease_until  timestamptz,
  response     jsonb,
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL,
  PRIMARY KEY (workspace_id, idem_key)
);
