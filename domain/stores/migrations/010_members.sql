-- Members of a workspace who sign in to the web app, their sessions, and what the app shows of
-- API keys (a name, when a key was last used). Passwords are kept only as argon2id PHC strings
-- (domain/members/password.ts); a session is kept only as the SHA-256 of its cookie value.

CREATE TABLE members (
  id             text PRIMARY KEY,
  workspace_id   text NOT NULL REFERENCES workspaces (id),
  -- Lower case, trimmed (domain/members/member_email.ts): one member per address.
  email          text NOT NULL UNIQUE CHECK (email = lower(email) AND email LIKE '_%@_%'),
  password_hash  text NOT NULL CHECK (password_hash LIKE '$argon2id$%'),
  created_at     timestamptz NOT NULL DEFAULT now(),
  password_set_at timestamptz NOT NULL DEFAULT now(),
  -- Set by `admin user create` and `admin user reset-password`: the member must choose a new
  -- password at the next sign-in before the app opens.
  password_is_temporary boolean NOT NULL DEFAULT true
);
CREATE INDEX members_workspace ON members (workspace_id);

CREATE TABLE sessions (
  token_hash   text PRIMARY KEY,
  member_id    text NOT NULL REFERENCES members (id) ON DELETE CASCADE,
  workspace_id text NOT NULL REFERENCES workspaces (id),
  -- Sent in every form of the session and compared on every POST.
  csrf_token   text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL
);
CREATE INDEX sessions_member ON sessions (member_id);
CREATE INDEX sessions_expiry ON sessions (expires_at);

ALTER TABLE api_keys ADD COLUMN name text CHECK (name IS NULL OR length(name) BETWEEN 1 AND 100);
-- Written at most once a minute per key (domain/auth/authenticate.ts), so a busy key costs no
-- write per request.
ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz;
