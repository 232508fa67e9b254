-- The retention period of a bulk job's rows (`BULK_RESULTS_RETENTION_DAYS`): the submitted rows
-- and their answers hold personal data, kept only for the download. An hourly sweep deletes the
-- rows of jobs that ended longer ago than the period and marks the job, which stays with its
-- counts and ledger lines, so the API can say the results expired rather than that no job exists.
ALTER TABLE bulk_jobs ADD COLUMN results_deleted_at timestamptz;
ALTER TABLE bulk_jobs ADD CONSTRAINT bulk_jobs_results_deleted_after_end
  CHECK (results_deleted_at IS NULL OR finished_at IS NOT NULL);

-- What the sweep looks for: ended jobs whose rows are still kept, oldest end first.
CREATE INDEX bulk_jobs_results_kept ON bulk_jobs (finished_at)
  WHERE finished_at IS NOT NULL AND results_deleted_at IS NULL;
