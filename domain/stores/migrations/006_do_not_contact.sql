-- The per-workspace do-not-contact list: addresses and domains a workspace's lookups must refuse
-- before any work (spec: enrich email). Values are stored in the normal form of
-- domain/do_not_contact/do_not_contact_entry.ts: lower case, domains in ASCII (IDN as punycode)
-- without a trailing dot. A domain entry covers that domain and every host beneath it
-- (`acme.com` covers `bob@mail.acme.com`). No free text is kept. Core Postgres only (15 and
-- PGlite's 18), no extensions.

CREATE TABLE do_not_contact (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  kind         text NOT NULL CHECK (kind IN ('email', 'domain')),
  value        text NOT NULL CHECK (value = lower(value) AND length(value) BETWEEN 3 AND 254),
  created_at   timestamptz NOT NULL DEFAULT now(),
  -- The primary key is also the check's index: an equality on (workspace, kind) and the value
  -- being one of the address's keys (the address, its domain and each parent domain).
  PRIMARY KEY (workspace_id, kind, value),
  CHECK (CASE kind
    WHEN 'email' THEN value LIKE '_%@_%._%'
    ELSE value NOT LIKE '%@%' AND value LIKE '_%._%' AND value NOT LIKE '%.'
  END)
);
