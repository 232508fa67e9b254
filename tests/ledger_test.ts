import assert from "node:assert/strict";
import { createCharger } from "../domain/billing/charge_units.ts";
import { readBalance } from "../domain/billing/balance.ts";
import { grantPoints } from "../domain/billing/grant_points.ts";
import { reservePoints } from "../domain/billing/reserve_points.ts";
import { settleReservationAlone } from "../domain/billing/settle_reservation.ts";
import { releaseReservation } from "../domain/billing/release_reservation.ts";
import { openDatabase, type TransactionSql } from "../domain/stores/database.ts";
import { migrate } from "../domain/stores/migrate.ts";
import { createWorkspace } from "../domain/workspaces/create_workspace.ts";
import { DB_TEST, openTestDatabase } from "./harness.ts";

async function invariants(sql: import("../domain/stores/database.ts").Sql, workspaceId: string) {
  const [row] = await sql<{ charged: string; granted: string; n: string }[]>`
    SELECT COALESCE(SUM(amount) FILTER (WHERE kind IN ('charge', 'settle')), 0) AS charged,
           COALESCE(SUM(amount) FILTER (WHERE kind = 'grant'), 0) AS granted,
           COUNT(*) FILTER (WHERE kind = 'charge') AS n
      FROM ledger_entries WHERE workspace_id = ${workspaceId}`;
  const negative = await sql`SELECT 1 FROM ledger_entries
                              WHERE workspace_id = ${workspaceId} AND available_after < 0`;
  assert.equal(negative.length, 0, "no posting ever leaves available negative");
  return { charged: Number(row.charged), granted: Number(row.granted), charges: Number(row.n) };
}

/** A fresh migrated database with one workspace holding `points`, dropped afterwards. */
async function withWorkspace(
  name: string,
  points: number,
  fn: (
    db: Awaited<ReturnType<typeof openTestDatabase>>,
    workspaceId: string,
  ) => Promise<void>,
): Promise<void> {
  const db = await openTestDatabase();
  try {
    await migrate(db.sql);
    const ws = await createWorkspace({ db }, { name, points });
    await fn(db, ws.workspaceId);
  } finally {
    await db.drop();
  }
}

/** Sends the same charge `times` times at once; counts the outcomes. */
async function chargeConcurrently(
  charge: ReturnType<typeof createCharger>,
  request: Parameters<ReturnType<typeof createCharger>>[0][number],
  times: number,
): Promise<{ charged: number; duplicate: number }> {
  const results = (await Promise.all(Array.from({ length: times }, () => charge([request]))))
    .flat();
  return {
    charged: results.filter((r) => r.outcome === "charged").length,
    duplicate: results.filter((r) => r.outcome === "duplicate").length,
  };
}

Deno.test(
  "ledger: 50 concurrent charges from two processes against 20 points",
  DB_TEST,
  async () => {
    const db = await openTestDatabase();
    // A second, independent client of the same database stands in for a second process.
    const other = db.url ? await openDatabase({ url: db.url }) : db; // PGlite: one process owns it; concurrency comes from the pooled socket connections
    try {
      await migrate(db.sql);
      const ws = await createWorkspace({ db }, { name: "small", points: 20 });
      const chargers = [createCharger(db.sql), createCharger(other.sql)];
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          chargers[i % 2]([{
            workspaceId: ws.workspaceId,
            amount: 1,
            chargeKey: `unit-${i}`,
            operation: "nameParse",
          }]).then((r) => r[0])),
      );
      const charged = results.filter((r) => r.outcome === "charged").length;
      assert.equal(charged, 20);
      assert.equal(results.filter((r) => r.outcome === "insufficient").length, 30);
      assert.ok(results.every((r) => r.balance.available >= 0));
      assert.deepEqual(await readBalance({ db }, ws.workspaceId), {
        available: 0,
        reserved: 0,
        granted: 20,
      });
      assert.deepEqual(await invariants(db.sql, ws.workspaceId), {
        charged: 20,
        granted: 20,
        charges: 20,
      });
    } finally {
      if (other !== db) await other.close();
      await db.drop();
    }
  },
);

