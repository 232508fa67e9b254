/**
 * The overview page (`/app`): the balance, the chart of points spent per day and operation over
 * the last 30 days (its bars are the ledger's charge and settle postings, nothing else, nothing
 * of another workspace, nothing older than the window), the recent ledger lines (one per call or
 * reservation, with what it cost in the end), and their empty states. The chart's query reads only the window on a new database.
 */
import assert from "node:assert/strict";
import { reservePoints } from "../domain/billing/reserve_points.ts";
import { settleReservationAlone } from "../domain/billing/settle_reservation.ts";
import { releaseReservation } from "../domain/billing/release_reservation.ts";
import { spendingByDay } from "../domain/billing/spending_by_day.ts";
import type { Sql } from "../domain/stores/database.ts";
import { bearer, createTestEnv, createTestWorkspace, DB_TEST, type TestEnv } from "./harness.ts";
import { signedInMember } from "./web_client.ts";
import { explaining } from "./explaining_sql.ts";

/** The chart's segments as drawn: `day|operation` → points. */
function bars(html: string): Map<string, number> {
  const drawn = new Map<string, number>();
  const series = /<g class="spend-series" fill="[^"]+" data-operation="([^"]+)">(.*?)<\/g>/gs;
  for (const [, operation, rects] of html.matchAll(series)) {
    for (const [, day, points] of rects.matchAll(/data-day="([^"]+)" data-points="(\d+)"/g)) {
      const key = `${day}|${operation}`;
      drawn.set(key, (drawn.get(key) ?? 0) + Number(points));
    }
  }
  return drawn;
}

function utcDay(msAgo: number, now = Date.now()): string {
  return new Date(now - msAgo).toISOString().slice(0, 10);
}

const DAY = 86_400_000;

let keys = 0;
/** One charge posting of `amount` for `operation`, stamped `daysAgo` days back. */
async function chargeOn(
  env: TestEnv,
  workspaceId: string,
  operation: string,
  amount: number,
  daysAgo: number,
): Promise<void> {
  const chargeKey = `test-charge-${++keys}`;
  const [result] = await env.ctx.charge([{ workspaceId, amount, chargeKey, operation }]);
  assert.equal(result.outcome, "charged");
  await env.db.sql`UPDATE ledger_entries SET created_at = now() - ${`${daysAgo} days`}::interval
                    WHERE workspace_id = ${workspaceId} AND charge_key = ${chargeKey}`;
}

Deno.test("overview: empty states for a workspace that has nothing", DB_TEST, async () => {
  const env = await createTestEnv();
  try {
    const ws = await createTestWorkspace(env, 0);
    const member = await signedInMember(env, ws.workspaceId);
    const page = await member.get("/app");
    assert.equal(page.status, 200);
    assert.match(page.text, /Nothing spent in the last 30 days/);
    assert.match(page.text, /No ledger entries yet/);
    assert.doesNotMatch(page.text, /<svg/);

    // Points granted but nothing spent: the grant is listed, the chart is still empty.
    const granted = await createTestWorkspace(env, 640);
    const other = await signedInMember(env, granted.workspaceId);
    const grantedPage = await other.get("/app");
    assert.match(grantedPage.text, /Nothing spent in the last 30 days/);
    assert.doesNotMatch(grantedPage.text, /No ledger entries yet/);
    assert.match(grantedPage.text, /<tr data-kind="grant" data-net="640">/);
    assert.match(grantedPage.text, /\+640/);
  } finally {
    await env.close();
  }
});

