-- The web app's create-key form carries a one-time key (as the tools' forms do): the key it made
-- records it, so the same form sent again (a reload of the answer page) creates no second key
-- (domain/auth/create_api_key.ts, createApiKeyOnce).
ALTER TABLE api_keys ADD COLUMN form_key text
  CHECK (form_key IS NULL OR length(form_key) BETWEEN 1 AND 255);
CREATE UNIQUE INDEX api_keys_form_key ON api_keys (workspace_id, form_key)
  WHERE form_key IS NOT NULL;
