-- Webhook signing secrets sealed at rest (domain/webhooks/sealed_secret.ts): AES-256-GCM under a
-- key derived from the server secret, the endpoint's id as additional data, so a database dump
-- (a backup, a replica) holds nothing that signs a delivery. Rows are written with `secret_sealed`
-- and `secret` NULL; a row written by an older instance (its secret as is) is sealed by the next
-- start, and the dispatcher signs with either until then.
ALTER TABLE webhook_endpoints ADD COLUMN secret_sealed text;
ALTER TABLE webhook_endpoints ALTER COLUMN secret DROP NOT NULL;
ALTER TABLE webhook_endpoints ADD CONSTRAINT webhook_endpoints_has_secret
  CHECK (secret IS NOT NULL OR secret_sealed IS NOT NULL);
