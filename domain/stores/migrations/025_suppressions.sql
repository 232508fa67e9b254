-- The service-wide suppression list: people who objected or asked to be erased, kept apart from
-- the workspaces' do-not-contact lists (a workspace's list is its own; this one is the
-- service's, and no workspace can take anyone off it). Only keyed fingerprints are stored
-- (domain/privacy/person_keys.ts: HMAC-SHA256 under a key derived from the server secret), never
-- an address, a URL or a name, so the list itself discloses nobody.
CREATE TABLE suppressions (
  fingerprint text PRIMARY KEY CHECK (fingerprint ~ '^[0-9a-f]{64}$'),
  kind        text NOT NULL CHECK (kind IN ('email', 'profile', 'name')),
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- Opt-out confirmation links already followed: a link is single-use. The link itself carries
-- the address sealed (domain/privacy/opt_out_token.ts), so nothing about a request is stored
-- until it is confirmed; a row here is the token's random id and when it expires.
CREATE TABLE opt_out_tokens_used (
  token_id   text PRIMARY KEY CHECK (length(token_id) BETWEEN 16 AND 64),
  used_at    timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
