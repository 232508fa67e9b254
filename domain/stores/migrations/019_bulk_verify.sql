-- Bulk jobs may verify a list of addresses (`operation` `verify`), beside find and enrich.
ALTER TABLE bulk_jobs DROP CONSTRAINT bulk_jobs_operation_check;
ALTER TABLE bulk_jobs ADD CONSTRAINT bulk_jobs_operation_check
  CHECK (operation IN ('find', 'enrich', 'verify'));
