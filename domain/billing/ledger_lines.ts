/**
 * The ledger as a person reads it: one line per call, run, job or grant, newest first, with
 * what it cost in the end. A reservation's postings (reserve, its settlements, its release) fold
 * under one line whose `net` is what was spent (the settlements), not the sum of every posting
 * (a run shown as "Reserve −100, Settle −50, Settle −50, Release +0" cost 100, not 200); the
 * steps stay readable under it. A line of a lead-search run or a bulk job names it.
 *
 * Lines start at their first posting (a grant, a charge, a reserve), so paging is by that
 * posting's id (`cursor`: the last line's id; the next page holds older lines) over the
 * workspace's ledger index, and `from`/`to` filter on when the line began.
 */
import type { DomainContext } from "../context.ts";

export interface LedgerStep {
  kind: "reserve" | "settle" | "release";
  amount: number;
  at: string;
}

export interface LedgerLine {
  /** The id of the line's first posting: the paging cursor. */
  id: number;
  kind: "grant" | "call" | "run" | "job" | "reservation";
  operation: string | null;
  at: string;
  /** Points in (+) or out (−) in the end; for an open reservation, what was spent so far. */
  net: number;
  /** Billable units a call's posting paid for (several for a batch chunk or pooled calls). */
  units: number;
  /** For a reservation: whether it is still holding points, and how many. */
  open: boolean;
  stillReserved: number;
  /** The lead-search run or bulk job the reservation paid for. */
  link: { type: "run" | "job"; id: string } | null;
  steps: LedgerStep[];
}

export interface LedgerPage {
  lines: LedgerLine[];
  /** Pass as `cursor` for the next (older) page; null on the last one. */
  nextCursor: number | null;
}

export const MAX_LEDGER_PAGE = 200;

export async function readLedgerLines(
  ctx: Pick<DomainContext, "db">,
  input: { workspaceId: string; cursor?: number; limit?: number; from?: Date; to?: Date },
): Promise<LedgerPage> {
  const sql = ctx.db.sql;
  const limit = Math.min(Math.max(input.limit ?? 50, 1), MAX_LEDGER_PAGE);
  const heads = await sql<
    {
      id: string;
      kind: "grant" | "charge" | "reserve";
      amount: string;
      units: number;
      operation: string | null;
      reservation_id: string | null;
      created_at: Date;
    }[]
  >`SELECT id, kind, amount, units, operation, reservation_id, created_at FROM ledger_entries
     WHERE workspace_id = ${input.workspaceId} AND kind IN ('grant', 'charge', 'reserve')
       ${input.cursor !== undefined ? sql`AND id < ${input.cursor}` : sql``}
       ${input.from ? sql`AND created_at >= ${input.from}` : sql``}
       ${input.to ? sql`AND created_at < ${input.to}` : sql``}
     ORDER BY id DESC LIMIT ${limit + 1}`;
  const page = heads.slice(0, limit);
  const reservations = page.flatMap((h) => h.reservation_id ? [h.reservation_id] : []);
  const steps = reservations.length === 0 ? [] : await sql<
    { reservation_id: string; kind: "settle" | "release"; amount: string; created_at: Date }[]
  >`SELECT reservation_id, kind, amount, created_at FROM ledger_entries
     WHERE reservation_id = ANY(${reservations}) AND kind IN ('settle', 'release')
     ORDER BY id`;
  const links = reservations.length === 0 ? [] : await sql<
    { id: string; reservation_id: string; type: "run" | "job" }[]
  >`SELECT id, reservation_id, 'run' AS type FROM lead_search_runs
     WHERE reservation_id = ANY(${reservations})
    UNION ALL
    SELECT id, reservation_id, 'job' AS type FROM bulk_jobs
     WHERE reservation_id = ANY(${reservations})`;
  const linkOf = new Map(links.map((l) => [l.reservation_id, { type: l.type, id: l.id }]));
  const lines = page.map((head): LedgerLine => {
    const base = {
      id: Number(head.id),
      operation: head.operation,
      at: head.created_at.toISOString(),
      units: head.units,
      open: false,
      stillReserved: 0,
      link: null,
      steps: [],
    };
    if (head.kind === "grant") return { ...base, kind: "grant", net: Number(head.amount) };
    if (head.kind === "charge") return { ...base, kind: "call", net: -Number(head.amount) };
    const mine = steps.filter((s) => s.reservation_id === head.reservation_id);
    const settled = mine.filter((s) => s.kind === "settle")
      .reduce((sum, s) => sum + Number(s.amount), 0);
    const released = mine.some((s) => s.kind === "release");
    const link = linkOf.get(head.reservation_id!) ?? null;
    return {
      ...base,
      kind: link?.type ?? "reservation",
      net: -settled,
      open: !released,
      stillReserved: released ? 0 : Number(head.amount) - settled,
      link,
      steps: [
        { kind: "reserve", amount: Number(head.amount), at: base.at },
        ...mine.map((s) => ({
          kind: s.kind,
          amount: Number(s.amount),
          at: s.created_at.toISOString(),
        })),
      ],
    };
  });
  return {
    lines,
    nextCursor: heads.length > limit ? lines[lines.length - 1].id : null,
  };
}
