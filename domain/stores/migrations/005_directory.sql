-- The directory: the service's own records of companies and people, and the work emails it has
-- seen verified. Lookup keys (normal names, folded names, profile URLs, registrable domains) are
-- computed by domain/directory/normalize.ts and stored beside what was written, so every lookup
-- is an equality on an indexed column. Core Postgres only (15 and PGlite's 18), no extensions.

CREATE TABLE companies (
  id          text PRIMARY KEY DEFAULT ('co_' || replace(gen_random_uuid()::text, '-', '')),
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 300),
  aliases     text[] NOT NULL DEFAULT '{}',
  -- normalizeCompanyName(name) and of each alias: case, punctuation, diacritics, legal forms ignored.
  name_key    text NOT NULL CHECK (name_key <> ''),
  alias_keys  text[] NOT NULL DEFAULT '{}',
  -- The registrable domain (`bbc.co.uk`), lower-case ASCII; unique when set.
  domain      text UNIQUE CHECK (domain = lower(domain) AND domain LIKE '%_._%'),
  industry    text,
  headcount   text CHECK (headcount IN ('1-10', '11-50', '51-200', '201-500', '501-1000',
                                        '1001-5000', '5001-10000', '10001+')),
  location    text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
-- A company without a domain is kept once per normal name (the import upserts by it).
CREATE UNIQUE INDEX companies_one_per_name_without_domain ON companies (name_key)
  WHERE domain IS NULL;
CREATE INDEX companies_name_key ON companies (name_key);
CREATE INDEX companies_alias_keys ON companies USING gin (alias_keys);
CREATE INDEX companies_industry ON companies (lower(industry));
CREATE INDEX companies_headcount ON companies (headcount);

CREATE TABLE people (
  id          text PRIMARY KEY DEFAULT ('per_' || replace(gen_random_uuid()::text, '-', '')),
  full_name   text NOT NULL CHECK (length(full_name) BETWEEN 1 AND 300),
  given       text,
  surname     text,
  -- foldName(full_name), and foldName(given || ' ' || surname) when both are known: a name
  -- written family name first ("Nagy László") is found by either order.
  name_key    text NOT NULL CHECK (name_key <> ''),
  gs_key      text,
  title       text,
  seniority   text,
  company_id  text REFERENCES companies (id),
  location    text,
  headline    text,
  -- normalizeNetworkUrl(profile URL): https, lower case, no www., query, fragment or trailing slash.
  network_url text UNIQUE,
  keywords    text[] NOT NULL DEFAULT '{}',
  -- Contact channels a person record does not carry: {"x", "telegram", "emails": []}.
  channels    jsonb NOT NULL DEFAULT '{"x": null, "telegram": null, "emails": []}'
              CHECK (jsonb_typeof(channels) = 'object'),
  -- network_url when known, else name_key || '@' || company domain (or company normal name).
  dedupe_key  text NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  CHECK ((given IS NULL AND surname IS NULL) = (gs_key IS NULL)),
  CHECK (network_url IS NULL OR dedupe_key = network_url)
);
-- A person by name at a company (also the lead search's "people of these companies").
CREATE INDEX people_company_name ON people (company_id, name_key);
CREATE INDEX people_company_given_surname ON people (company_id, gs_key) WHERE gs_key IS NOT NULL;
-- Lead search.
CREATE INDEX people_title ON people USING gin (to_tsvector('simple'::regconfig, coalesce(title, '')));
CREATE INDEX people_location ON people (lower(location));
CREATE INDEX people_seniority ON people (seniority);
CREATE INDEX people_keywords ON people USING gin (keywords);
-- Enrich: a person by one of their associated addresses (`channels -> 'emails' ? address`).
CREATE INDEX people_channel_emails ON people USING gin ((channels -> 'emails'));

CREATE TABLE person_emails (
  person_id   text NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  address     text NOT NULL CHECK (address = lower(address) AND address LIKE '_%@_%'),
  domain      text NOT NULL GENERATED ALWAYS AS (split_part(address, '@', 2)) STORED,
  status      text NOT NULL CHECK (status IN ('valid', 'invalid', 'catch-all', 'unknown')),
  verified_at timestamptz,
  source      text,
  PRIMARY KEY (person_id, address)
);
CREATE INDEX person_emails_address ON person_emails (address);
-- The valid addresses at a domain, newest first (which local-part pattern a domain uses).
CREATE INDEX person_emails_valid_at_domain ON person_emails (domain, verified_at DESC NULLS LAST)
  WHERE status = 'valid';

-- A person as the directory answers it: company fields and emails (valid first, newest first)
-- beside the person's own. A predicate on the person's columns is pushed down to `people`.
CREATE VIEW directory_people AS
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
       ), '[]'::jsonb) AS emails
  FROM people p
  LEFT JOIN companies c ON c.id = p.company_id;