Deno.test(
  "ledger: one billable unit is charged once, however often it is retried",
  DB_TEST,
  async () => {
    await withWorkspace("dupes", 100, async (db, workspaceId) => {
      const charge = createCharger(db.sql);
      const same = {
        workspaceId,
        amount: 3,
        chargeKey: "k:abc:0",
        operation: "nameParse",
      };
      assert.deepEqual(await chargeConcurrently(charge, same, 25), { charged: 1, duplicate: 24 });
      assert.equal((await readBalance({ db }, workspaceId)).available, 97);
      // The database itself refuses a second posting for the unit and a negative balance.
      await assert.rejects(() =>
        db.sql`INSERT INTO ledger_entries (workspace_id, kind, amount, charge_key, available_after, reserved_after)
             VALUES (${workspaceId}, 'charge', 1, 'k:abc:0', 0, 0)`
      );
      await assert.rejects(() =>
        db.sql`UPDATE balances SET available = available - 1000 WHERE workspace_id = ${workspaceId}`
      );
      // The same key in another workspace is another unit.
      const ws2 = await createWorkspace({ db }, { name: "dupes-2", points: 5 });
      const [r] = await charge([{ ...same, workspaceId: ws2.workspaceId }]);
      assert.equal(r.outcome, "charged");
    });
  },
);

Deno.test(
  "ledger: one posting may pay for a fixed group of units, charged once as a whole",
  DB_TEST,
  async () => {
    await withWorkspace("groups", 50, async (db, workspaceId) => {
      const charge = createCharger(db.sql);
      const chunk = {
        workspaceId,
        amount: 20,
        units: 20,
        chargeKey: "batch:k:rows:0-19",
        operation: "nameParse",
      };
      assert.deepEqual(await chargeConcurrently(charge, chunk, 10), { charged: 1, duplicate: 9 });
      const [row] = await db.sql<{ units: number; amount: string }[]>`
        SELECT units, amount FROM ledger_entries
         WHERE workspace_id = ${workspaceId} AND kind = 'charge'`;
      assert.deepEqual({ units: row.units, amount: Number(row.amount) }, { units: 20, amount: 20 });
      // A group the balance cannot pay is refused whole: nothing moves.
      const [big] = await charge([{ ...chunk, amount: 40, units: 40, chargeKey: "batch:k:big" }]);
      assert.equal(big.outcome, "insufficient");
      assert.equal((await readBalance({ db }, workspaceId)).available, 30);
      await assert.rejects(() => charge([{ ...chunk, units: 0, chargeKey: "batch:k:zero" }]));
      await assert.rejects(() =>
        db.sql`INSERT INTO ledger_entries (workspace_id, kind, amount, units, available_after, reserved_after)
             VALUES (${workspaceId}, 'grant', 5, 2, 35, 0)`
      );
    });
  },
);

Deno.test(
  "ledger: key-less (pooled) charges share postings, each unit paid once, never past the balance",
  DB_TEST,
  async () => {
    await withWorkspace("pooled", 45, async (db, workspaceId) => {
      const charge = createCharger(db.sql, { maxInFlight: 1 });
      const unit = (i: number) => ({
        workspaceId,
        amount: 1,
        chargeKey: `name.parse.anonymous:${crypto.randomUUID()}:${i}`,
        operation: "nameParse",
        pooled: true,
      });
      // Two rounds of 30 concurrent calls: the first is paid whole; the second cannot be, so its
      // units are charged one by one until the balance is spent.
      const round = async () =>
        (await Promise.all(Array.from({ length: 30 }, (_, i) => charge([unit(i)])))).flat();
      const first = await round();
      assert.ok(first.every((r) => r.outcome === "charged"));
      const second = await round();
      assert.ok(second.every((r) => r.balance.available >= 0));
      assert.equal(second.filter((r) => r.outcome === "charged").length, 15);
      assert.equal(second.filter((r) => r.outcome === "insufficient").length, 15);
      assert.deepEqual(await readBalance({ db }, workspaceId), {
        available: 0,
        reserved: 0,
        granted: 45,
      });
      const [row] = await db.sql<{ units: number; postings: number }[]>`
        SELECT sum(units)::int AS units, count(*)::int AS postings FROM ledger_entries
         WHERE workspace_id = ${workspaceId} AND kind = 'charge'`;
      assert.equal(row.units, 45, "one unit per charged call");
      assert.ok(row.postings < 45, `calls waiting together share a posting (${row.postings})`);
      assert.equal((await invariants(db.sql, workspaceId)).charged, 45);
    });
  },
);

