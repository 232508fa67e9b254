-- Lead search's location filter: a member matches the whole location or its part before the
-- first comma (its city), case ignored. 005's people_location indexes the first; this indexes the
-- second, so both halves of the predicate are index scans (a BitmapOr) and a location nobody has
-- is answered from the indexes instead of by reading every person.
CREATE INDEX people_location_city ON people (lower(split_part(location, ',', 1)));
