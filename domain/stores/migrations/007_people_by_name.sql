-- Network search finds people by name alone (any company): the folded full name and the folded
-- given name + surname, each indexed on its own (005's indexes lead with the company).
CREATE INDEX people_name_key ON people (name_key);
CREATE INDEX people_gs_key ON people (gs_key);
