-- ledger_charge_many, as in 003, reading by key only. With no planner statistics (a new
-- database, or autovacuum off) and the default estimate of 100 items per call, the planner chose
-- a hashed subplan that scanned every ledger posting on each call, so charges slowed down as the
-- ledger grew (measured on Postgres 15: a one-item call took 22 ms at 16k postings, 0.9 ms once
-- the tables were analyzed). Each item's earlier posting and idempotency record are now looked
-- up by key, and the function plans no table scan and no hash or merge join.
CREATE OR REPLACE FUNCTION ledger_charge_many(p_items jsonb)
RETURNS TABLE (idx int, outcome text, available bigint, reserved bigint, granted bigint)
LANGUAGE plpgsql
-- Joins by key too, whatever the statistics say (a new database has none until it is analyzed).
SET enable_seqscan = off
SET enable_hashjoin = off
SET enable_mergejoin = off
AS $$
BEGIN
  -- Lock every balance row involved, in a fixed order. The statement below then reads with a
  -- fresh snapshot, so it sees every charge committed before the lock was granted.
  PERFORM 1 FROM balances b
   WHERE b.workspace_id IN (SELECT DISTINCT x->>'w' FROM jsonb_array_elements(p_items) x)
   ORDER BY b.workspace_id FOR UPDATE;

  RETURN QUERY
  WITH items AS (
    SELECT (e.ord - 1)::int AS idx, e.x->>'w' AS w, (e.x->>'a')::bigint AS a, e.x->>'k' AS k,
           COALESCE((e.x->>'u')::int, 1) AS u, e.x->>'o' AS o, e.x->>'i' AS i, e.x->>'t' AS t,
           COALESCE((e.x->>'d')::boolean, false) AS d, e.x->'r' AS r
      FROM jsonb_array_elements(p_items) WITH ORDINALITY AS e(x, ord)
  ), flagged AS (
    SELECT it.*,
           CASE
             WHEN it.i IS NOT NULL AND held.lease IS NULL THEN 'lease_lost'
             WHEN earlier.posting IS NOT NULL THEN 'duplicate'
             WHEN row_number() OVER (PARTITION BY it.w, it.k ORDER BY it.idx) > 1 THEN 'duplicate'
             ELSE 'candidate'
           END AS status
      FROM items it
      -- Lookups by key, one per item. LATERAL with LIMIT keeps them nested (a plain EXISTS let
      -- the planner hash the whole ledger instead).
      LEFT JOIN LATERAL (
        SELECT true AS lease FROM idempotency_records rec
         WHERE it.i IS NOT NULL AND rec.workspace_id = it.w AND rec.idem_key = it.i
           AND rec.state = 'running' AND rec.lease_token IS NOT DISTINCT FROM it.t
         LIMIT 1) held ON true
      LEFT JOIN LATERAL (
        SELECT true AS posting FROM ledger_entries le
         WHERE le.workspace_id = it.w AND le.charge_key = it.k
         LIMIT 1) earlier ON true
  ), running AS (
    SELECT f.*, bal.available AS start_available, bal.reserved AS start_reserved,
           bal.granted AS start_granted,
           SUM(CASE WHEN f.status = 'candidate' THEN f.a ELSE 0 END)
             OVER (PARTITION BY f.w ORDER BY f.idx) AS cum
      FROM flagged f LEFT JOIN balances bal ON bal.workspace_id = f.w
  ), decided AS (
    SELECT rn.*,
           CASE WHEN rn.status <> 'candidate' THEN rn.status
                WHEN rn.cum <= rn.start_available THEN 'charged'
                ELSE 'insufficient' END AS result
      FROM running rn
  ), inserted AS (
    INSERT INTO ledger_entries
      (workspace_id, kind, amount, units, operation, charge_key, available_after, reserved_after)
    SELECT dc.w, 'charge', dc.a, dc.u, dc.o, dc.k, dc.start_available - dc.cum, dc.start_reserved
      FROM decided dc WHERE dc.result = 'charged' ORDER BY dc.idx
    RETURNING 1
  ), updated AS (
    UPDATE balances bal SET available = bal.available - s.total, updated_at = now()
      FROM (SELECT dc.w, SUM(dc.a) AS total FROM decided dc WHERE dc.result = 'charged'
             GROUP BY dc.w) s
     WHERE bal.workspace_id = s.w
    RETURNING bal.workspace_id, bal.available, bal.reserved, bal.granted
  ), completed AS (
    UPDATE idempotency_records rec
       SET state = 'done', response = c.r, lease_token = NULL, lease_until = NULL
      FROM (SELECT DISTINCT ON (dc.w, dc.i) dc.w, dc.i, dc.r FROM decided dc
             WHERE dc.d AND dc.i IS NOT NULL AND dc.result IN ('charged', 'duplicate')
             ORDER BY dc.w, dc.i, dc.idx) c
     WHERE rec.workspace_id = c.w AND rec.idem_key = c.i
    RETURNING 1
  )
  SELECT dc.idx, dc.result,
         COALESCE(u.available, dc.start_available), COALESCE(u.reserved, dc.start_reserved),
         COALESCE(u.granted, dc.start_granted)
    FROM decided dc LEFT JOIN updated u ON u.workspace_id = dc.w
   ORDER BY dc.idx;
END;
$$;
