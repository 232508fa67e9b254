-- The web app lists a workspace's newest runs (domain/lead_search/list_lead_search_runs.ts);
-- without this index that list scans every workspace's runs.
CREATE INDEX lead_search_runs_by_workspace ON lead_search_runs (workspace_id, created_at DESC);
