-- Keys installed from SVC_BOOTSTRAP_KEY (domain/workspaces/ensure_bootstrap_workspace.ts), told
-- apart from keys users create: a new bootstrap key revokes the previous bootstrap keys of its
-- workspace, never the others.
ALTER TABLE api_keys ADD COLUMN bootstrap boolean NOT NULL DEFAULT false;
