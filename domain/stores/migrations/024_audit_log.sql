-- The audit log: one row per administrative act (keys, points, members, do-not-contact,
-- webhook endpoints, privacy erasures and opt-outs). Who (`actor_kind`, `actor_id`: a member or
-- key id; none for the CLI, the public page or the service itself), when, and what by ids and
-- counts (`subject_id`, `details`): never a secret, an API key, or an erased person's values.
--
-- Append-only: a trigger refuses every UPDATE and DELETE, and TRUNCATE, for every role (a rule
-- would silently turn them into nothing; a trigger makes the statement fail, so a mistaken
-- clean-up is seen). `workspace_id` is null for service-wide acts (an erasure, an opt-out).
CREATE TABLE audit_log (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at           timestamptz NOT NULL DEFAULT now(),
  workspace_id text,
  actor_kind   text NOT NULL CHECK (actor_kind IN ('member', 'api-key', 'cli', 'public-page',
                                                    'service')),
  actor_id     text,
  action       text NOT NULL CHECK (action ~ '^[a-z-]+(\.[a-z-]+)+$'),
  subject_id   text,
  details      jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(details) = 'object'),
  CHECK ((actor_kind IN ('member', 'api-key')) = (actor_id IS NOT NULL))
);
CREATE INDEX audit_log_by_workspace ON audit_log (workspace_id, id DESC);

CREATE FUNCTION audit_log_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % is refused', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER audit_log_no_update_or_delete
  BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_refuse_change();
CREATE TRIGGER audit_log_no_truncate
  BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_change();