Deno.test("ledger: reserve, settle part, release the rest once", DB_TEST, async () => {
  await withWorkspace("runs", 50, async (db, workspaceId) => {
    assert.equal(
      await reservePoints({ db }, { workspaceId, amount: 60, operation: "lead" }),
      null,
    );
    const held = await reservePoints({ db }, {
      workspaceId,
      amount: 40,
      operation: "lead",
    });
    assert.ok(held);
    assert.deepEqual(held.balance, { available: 10, reserved: 40, granted: 50 });
    const page = {
      workspaceId,
      reservationId: held.reservationId,
      amount: 15,
      operation: "lead",
    };
    assert.equal(
      (await settleReservationAlone({ db }, { ...page, chargeKey: "run1:p1" })).outcome,
      "settled",
    );
    assert.equal(
      (await settleReservationAlone({ db }, { ...page, chargeKey: "run1:p1" })).outcome,
      "duplicate",
    );
    assert.equal(
      (await settleReservationAlone({ db }, { ...page, amount: 30, chargeKey: "run1:p2" })).outcome,
      "exceeds_reservation",
    );
    const releases = await Promise.all(
      [1, 2, 3].map(() =>
        db.sql.begin((tx) =>
          releaseReservation({ tx }, {
            workspaceId,
            reservationId: held.reservationId,
            operation: "lead",
          })
        )
      ),
    );
    const done = releases.filter((r) => r !== null);
    assert.equal(done.length, 1, "released once");
    assert.equal(done[0]!.released, 25);
    assert.deepEqual(await readBalance({ db }, workspaceId), {
      available: 35,
      reserved: 0,
      granted: 50,
    });
    assert.equal(
      (await settleReservationAlone({ db }, { ...page, chargeKey: "run1:p3" })).outcome,
      "closed",
    );
    await grantPoints({ db }, { workspaceId, points: 5 });
    assert.deepEqual(await readBalance({ db }, workspaceId), {
      available: 40,
      reserved: 0,
      granted: 55,
    });
  });
});

Deno.test(
  "ledger: a charge reads the ledger by key, never by scanning it, even with no planner statistics",
  DB_TEST,
  async () => {
    // A fresh database has no statistics until autovacuum (if it runs at all) analyzes it. The
    // planner then guessed a hashed subplan that scanned every ledger posting on each charge, so
    // charges slowed down as the ledger grew. Counting this transaction's table scans pins it.
    await withWorkspace("scan-free", 1_000_000, async (db, workspaceId) => {
      const charge = createCharger(db.sql);
      for (let round = 0; round < 10; round++) {
        await charge(Array.from({ length: 50 }, (_, i) => ({
          workspaceId,
          amount: 1,
          chargeKey: `fill-${round}-${i}`,
          operation: "nameParse",
        })));
      }
      // The counters read here may include earlier transactions' counts not yet flushed, so
      // the charge's own scans are the difference across it, inside one transaction.
      const seqScans = (tx: TransactionSql) =>
        tx<{ relname: string; seq_scan: string }[]>`
          SELECT relname, seq_scan FROM pg_stat_xact_user_tables
           WHERE relname IN ('ledger_entries', 'balances', 'idempotency_records')`;
      const scanned = await db.sql.begin(async (tx) => {
        const before = new Map((await seqScans(tx)).map((row) => [row.relname, row.seq_scan]));
        // 5 units charged before, 14 new ones, and one under an idempotency key nobody holds.
        const items = Array.from({ length: 20 }, (_, i) => ({
          w: workspaceId,
          a: 1,
          k: i < 5 ? `fill-0-${i}` : `probe-${i}`,
          o: "nameParse",
          ...(i === 19 ? { i: "no-such-key", t: "no-such-lease" } : {}),
        }));
        const outcomes = await tx<{ outcome: string }[]>`
          SELECT outcome FROM ledger_charge_many(${tx.json(items as never)}::jsonb) ORDER BY idx`;
        const scans = (await seqScans(tx))
          .filter((row) => Number(row.seq_scan) > Number(before.get(row.relname) ?? 0))
          .map((row) => row.relname);
        return { outcomes: outcomes.map((row) => row.outcome), scans };
      });
      assert.deepEqual(scanned.scans, []);
      assert.deepEqual(scanned.outcomes, [
        ...Array(5).fill("duplicate"),
        ...Array(14).fill("charged"),
        "lease_lost",
      ]);
    });
  },
);
