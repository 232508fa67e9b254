/** Pieces the lead-search pages share: status badges, times, filters, rate limits, error pages. */
import { rateLimitWait } from "../rate_limit_gate.ts";
import type { Context } from "hono";
import type { RateLimitBudget } from "../../../domain/config/config.ts";
import type { DomainContext } from "../../../domain/context.ts";
import {
  FILTER_NAMES,
  type LeadFilters,
  type LeadSearchRun,
  type RunStatus,
} from "../../../domain/lead_search/lead_search_run.ts";
import { type Balance } from "../../../domain/billing/balance.ts";
import {
  startLeadSearch,
  type StartLeadSearchAnswer,
  type StartLeadSearchInput,
} from "../../../domain/lead_search/start_lead_search.ts";
import { ErrorPage, points } from "../layout.tsx";
import { patiently } from "../patiently.ts";
import type { WebEnv } from "../web_env.ts";
import { readWorkspaceBalance } from "../../../domain/billing/read_workspace_balance.ts";
import { count as counted } from "../numbers.ts";

export const LEAD_SEARCH_PATH = "/app/lead-search";
export const runPath = (runId: string) => `${LEAD_SEARCH_PATH}/runs/${encodeURIComponent(runId)}`;

/** How each filter is called on the pages (the API's names are camelCase field names). */
export const FILTER_LABELS: Record<typeof FILTER_NAMES[number], string> = {
  jobTitle: "Job title",
  location: "Location",
  company: "Company",
  industry: "Industry",
  headcount: "Headcount",
  seniority: "Seniority",
  keywords: "Keywords",
};

const STATUS_LOOK: Record<RunStatus, { label: string; kind: string }> = {
  queued: { label: "Queued", kind: "" },
  processing: { label: "Processing", kind: "live" },
  cancelling: { label: "Cancelling", kind: "warn" },
  completed: { label: "Completed", kind: "ok" },
  cancelled: { label: "Cancelled", kind: "" },
  failed: { label: "Failed", kind: "bad" },
};

export function StatusBadge(props: { status: RunStatus }) {
  const look = STATUS_LOOK[props.status];
  return <span class={`badge ${look.kind}`.trim()} data-status={props.status}>{look.label}</span>;
}

/** A timestamp as `2026-11-23 19:58 UTC` (the server does not know the member's time zone). */
export function When(props: { iso: string | null }) {
  if (!props.iso) return <span class="muted">—</span>;
  const text = props.iso.slice(0, 16).replace("T", " ") + " UTC";
  return <time datetime={props.iso}>{text}</time>;
}

/** The run's filters, one line per criterion; "Anyone" when it has none. */
export function FilterList(props: { filters: LeadFilters }) {
  const given = FILTER_NAMES.filter((name) => (props.filters[name] ?? []).length > 0);
  if (given.length === 0) return <span class="muted">None (anyone in the directory)</span>;
  return (
    <ul class="lead-filters">
      {given.map((name) => (
        <li>
          <span class="muted">{FILTER_LABELS[name]}:</span> {props.filters[name]!.join(" · ")}
        </li>
      ))}
    </ul>
  );
}

/** One short line for a table cell: "Job title: engineer; Location: Berlin". */
export function filterSummary(filters: LeadFilters): string {
  const parts = FILTER_NAMES.filter((name) => (filters[name] ?? []).length > 0)
    .map((name) => `${FILTER_LABELS[name]}: ${filters[name]!.join(", ")}`);
  return parts.length === 0 ? "Anyone" : parts.join("; ");
}

export function isActive(run: Pick<LeadSearchRun, "status">): boolean {
  return run.status === "queued" || run.status === "processing" || run.status === "cancelling";
}

/** The rate-limit gate in the lead-search pages' words; null when admitted. */
export async function refusedByRateLimit(
  c: Context<WebEnv>,
  ctx: DomainContext,
  budget: RateLimitBudget,
): Promise<string | null> {
  const wait = await rateLimitWait(c, ctx, budget);
  return wait === null ? null : `Too many requests from this workspace. Try again in ${wait}.`;
}

/** The app's 404 page, for another workspace's run and an unknown id alike. */
export function runNotFound(c: Context<WebEnv>) {
  c.status(404);
  return c.html(
    <ErrorPage
      title="Page not found"
      message="There is no lead-search run with this id in this workspace."
    />,
  );
}

/** A verb's message in the page's words: `filters.jobTitle` → `Job title`, `count` → `Count`. */
export function pageMessage(message: string): string {
  return message
    .replace(/filters\.(\w+)/g, (whole, name: string) => {
      const label = FILTER_LABELS[name as keyof typeof FILTER_LABELS];
      return label ?? whole;
    })
    .replace(/^count\b/, "Count");
}

/** A fresh Idempotency-Key for a form: a double submit of that form starts one run, not two. */
export function newFormKey(): string {
  return `web-${crypto.randomUUID()}`;
}

/** Why a start was refused `insufficient-credits`: what the run reserves, what is there, the gap. */
export async function shortfall(
  ctx: DomainContext,
  workspaceId: string,
  answer: { balance: Balance | null },
  count: number,
) {
  const price = ctx.prices.lead;
  const needed = count * price;
  const available = answer.balance?.available ??
    (await readWorkspaceBalance(ctx, { workspaceId: workspaceId })).available;
  const affordable = price > 0 ? Math.floor(available / price) : count;
  return (
    <>
      Not enough points: {counted(count, "lead")} {count === 1 ? "reserves" : "reserve"}{" "}
      {counted(needed, "point")} and {points(available)} are available,{" "}
      {points(Math.max(0, needed - available))} short. Nothing was reserved. {affordable > 0
        ? `Ask for ${counted(affordable, "lead")} or fewer, or get more points.`
        : "Get more points to start a run."}
    </>
  );
}

/** The start verb, waiting out a moment of `idempotency_in_progress` (see `patiently`). */
export function startPatiently(
  ctx: DomainContext,
  input: StartLeadSearchInput,
): Promise<StartLeadSearchAnswer> {
  return patiently(() => startLeadSearch(ctx, input));
}
