-- Lead-search runs (spec §2.8, §3, §4.8) and the leads they delivered.
--
-- The database enforces the rules a read-then-write could race on:
--   * one active run (queued, processing, cancelling) per workspace: a partial unique index;
--   * a run is continued at most once: `continue_from` is unique;
--   * a lead is delivered (and billed) once per continuation chain: results are unique on
--     (chain_id, person_id), where chain_id is the id of the chain's first run;
--   * a start under an Idempotency-Key makes one run: (workspace_id, idempotency_key) is unique.
-- Runs are claimed by a runner with a lease (`lease_token`, `lease_until`); every page's
-- delivery, its settlement and the run's counters commit in one transaction checked against it.

CREATE TABLE lead_search_runs (
  id               text PRIMARY KEY CHECK (id LIKE 'run\_%'),
  workspace_id     text NOT NULL REFERENCES workspaces (id),
  status           text NOT NULL CHECK (status IN ('queued', 'processing', 'cancelling',
                                                   'completed', 'cancelled', 'failed')),
  filters          jsonb NOT NULL CHECK (jsonb_typeof(filters) = 'object'),
  count            integer NOT NULL CHECK (count BETWEEN 1 AND 1000),
  delivered_count  integer NOT NULL DEFAULT 0 CHECK (delivered_count BETWEEN 0 AND count),
  credits_charged  bigint NOT NULL DEFAULT 0 CHECK (credits_charged >= 0),
  -- The price of one lead when the run started: what its reservation was made and is settled at.
  lead_price       integer NOT NULL CHECK (lead_price >= 0),
  -- Null only when the lead price is 0 (nothing to reserve).
  reservation_id   text UNIQUE REFERENCES reservations (id),
  chain_id         text NOT NULL,
  continue_from    text UNIQUE REFERENCES lead_search_runs (id),
  idempotency_key  text,
  -- The last person id the run's search has passed (people are searched in id order).
  cursor           text,
  -- Pages delivered so far; page n is charged under `lead-search:<runId>:page:<n>`.
  pages            integer NOT NULL DEFAULT 0 CHECK (pages >= 0),
  lease_token      text,
  lease_until      timestamptz,
  failure_reason   text,
  created_at       timestamptz NOT NULL,
  started_at       timestamptz,
  finished_at      timestamptz,
  updated_at       timestamptz NOT NULL,
  CHECK ((status IN ('completed', 'cancelled', 'failed')) = (finished_at IS NOT NULL)),
  CHECK ((lease_token IS NULL) = (lease_until IS NULL)),
  CHECK (chain_id = id OR continue_from IS NOT NULL)
);
CREATE UNIQUE INDEX lead_search_one_active_run_per_workspace ON lead_search_runs (workspace_id)
  WHERE status IN ('queued', 'processing', 'cancelling');
CREATE UNIQUE INDEX lead_search_runs_idempotency_key ON lead_search_runs (workspace_id, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
-- What a runner looks for: the active runs, oldest first.
CREATE INDEX lead_search_runs_active ON lead_search_runs (created_at)
  WHERE status IN ('queued', 'processing', 'cancelling');

-- A delivered lead, as it was when delivered (directory-style: never an email, phone or channel).
CREATE TABLE lead_search_results (
  run_id       text NOT NULL REFERENCES lead_search_runs (id),
  position     integer NOT NULL CHECK (position >= 1),
  chain_id     text NOT NULL,
  person_id    text NOT NULL,
  page         integer NOT NULL CHECK (page >= 1),
  name         text NOT NULL,
  title        text,
  company      text,
  location     text,
  network_url  text,
  delivered_at timestamptz NOT NULL,
  PRIMARY KEY (run_id, position)
);
CREATE UNIQUE INDEX lead_search_results_once_per_chain ON lead_search_results (chain_id, person_id);
