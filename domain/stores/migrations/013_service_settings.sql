-- Facts about the service that every instance sharing this database must agree on. The first is
-- `svc_secret_check`: an HMAC of a fixed text under the server secret (domain/stores/
-- secret_check.ts), never the secret itself. An instance whose secret gives another value refuses
-- to start: its request fingerprints would not match the other instances'.
CREATE TABLE service_settings (
  name       text PRIMARY KEY,
  value      text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
