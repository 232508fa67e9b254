/**
 * The ledger as a person reads it (`/app/ledger`, and the overview's latest lines): one line per
 * call, run, job or grant with what it cost in the end, read with the verb the API's
 * `GET /api/v1/points/ledger` uses (`readLedgerLines`). A run's or job's reservation, settlements
 * and release are one line whose points are what was settled, the steps folded under it, so a run
 * that reserved 100 and settled 50 twice reads −100, not −200. Paging by cursor, a date filter
 * (UTC days) and a CSV export of the filtered lines (every page, streamed). Reading counts against
 * the `account` budget, as the API's route does.
 */
import type { Context, Hono } from "hono";
import type { DomainContext } from "../../domain/context.ts";
import {
  type LedgerLine,
  type LedgerStep,
  MAX_LEDGER_PAGE,
  readLedgerLines,
} from "../../domain/billing/ledger_lines.ts";
import { CSV_BOM, csvLine } from "./csv.ts";
import { dayStart, When } from "./dates.tsx";
import { ErrorPage, Notice, Page, points } from "./layout.tsx";
import { memberPage } from "./member_pages.ts";
import { operationName } from "./operation_names.ts";
import { refusedByRateLimit, runPath } from "./lead_search/parts.tsx";
import { jobPath } from "./bulk/bulk_parts.tsx";
import type { WebEnv } from "./web_env.ts";

export const LEDGER_PATH = "/app/ledger";
const PAGE_LINES = 50;
const DAY_MS = 86_400_000;

const STEP_WORDS: Record<LedgerStep["kind"], string> = {
  reserve: "Reserved",
  settle: "Settled",
  release: "Released",
};

/** What a line was, in words: "Find email", "Lead-search run", "Bulk enrich job", "Grant". */
export function lineTitle(line: LedgerLine): string {
  switch (line.kind) {
    case "grant": {
      const note = line.operation ?? "";
      return note && note !== "grant"
        ? `Grant: ${note.charAt(0).toUpperCase()}${note.slice(1)}`
        : "Grant";
    }
    case "call":
      return operationName(line.operation);
    case "run":
      return "Lead-search run";
    case "job":
      return `${operationName(line.operation)} job`;
    case "reservation":
      return `Reservation: ${operationName(line.operation)}`;
  }
}

/** The run's or job's page, for a line that names one. */
function linkOf(line: LedgerLine): string | null {
  if (!line.link) return null;
  return line.link.type === "run" ? runPath(line.link.id) : jobPath(line.link.id);
}

/** `+1,000`, `−100`, `0`: what the line did to the available points in the end. */
function signed(net: number): string {
  if (net === 0) return "0";
  return `${net > 0 ? "+" : "−"}${points(Math.abs(net))}`;
}

/** "Reserved 100 · Settled 50 · Settled 50 · Released 0", for the CSV. */
function stepsText(steps: LedgerStep[]): string {
  return steps.map((step) => `${STEP_WORDS[step.kind]} ${step.amount}`).join(" · ");
}

