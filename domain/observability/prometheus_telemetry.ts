/**
 * The Prometheus sink: every series of `GET /metrics`, in one registry of our own (prom-client's
 * default process metrics read /proc through Node APIs Deno does not have, so none are
 * registered). Labels come from fixed vocabularies only (docs/operations.md lists them); a
 * `workspace` label is added to the per-workspace series only with `METRICS_WORKSPACE_LABELS`.
 */
import client from "prom-client";
import type { CountedEvent, Telemetry, TimedOperation } from "./telemetry.ts";

/** Run states a scrape reads from the database (the active ones: finished runs only pile up). */
export type RunCounts = Record<"queued" | "processing" | "cancelling", number>;
export type JobCounts = Record<"queued" | "processing", number>;

export interface PrometheusOptions {
  workspaceLabels: boolean;
  /** Counted at each scrape; a failure leaves the gauge as it was. */
  countRuns?: () => Promise<RunCounts>;
  /** Bulk jobs not finished, by state (read at each scrape). */
  countJobs?: () => Promise<JobCounts>;
}

export interface PrometheusTelemetry extends Telemetry {
  /** One answered HTTP request, by route template (never the raw path). */
  httpRequest(route: string, method: string, status: number, seconds: number): void;
  /** The text exposition format. */
  render(): Promise<string>;
  readonly contentType: string;
}

/** Seconds, from a fast local call to a slow SMTP dialogue. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const QUERY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

export function createPrometheusTelemetry(options: PrometheusOptions): PrometheusTelemetry {
  const registry = new client.Registry();
  const registers = [registry];
  const perWorkspace = (labels: string[]) =>
    options.workspaceLabels ? [...labels, "workspace"] : labels;
  const withWorkspace = <L extends Record<string, string>>(labels: L, workspaceId: string) =>
    options.workspaceLabels ? { ...labels, workspace: workspaceId } : labels;

  const httpRequests = new client.Counter({
    name: "http_requests_total",
    help: "HTTP requests answered, by route template, method and status",
    labelNames: ["route", "method", "status"],
    registers,
  });
  const httpDuration = new client.Histogram({
    name: "http_request_duration_seconds",
    help: "Time to answer an HTTP request, by route template",
    labelNames: ["route"],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const pointsCharged = new client.Counter({
    name: "points_charged_total",
    help: "Points charged to workspaces, by price-table operation",
    labelNames: perWorkspace(["operation"]),
    registers,
  });
  const lookups = new client.Counter({
    name: "lookups_total",
    help: "Lookups answered (not replays), by operation and reason (found when one was found)",
    labelNames: perWorkspace(["operation", "reason"]),
    registers,
  });
  const sessions = new client.Counter({
    name: "verification_sessions_total",
    help: "SMTP verification sessions, by who runs the mail host and how the session ended",
    labelNames: ["provider", "outcome"],
    registers,
  });
  const sessionSeconds = new client.Histogram({
    name: "verification_session_seconds",
    help: "Length of an SMTP verification session, by who runs the mail host",
    labelNames: ["provider"],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const dnsQuestions = new client.Counter({
    name: "dns_questions_total",
    help: "DNS questions of the verification engine, by record type and answer",
    labelNames: ["type", "outcome"],
    registers,
  });
  const providerRequests = new client.Counter({
    name: "provider_requests_total",
    help: "Calls to outside HTTP providers, by provider and outcome",
    labelNames: ["provider", "outcome"],
    registers,
  });
  const providerSeconds = new client.Histogram({
    name: "provider_request_seconds",
    help: "Length of a call to an outside HTTP provider",
    labelNames: ["provider"],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const rateLimited = new client.Counter({
    name: "rate_limited_total",
    help: "Requests refused 429 by a rate-limit budget",
    labelNames: perWorkspace(["budget"]),
    registers,
  });
  const takeovers = new client.Counter({
    name: "runner_lease_takeovers_total",
    help: "Lead-search runs whose runner stopped renewing its lease, handed to another runner",
    registers,
  });
  const suppressedWriteBacks = new client.Counter({
    name: "suppressed_write_backs_total",
    help: "Write-backs to the directory skipped because the person is on the suppression list",
    labelNames: ["operation"],
    registers,
  });
  const replays = new client.Counter({
    name: "idempotency_replays_total",
    help: "Billed calls answered from an earlier call with the same Idempotency-Key",
    labelNames: ["operation"],
    registers,
  });
  const dbQuerySeconds = new client.Histogram({
    name: "db_query_seconds",
    help: "Database round trips, by query (ledger_charge: one group-committed charge)",
    labelNames: ["query", "outcome"],
    buckets: QUERY_BUCKETS,
    registers,
  });
  const countRuns = options.countRuns;
  new client.Gauge({
    name: "lead_search_runs",
    help: "Lead-search runs not finished, by state (read from the database at each scrape)",
    labelNames: ["state"],
    registers,
    async collect() {
      if (!countRuns) return;
      try {
        const counts = await countRuns();
        for (const [state, value] of Object.entries(counts)) this.set({ state }, value);
      } catch {
        // The database is down: the scrape still answers; /readyz says why.
      }
    },
  });

  const countJobs = options.countJobs;
  new client.Gauge({
    name: "bulk_jobs",
    help: "Bulk jobs not finished, by state (read from the database at each scrape)",
    labelNames: ["state"],
    registers,
    async collect() {
      if (!countJobs) return;
      try {
        const counts = await countJobs();
        for (const [state, value] of Object.entries(counts)) this.set({ state }, value);
      } catch {
        // The database is down: the scrape still answers; /readyz says why.
      }
    },
  });

  return {
    contentType: registry.contentType,
    render: () => registry.metrics(),
    httpRequest(route, method, status, seconds) {
      httpRequests.inc({ route, method, status: String(status) });
      httpDuration.observe({ route }, seconds);
    },
    begin(operation: TimedOperation) {
      const started = performance.now();
      const elapsed = () => (performance.now() - started) / 1000;
      switch (operation.kind) {
        case "smtp_session":
          return (outcome) => {
            sessions.inc({ provider: operation.provider, outcome });
            sessionSeconds.observe({ provider: operation.provider }, elapsed());
          };
        case "dns_question":
          return (outcome) => dnsQuestions.inc({ type: operation.type, outcome });
        case "provider_request":
          return (outcome) => {
            providerRequests.inc({ provider: operation.provider, outcome });
            providerSeconds.observe({ provider: operation.provider }, elapsed());
          };
        case "ledger_charge":
          return (outcome) =>
            dbQuerySeconds.observe({ query: "ledger_charge", outcome }, elapsed());
        case "bulk_job":
        case "lead_search_run":
          // Spans only: the jobs' and runs' own counts are their tables'.
          return () => {};
      }
    },
    count(event: CountedEvent) {
      switch (event.kind) {
        case "points_charged":
          pointsCharged.inc(
            withWorkspace({ operation: event.operation }, event.workspaceId),
            event.points,
          );
          return;
        case "lookup":
          lookups.inc(
            withWorkspace({ operation: event.operation, reason: event.reason }, event.workspaceId),
          );
          return;
        case "rate_limited":
          rateLimited.inc(withWorkspace({ budget: event.budget }, event.workspaceId));
          return;
        case "lease_takeover":
          takeovers.inc(event.runs);
          return;
        case "idempotency_replay":
          replays.inc({ operation: event.operation });
          return;
        case "suppressed_write_back":
          suppressedWriteBacks.inc({ operation: event.operation });
          return;
      }
    },
  };
}
