-- Bulk jobs: find or enrich for a whole list, run in the background like lead-search runs.
--
-- The worst case of every row is reserved when the job is made (in the transaction that inserts
-- it); the runner claims a job with a lease, answers a page of rows, and records the rows, the
-- page's settlement from the reservation and the job's counters in one transaction checked
-- against its lease. A page is charged under `bulk:<jobId>:page:<n>`: unique per workspace, so a
-- runner that died after its commit cannot charge the page again, and one that died before it
-- left its rows pending for the next runner. The submitted rows are kept (the work runs later);
-- only the rows that passed validation, each once (exact duplicates folded into `lines`).
CREATE TABLE bulk_jobs (
  id               text PRIMARY KEY CHECK (id LIKE 'job\_%'),
  workspace_id     text NOT NULL REFERENCES workspaces (id),
  operation        text NOT NULL CHECK (operation IN ('find', 'enrich')),
  status           text NOT NULL CHECK (status IN ('queued', 'processing', 'completed',
                                                   'cancelled', 'failed')),
  row_count        integer NOT NULL CHECK (row_count BETWEEN 1 AND 10000),
  done_count       integer NOT NULL DEFAULT 0 CHECK (done_count BETWEEN 0 AND row_count),
  found_count      integer NOT NULL DEFAULT 0 CHECK (found_count BETWEEN 0 AND done_count),
  credits_charged  bigint NOT NULL DEFAULT 0 CHECK (credits_charged >= 0),
  worst_case       bigint NOT NULL CHECK (worst_case >= 0),
  -- Rows answered with a reason, by reason: {"not-found": 3, "do-not-contact": 1}.
  refused          jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(refused) = 'object'),
  -- What validation set aside: [{"line": 4, "message": "…"}] (never the row's content), and
  -- how many rows were folded into an equal earlier row.
  invalid          jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(invalid) = 'array'),
  duplicates       integer NOT NULL DEFAULT 0 CHECK (duplicates >= 0),
  -- Null only when the worst case is 0 (nothing to reserve).
  reservation_id   text UNIQUE REFERENCES reservations (id),
  idempotency_key  text NOT NULL,
  pages            integer NOT NULL DEFAULT 0 CHECK (pages >= 0),
  lease_token      text,
  lease_until      timestamptz,
  failure_reason   text,
  created_at       timestamptz NOT NULL,
  started_at       timestamptz,
  finished_at      timestamptz,
  updated_at       timestamptz NOT NULL,
  CHECK ((status IN ('completed', 'cancelled', 'failed')) = (finished_at IS NOT NULL)),
  CHECK ((lease_token IS NULL) = (lease_until IS NULL))
);
CREATE UNIQUE INDEX bulk_jobs_idempotency_key ON bulk_jobs (workspace_id, idempotency_key);
CREATE INDEX bulk_jobs_active ON bulk_jobs (created_at) WHERE status IN ('queued', 'processing');
CREATE INDEX bulk_jobs_by_workspace ON bulk_jobs (workspace_id, created_at DESC);

CREATE TABLE bulk_job_rows (
  job_id       text NOT NULL REFERENCES bulk_jobs (id) ON DELETE CASCADE,
  position     integer NOT NULL CHECK (position >= 1),
  -- The input lines (CSV) or row numbers (JSON) this row stands for: the first and its duplicates.
  lines        integer[] NOT NULL,
  -- Rows at one mail domain are answered together (one after another on one page), so the
  -- verifier's caches of its mail hosts and catch-all verdict serve all but the first.
  group_key    text NOT NULL,
  input        jsonb NOT NULL,
  answer       jsonb,
  reason       text,
  found        boolean,
  cost         integer CHECK (cost >= 0),
  page         integer CHECK (page >= 1),
  answered_at  timestamptz,
  PRIMARY KEY (job_id, position),
  CHECK ((answer IS NULL) = (page IS NULL) AND (page IS NULL) = (cost IS NULL))
);
-- What the runner asks for next: a job's unanswered rows, a mail domain's rows together.
CREATE INDEX bulk_job_rows_pending ON bulk_job_rows (job_id, group_key, position)
  WHERE page IS NULL;

-- Webhook endpoints of a workspace (Standard Webhooks): the signing secret is needed to sign
-- every delivery, so it is kept; the API shows it once, at registration.
CREATE TABLE webhook_endpoints (
  id            text PRIMARY KEY CHECK (id LIKE 'whe\_%'),
  workspace_id  text NOT NULL REFERENCES workspaces (id),
  url           text NOT NULL CHECK (length(url) BETWEEN 1 AND 2048),
  events        text[] NOT NULL CHECK (cardinality(events) >= 1),
  secret        text NOT NULL CHECK (secret LIKE 'whsec\_%'),
  -- Set when the endpoint answered 410 Gone, or was deleted: nothing more is sent to it.
  disabled_at   timestamptz,
  disabled_why  text,
  deleted_at    timestamptz,
  created_at    timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_by_workspace ON webhook_endpoints (workspace_id, created_at DESC);

-- The durable queue of deliveries: one row per (event, endpoint), made in the transaction that
-- ended the job or run. A dispatcher claims due rows with a lease; a 2xx ends a row for good.
CREATE TABLE webhook_deliveries (
  id               text PRIMARY KEY CHECK (id LIKE 'msg\_%'),
  endpoint_id      text NOT NULL REFERENCES webhook_endpoints (id),
  workspace_id     text NOT NULL REFERENCES workspaces (id),
  event_type       text NOT NULL,
  payload          jsonb NOT NULL,
  status           text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts         integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at  timestamptz,
  last_status_code integer,
  last_error       text,
  lease_token      text,
  lease_until      timestamptz,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  delivered_at     timestamptz,
  CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL)),
  CHECK ((lease_token IS NULL) = (lease_until IS NULL))
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
  WHERE status = 'pending';
CREATE INDEX webhook_deliveries_by_workspace ON webhook_deliveries (workspace_id, created_at DESC);

-- The readable ledger finds a reservation's run or job by its reservation.
CREATE INDEX ledger_entries_reservation ON ledger_entries (reservation_id)
  WHERE reservation_id IS NOT NULL;
