-- Bulk rows that met greylisting wait, unanswered and uncharged, to be asked again after the mail
-- server's delay (`retry_at`), until `BULK_GREYLIST_MAX_WAIT_SECONDS` after the first deferral
-- (`first_deferred_at`); then they are answered as the lookup answers (`verification-unavailable`).
-- The job counts its waiting rows. While only waiting rows are left, the job's lease is set to
-- the earliest `retry_at`, held by no runner (token `greylist-wait`): no runner claims it before
-- then, and after a crash any runner takes it up then.
ALTER TABLE bulk_job_rows ADD COLUMN retry_at timestamptz;
ALTER TABLE bulk_job_rows ADD COLUMN first_deferred_at timestamptz;
ALTER TABLE bulk_job_rows ADD CONSTRAINT bulk_job_rows_waiting_unanswered
  CHECK (retry_at IS NULL OR page IS NULL);
ALTER TABLE bulk_jobs ADD COLUMN waiting_count integer NOT NULL DEFAULT 0
  CHECK (waiting_count >= 0);
