/**
 * The readable ledger: a job's reservation, page settlements and release are one line whose net
 * is what was settled (not the sum of every posting), linked to the job; charges one line each;
 * cursor paging visits every line once; the date filter.
 */
import assert from "node:assert/strict";
import { chargeOrIncomplete } from "../domain/billing/billed_call.ts";
import { reservePoints } from "../domain/billing/reserve_points.ts";
import { settleReservationAlone } from "../domain/billing/settle_reservation.ts";
import { releaseReservation } from "../domain/billing/release_reservation.ts";
import { bearer, createTestEnv, createTestWorkspace, DB_TEST } from "./harness.ts";

Deno.test(
  "ledger lines: a reservation folds into one line; paging and dates",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      const ws = await createTestWorkspace(env, 1000);
      const get = async (query: string) => {
        const response = await env.app.request(`/api/v1/points/ledger?${query}`, {
          headers: bearer(ws.apiKey),
        });
        assert.equal(response.status, 200);
        return (await response.json()).data;
      };
      const job = await (await env.app.request("/api/v1/bulk/jobs", {
        method: "POST",
        headers: bearer(ws.apiKey, { "content-type": "application/json", "idempotency-key": "l" }),
        body: JSON.stringify({ operation: "enrich", rows: [{ email: "a@x.test" }] }),
      })).json();
      const jobReservation = (await env.db.sql<{ reservation_id: string }[]>`
      SELECT reservation_id FROM bulk_jobs WHERE id = ${job.data.job.id}`)[0].reservation_id;
      // A reservation of 100 settled 50 + 50, released 0: one line of −100 (not −200).
      const held = await reservePoints(env, {
        workspaceId: ws.workspaceId,
        amount: 100,
        operation: "lead",
      });
      for (const page of [1, 2]) {
        await settleReservationAlone(env, {
          workspaceId: ws.workspaceId,
          reservationId: held!.reservationId,
          amount: 50,
          chargeKey: `t:${page}`,
          operation: "lead",
        });
      }
      await env.db.sql.begin((tx) =>
        releaseReservation({ tx }, {
          workspaceId: ws.workspaceId,
          reservationId: held!.reservationId,
          operation: "lead",
        })
      );
      for (let i = 0; i < 5; i++) {
        await chargeOrIncomplete(env.ctx, [{
          workspaceId: ws.workspaceId,
          amount: 3,
          chargeKey: `call:${i}`,
          operation: "findEmail",
        }]);
      }

      const all = await get("limit=200");
      assert.equal(all.lines.length, 1 + 1 + 1 + 5, "grant, job, reservation, five calls");
      const reservation = all.lines.find((l: { net: number }) => l.net === -100);
      assert.deepEqual(
        reservation.steps.map((s: { kind: string; amount: number }) => [s.kind, s.amount]),
        [["reserve", 100], ["settle", 50], ["settle", 50], ["release", 0]],
      );
      assert.equal(reservation.open, false);
      const jobLine = all.lines.find((l: { kind: string }) => l.kind === "job");
      assert.deepEqual(jobLine.link, { type: "job", id: job.data.job.id });
      assert.equal(jobLine.open, true);
      assert.equal(jobLine.stillReserved, 10);
      assert.ok(jobReservation);
      assert.equal(all.lines.filter((l: { kind: string }) => l.kind === "call").length, 5);
      assert.equal(all.lines.at(-1).kind, "grant");

      const seen: number[] = [];
      let cursor: number | null = null;
      do {
        const page: { lines: { id: number }[]; nextCursor: number | null } = await get(
          `limit=3${cursor === null ? "" : `&cursor=${cursor}`}`,
        );
        assert.ok(page.lines.length <= 3);
        seen.push(...page.lines.map((l) => l.id));
        cursor = page.nextCursor;
      } while (cursor !== null);
      assert.deepEqual(
        seen,
        all.lines.map((l: { id: number }) => l.id),
        "every line once, in order",
      );

      const today = new Date().toISOString().slice(0, 10);
      assert.equal((await get(`from=${today}&to=${today}`)).lines.length, all.lines.length);
      assert.equal((await get("to=2000-01-01")).lines.length, 0);
      const bad = await env.app.request("/api/v1/points/ledger?from=yesterday", {
        headers: bearer(ws.apiKey),
      });
      assert.equal(bad.status, 400);
    } finally {
      await env.close();
    }
  },
);