export function LedgerLines(props: { lines: LedgerLine[] }) {
  return (
    <div class="table-wrap">
      <table class="ledger-lines">
        <thead>
          <tr>
            <th>Time</th>
            <th>What</th>
            <th class="num">Points</th>
          </tr>
        </thead>
        <tbody>
          {props.lines.map((line) => {
            const href = linkOf(line);
            const title = lineTitle(line);
            return (
              <tr data-kind={line.kind} data-net={line.net}>
                <td class="nowrap ledger-time">
                  <When iso={line.at} />
                </td>
                <td class="ledger-what">
                  {href ? <a href={href}>{title}</a> : title}
                  {line.units > 1 ? <span class="muted">· {line.units} units</span> : null}
                  {line.open
                    ? (
                      <span class="badge live" title="Points still set aside for it">
                        {points(line.stillReserved)} still reserved
                      </span>
                    )
                    : null}
                  {line.steps.length > 0 ? <Steps steps={line.steps} /> : null}
                </td>
                <td
                  class={`num nowrap ledger-net ${line.net > 0 ? "amount-plus" : ""}`.trim()}
                  title={line.steps.length > 0 ? "What was settled in the end" : undefined}
                >
                  {signed(line.net)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** A reservation's postings, folded: only the settlements are spending. */
function Steps(props: { steps: LedgerStep[] }) {
  const settled = props.steps.filter((step) => step.kind === "settle").length;
  return (
    <details class="ledger-steps">
      <summary>
        {props.steps.length} steps{settled > 0 ? ` (${settled} settled)` : ""}
      </summary>
      <ol>
        {props.steps.map((step) => (
          <li data-step={step.kind}>
            {STEP_WORDS[step.kind]} {points(step.amount)}{" "}
            <span class="muted">
              <When iso={step.at} />
            </span>
          </li>
        ))}
      </ol>
      <p class="muted">
        Reserving sets the worst case aside; only what is settled is spent, and the release gives
        the rest back.
      </p>
    </details>
  );
}

interface Filter {
  from: string;
  to: string;
  /** The instants the filter means (`to` is the day after the last day), or a problem. */
  range: { from?: Date; to?: Date } | { problem: string };
}

function readFilter(c: Context<WebEnv>): Filter {
  const from = (c.req.query("from") ?? "").trim();
  const to = (c.req.query("to") ?? "").trim();
  const start = from ? dayStart(from) : undefined;
  const last = to ? dayStart(to) : undefined;
  if (start && Number.isNaN(start.getTime())) {
    return { from, to, range: { problem: "From must be a day of the calendar (YYYY-MM-DD)." } };
  }
  if (last && Number.isNaN(last.getTime())) {
    return { from, to, range: { problem: "To must be a day of the calendar (YYYY-MM-DD)." } };
  }
  if (start && last && start > last) {
    return { from, to, range: { problem: "From must not be after To." } };
  }
  return { from, to, range: { from: start, to: last && new Date(last.getTime() + DAY_MS) } };
}

function filterQuery(filter: Pick<Filter, "from" | "to">, extra: Record<string, string> = {}) {
  const query = new URLSearchParams();
  if (filter.from) query.set("from", filter.from);
  if (filter.to) query.set("to", filter.to);
  for (const [name, value] of Object.entries(extra)) query.set(name, value);
  const text = query.toString();
  return text ? `?${text}` : "";
}

export function mountLedger(web: Hono<WebEnv>, ctx: DomainContext): void {
  web.get("/ledger", memberPage(ctx), async (c) => {
    const member = c.get("member");
    const limited = await refusedByRateLimit(c, ctx, "account");
    if (limited) return c.html(<ErrorPage title="Slow down" message={limited} />);
    const filter = readFilter(c);
    const cursorText = c.req.query("cursor") ?? "";
    const badCursor = cursorText !== "" && !/^\d{1,15}$/.test(cursorText);
    const problem = "problem" in filter.range
      ? filter.range.problem
      : badCursor
      ? "That page of the ledger does not exist: start again from the newest."
      : null;
    if (problem) c.status(400);
    const page = problem ? { lines: [], nextCursor: null } : await readLedgerLines(ctx, {
      workspaceId: member.workspaceId,
      cursor: cursorText ? Number(cursorText) : undefined,
      limit: PAGE_LINES,
      ...(filter.range as { from?: Date; to?: Date }),
    });
    const filtered = Boolean(filter.from || filter.to);
    return c.html(
      <Page title="Ledger" section="ledger" member={member}>
        <p class="muted ledger-intro">
          One line per call, lead-search run or bulk job, newest first, with what it cost in the
          end. A run or job sets its worst case aside when it starts and is charged for what it
          delivers: its line shows that charge, with the steps folded under it.
        </p>
        <form method="get" action={LEDGER_PATH} class="row ledger-filter">
          <div class="field">
            <label for="ledger-from">From</label>
            <input type="date" id="ledger-from" name="from" value={filter.from} />
          </div>
          <div class="field">
            <label for="ledger-to">To</label>
            <input type="date" id="ledger-to" name="to" value={filter.to} />
          </div>
          <div class="ledger-filter-actions">
            <button type="submit">Show</button>
            {filtered ? <a class="button subtle" href={LEDGER_PATH}>All</a> : null}
            <a
              class="button subtle"
              href={`${LEDGER_PATH}.csv${filterQuery(filter)}`}
              download
            >
              Export CSV
            </a>
          </div>
        </form>
        <p class="hint muted">Days are UTC; both ends are included.</p>
        {problem ? <Notice kind="error">{problem}</Notice> : null}
        {!problem && page.lines.length === 0
          ? (
            <p class="empty">
              {filtered || cursorText
                ? "No ledger lines here."
                : "No ledger lines yet. Grants, calls, runs and jobs appear here."}
            </p>
          )
          : null}
        {page.lines.length > 0 ? <LedgerLines lines={page.lines} /> : null}
        <nav class="lead-pager" aria-label="Ledger pages">
          {cursorText ? <a href={`${LEDGER_PATH}${filterQuery(filter)}`}>← Newest</a> : null}
          {page.nextCursor !== null
            ? (
              <a href={`${LEDGER_PATH}${filterQuery(filter, { cursor: String(page.nextCursor) })}`}>
                Older →
              </a>
            )
            : null}
        </nav>
      </Page>,
    );
  });

  web.get("/ledger.csv", memberPage(ctx), async (c) => {
    const limited = await refusedByRateLimit(c, ctx, "account");
    if (limited) return c.html(<ErrorPage title="Slow down" message={limited} />);
    const filter = readFilter(c);
    if ("problem" in filter.range) {
      c.status(400);
      return c.html(<ErrorPage title="No such days" message={filter.range.problem} />);
    }
    const range = filter.range;
    const workspaceId = c.get("member").workspaceId;
    const encoder = new TextEncoder();
    let cursor: number | undefined;
    let started = false;
    // A page of lines at a time: a long ledger never sits in memory whole.
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let out = "";
        if (!started) {
          started = true;
          out = CSV_BOM + csvLine(LEDGER_CSV_COLUMNS);
        }
        const page = await readLedgerLines(ctx, {
          workspaceId,
          cursor,
          limit: MAX_LEDGER_PAGE,
          ...range,
        });
        for (const line of page.lines) out += csvLine(ledgerCsvRow(line));
        controller.enqueue(encoder.encode(out));
        if (page.nextCursor === null) controller.close();
        else cursor = page.nextCursor;
      },
    });
    const name = `ledger${filter.from ? `-from-${filter.from}` : ""}${
      filter.to ? `-to-${filter.to}` : ""
    }.csv`;
    return c.body(body, 200, {
      "Content-Type": "text/csv; charset=utf-8; header=present",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "no-store",
    });
  });
}

export const LEDGER_CSV_COLUMNS = [
  "time",
  "kind",
  "what",
  "points",
  "units",
  "stillReserved",
  "link",
  "steps",
] as const;

function ledgerCsvRow(line: LedgerLine) {
  return [
    line.at,
    line.kind,
    lineTitle(line),
    line.net,
    line.units,
    line.stillReserved,
    line.link?.id ?? null,
    line.steps.length > 0 ? stepsText(line.steps) : null,
  ];
}
