-- Domain search: a company's people by department and seniority, in pages, and their counts.
--
-- `department` is read from the title by the rules below, first match wins, so every writer of a
-- title (the import, find's write-back, enrich) gets it without knowing of it, and an old row
-- gets it when the column is added. The words are those of the demo directory's functions and
-- their common synonyms; the values are the vocabulary of domain/directory/person_vocabulary.ts
-- (tests/domain_search_test.ts checks both agree on every demo title).
ALTER TABLE people ADD COLUMN department text GENERATED ALWAYS AS (
  CASE
    WHEN title ~* '\m(customer|client success|client services|support)\M' THEN 'customer-success'
    WHEN title ~* '\m(legal|counsel|lawyer|attorney|paralegal|compliance)\M' THEN 'legal'
    WHEN title ~* '\m(recruit\w*|talent|people|human resources|hr)\M' THEN 'people'
    WHEN title ~* '\m(financ\w*|accountant|accounting|controller|treasur\w*|cfo)\M' THEN 'finance'
    WHEN title ~* '\m(design\w*|ux|ui)\M' THEN 'design'
    WHEN title ~* '\m(data|analytics|machine learning|statistic\w*)\M' THEN 'data'
    WHEN title ~* '\mproduct\M' THEN 'product'
    WHEN title ~* '\m(marketing|brand|growth|seo|content|communications|cmo)\M' THEN 'marketing'
    WHEN title ~* '\m(sales|account executive|revenue|business development|cro)\M' THEN 'sales'
    WHEN title ~* '\m(engineer\w*|developer|software|technology|technical|devops|cto)\M'
      THEN 'engineering'
    WHEN title ~* '\m(operations|operating|logistics|supply chain|procurement|coo)\M'
      THEN 'operations'
    WHEN title ~* '\m(ceo|founder|owner|president|managing director|chief executive)\M'
      THEN 'executive'
  END
) STORED;

-- A page of a company's people in id order after a cursor (keyset paging).
CREATE INDEX people_company_id ON people (company_id, id);
-- The count by department and seniority, and the filters on them: an index-only scan of the
-- company's entries (the id is there so that leaving people out needs no visit to the table).
CREATE INDEX people_company_department_seniority
  ON people (company_id, department, seniority, id);
-- People whose address is at a domain on a workspace's do-not-contact list (any status; the
-- index of 005 holds only valid addresses).
CREATE INDEX person_emails_domain ON person_emails (domain);
