-- Enrich writes the fields a person's record lacks back to it, with the source that stated each
-- one and when: `field_sources` maps a field (`title`, `networkUrl`, `channels.x`, …) to
-- {"source", "url", "at"}; a field without an entry is the directory's own (imported or learned).
-- `enriched_at` is when every source was last consulted for this person: until it is older than
-- ENRICH_MAX_AGE_DAYS, enrich answers from the record alone without asking the providers again.
ALTER TABLE people
  ADD COLUMN field_sources jsonb NOT NULL DEFAULT '{}'::jsonb
    CHECK (jsonb_typeof(field_sources) = 'object'),
  ADD COLUMN enriched_at timestamptz;

-- The view answers the new columns too (appended: a view's existing columns keep their places).
CREATE OR REPLACE VIEW directory_people AS
SELECT p.id, p.full_name, p.given, p.surname, p.name_key, p.gs_key, p.title, p.seniority,
       p.headline, p.location, p.network_url, p.keywords, p.channels, p.company_id,
       p.created_at, p.updated_at,
       c.name AS company_name, c.domain AS company_domain, c.industry AS company_industry,
       c.headcount AS company_headcount, c.location AS company_location,
       COALESCE((
         SELECT jsonb_agg(jsonb_build_object(
                  'address', e.address,
                  'status', e.status,
                  'verifiedAt', to_char(e.verified_at AT TIME ZONE 'UTC',
                                        'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
                ORDER BY (e.status = 'valid') DESC, e.verified_at DESC NULLS LAST, e.address)
           FROM person_emails e
          WHERE e.person_id = p.id
       ), '[]'::jsonb) AS emails,
       p.field_sources, p.enriched_at
  FROM people p
  LEFT JOIN companies c ON c.id = p.company_id;