Deno.test(
  "overview: the balance, and a chart whose bars are the charges and settlements by day",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      const ws = await createTestWorkspace(env, 5000);
      const stranger = await createTestWorkspace(env, 5000);
      // In posting order, oldest first, as the ledger writes them.
      await chargeOn(env, ws.workspaceId, "findEmail", 10, 45); // before the window
      await chargeOn(env, ws.workspaceId, "findEmail", 10, 29); // the window's first day
      await chargeOn(env, ws.workspaceId, "findCompany", 2, 29);
      await chargeOn(env, ws.workspaceId, "enrich", 10, 6);
      await chargeOn(env, ws.workspaceId, "enrich", 10, 6);
      await chargeOn(env, ws.workspaceId, "networkSearch", 5, 6);
      await chargeOn(env, stranger.workspaceId, "enrich", 10, 0);

      // A lead-search run: reserve (not spending), two pages settled, the rest released.
      const reservation = await reservePoints(env, {
        workspaceId: ws.workspaceId,
        amount: 100,
        operation: "lead",
      });
      assert.ok(reservation);
      for (const page of [1, 2]) {
        const settled = await settleReservationAlone(env, {
          workspaceId: ws.workspaceId,
          reservationId: reservation.reservationId,
          amount: 6,
          chargeKey: `lead-page-${page}`,
          operation: "lead",
        });
        assert.equal(settled.outcome, "settled");
      }
      await env.db.sql.begin((tx) =>
        releaseReservation({ tx }, {
          workspaceId: ws.workspaceId,
          reservationId: reservation.reservationId,
          operation: "lead",
        })
      );

      // And a name parsed through the API with the workspace's key (the rule answers).
      const parsed = await env.app.request("/api/v1/name/parse", {
        method: "POST",
        headers: bearer(ws.apiKey, { "Content-Type": "application/json" }),
        body: JSON.stringify({ name: "Ada Lovelace" }),
      });
      assert.equal(parsed.status, 200);
      assert.equal((await parsed.json()).data.pointsCharged, 1);

      const member = await signedInMember(env, ws.workspaceId);
      const page = await member.get("/app");
      assert.equal(page.status, 200);
      // 5000 − 10 − 10 − 2 − 10 − 10 − 5 − 12 (lead pages) − 1 (name) = 4940.
      assert.match(page.text, /<div class="label">Available<\/div><div class="value">4,940<\/div>/);
      assert.match(page.text, /<div class="label">Reserved<\/div><div class="value">0<\/div>/);
      assert.match(page.text, /<div class="label">Granted<\/div><div class="value">5,000<\/div>/);

      const today = utcDay(0);
      assert.deepEqual(
        Object.fromEntries(bars(page.text)),
        {
          [`${utcDay(29 * DAY)}|findEmail`]: 10,
          [`${utcDay(29 * DAY)}|findCompany`]: 2,
          [`${utcDay(6 * DAY)}|enrich`]: 20,
          [`${utcDay(6 * DAY)}|networkSearch`]: 5,
          [`${today}|lead`]: 12,
          [`${today}|nameParse`]: 1,
        },
      );
      // One colour a operation, readable names, totals in the legend; a tooltip per segment.
      assert.match(page.text, /Lead search <strong>12<\/strong>/);
      assert.match(page.text, /Enrich email <strong>20<\/strong>/);
      assert.match(page.text, /Find email <strong>10<\/strong>/);
      assert.match(page.text, /<title>[^<]*Enrich email: 20 points/);
      assert.match(page.text, /Last 30 days \(UTC\) · 50 points/, "the window's total");
      assert.match(page.text, /aria-label="Points spent per day over the last 30 days/);

      // The recent ledger: one line per call and per reservation, newest first, with what each
      // cost in the end; the reservation's steps folded under its line (not −100 −6 −6 +88).
      const rows = [...page.text.matchAll(/<tr data-kind="([a-z]+)" data-net="(-?\d+)">/g)]
        .map((m) => [m[1], Number(m[2])]);
      assert.deepEqual(rows, [
        ["call", -1],
        ["reservation", -12],
        ["call", -5],
        ["call", -10],
        ["call", -10],
        ["call", -2],
        ["call", -10],
        ["call", -10],
        ["grant", 5000],
      ]);
      assert.match(page.text, />−12</, "the reservation's line: what was settled");
      assert.doesNotMatch(page.text, />−100</, "the reservation is a step, not a line");
      assert.match(page.text, /4 steps \(2 settled\)/);
      assert.match(page.text, /Reserved 100/);
      assert.match(page.text, /Released 88/);
      assert.match(page.text, /Name parse/);
    } finally {
      await env.close();
    }
  },
);

Deno.test("overview: the 20 most recent ledger entries", DB_TEST, async () => {
  const env = await createTestEnv();
  try {
    const ws = await createTestWorkspace(env, 1000);
    for (let i = 0; i < 25; i++) await chargeOn(env, ws.workspaceId, "nameParse", 1, 0);
    const member = await signedInMember(env, ws.workspaceId);
    const page = await member.get("/app");
    assert.equal([...page.text.matchAll(/<tr data-kind=/g)].length, 20);
    assert.equal(
      [...page.text.matchAll(/<tr data-kind="grant"/g)].length,
      0,
      "the oldest left out",
    );
    assert.deepEqual(Object.fromEntries(bars(page.text)), { [`${utcDay(0)}|nameParse`]: 25 });
  } finally {
    await env.close();
  }
});

/** Every table a plan reads whole, and every index it uses. */
function scans(plan: unknown): { seq: string[]; indexes: string[] } {
  const seq: string[] = [];
  const indexes: string[] = [];
  const walk = (node: Record<string, unknown>) => {
    if (node["Node Type"] === "Seq Scan") seq.push(String(node["Relation Name"]));
    if (typeof node["Index Name"] === "string") indexes.push(node["Index Name"]);
    for (const child of (node["Plans"] as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  walk((plan as { Plan: Record<string, unknown> }[])[0].Plan);
  return { seq, indexes };
}

Deno.test(
  "overview: the chart's query reads the workspace's window by index on a new database",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      const workspaces = [await createTestWorkspace(env, 0), await createTestWorkspace(env, 0)];
      // A long history, never analyzed: 3000 old grants, then 30 recent charges, per workspace.
      for (const { workspaceId } of workspaces) {
        await env.db.sql`
          INSERT INTO ledger_entries (workspace_id, kind, amount, operation, available_after,
                                      reserved_after, created_at)
          SELECT ${workspaceId}, 'grant', 1, 'grant', i, 0, now() - interval '400 days'
            FROM generate_series(1, 3000) i`;
        await env.db.sql`
          INSERT INTO ledger_entries (workspace_id, kind, amount, operation, charge_key,
                                      available_after, reserved_after, created_at)
          SELECT ${workspaceId}, 'charge', 2, 'lead', 'k' || i, 1, 0, now() - (i || ' hours')::interval
            FROM generate_series(1, 30) i`;
      }
      const sql: Sql = env.db.sql;
      const answer = await spendingByDay({ db: { sql } }, {
        workspaceId: workspaces[0].workspaceId,
        now: Date.now(),
      });
      assert.equal(answer.total, 60);
      assert.equal(answer.days.length, 30);

      const plans: ReturnType<typeof scans>[] = [];
      await spendingByDay({ db: { sql: explaining(sql, (plan) => plans.push(scans(plan))) } }, {
        workspaceId: workspaces[0].workspaceId,
        now: Date.now(),
      });
      assert.equal(plans.length, 1, "one statement");
      assert.deepEqual(plans[0].seq, [], "reads no table whole");
      assert.ok(plans[0].indexes.includes("ledger_entries_workspace"), String(plans[0].indexes));
    } finally {
      await env.close();
    }
  },
);
