/**
 * The typed client: one method per operation of the service, over openapi-fetch with the types
 * openapi-typescript generated from the served document (`openapi_types.ts`). Every lookup sends
 * an Idempotency-Key (made here unless given), so a retry is never billed twice; 429 and 409
 * `idempotency_in_progress` are retried after the service's `Retry-After`, a bounded number of
 * times; any other refusal is thrown as an `ApiError` carrying the API's `code`.
 */
import createClient from "openapi-fetch";
import { ApiError, toApiError } from "./errors.ts";
import type { components, paths } from "./openapi_types.ts";

type Schemas = components["schemas"];
export type ParseNameRequest = Schemas["ParseNameRequest"];
export type ParsedName = Schemas["ParsedName"];
export type ParseNameBatchRequest = Schemas["ParseNameBatchRequest"];
export type ParsedNameBatch = Schemas["ParsedNameBatch"];
export type FindRequest = Schemas["FindRequest"];
export type FindAnswer = Schemas["FindAnswer"];
export type NetworkSearchRequest = Schemas["NetworkSearchRequest"];
export type NetworkSearchAnswer = Schemas["NetworkSearchAnswer"];
export type EnrichEmailRequest = Schemas["EnrichEmailRequest"];
export type EnrichEmailAnswer = Schemas["EnrichEmailAnswer"];
export type LeadSearchStartRequest = Schemas["LeadSearchStartRequest"];
export type LeadSearchStartAnswer = Schemas["LeadSearchStartAnswer"];
export type LeadSearchRunPage = Schemas["LeadSearchRunPage"];
export type LeadSearchCancelAnswer = Schemas["LeadSearchCancelAnswer"];
export type Lead = Schemas["Lead"];
export type Points = Schemas["Points"];
export type DomainSearchRequest = Schemas["DomainSearchRequest"];
export type DomainSearchAnswer = Schemas["DomainSearchAnswer"];
export type DomainCountAnswer = Schemas["DomainCountAnswer"];
export type BulkJobRequest = Schemas["BulkJobRequest"];
export type BulkJob = Schemas["BulkJob"];
export type BulkJobAnswer =
  paths["/api/v1/bulk/jobs"]["post"]["responses"][200]["content"]["application/json"]["data"];
export type LedgerLine = Schemas["LedgerLine"];
export type AuditEntry = Schemas["AuditEntry"];
export type WebhookEndpoint = Schemas["WebhookEndpoint"];
export type WebhookEndpointRequest =
  paths["/api/v1/webhooks"]["post"]["requestBody"]["content"]["application/json"];
export type Health = Schemas["Health"];

export interface ClientOptions {
  /** The service's address, e.g. `https://contacts.example.com`. */
  baseUrl: string;
  /** A workspace API key, `svc_sk_…`. */
  apiKey: string;
  /** Retries of a 429 or a 409 `idempotency_in_progress` before the error is thrown (default 3). */
  maxRetries?: number;
  /** The longest wait before one retry, in milliseconds (default 60 000). */
  maxRetryDelayMs?: number;
  /** Makes the Idempotency-Key of a lookup called without one (default a random UUID). */
  makeIdempotencyKey?: () => string;
  fetch?: typeof globalThis.fetch;
}

/** Per call: an Idempotency-Key of your own (to retry later without paying twice). */
export interface CallOptions {
  idempotencyKey?: string;
  signal?: AbortSignal;
  /**
   * When the answer says a mail server greylisted the lookup (`retryAfterSeconds`, with
   * `verification-unavailable`), wait that long and call again with the same Idempotency-Key
   * (billed once, when an answer is reached), as long as the whole wait stays within
   * `maxGreylistWaitMs`. Greylisting servers wait minutes (postgrey: 5), so a call may take that
   * long; pass a `signal` to give up sooner. Default false: the answer comes back at once.
   */
  waitForGreylisting?: boolean;
  /** The longest total wait for greylisting (default 900 000 ms, 15 minutes). */
  maxGreylistWaitMs?: number;
}

/** The longest total wait for greylisting by default. */
export const DEFAULT_MAX_GREYLIST_WAIT_MS = 900_000;

/**
 * Calls `attempt` again after the answer's `retryAfterSeconds` while it carries one and the total
 * wait stays within `maxWaitMs`; the last answer otherwise. For any call whose answer can say
 * when to come back (find; verify).
 */
export async function waitingForGreylisting<T>(
  attempt: () => Promise<T>,
  options: { maxWaitMs?: number; signal?: AbortSignal } = {},
): Promise<T> {
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_GREYLIST_WAIT_MS;
  let waited = 0;
  for (;;) {
    const answer = await attempt();
    const seconds = (answer as { retryAfterSeconds?: unknown } | null)?.retryAfterSeconds;
    if (typeof seconds !== "number" || seconds <= 0) return answer;
    const ms = seconds * 1000;
    if (waited + ms > maxWaitMs) return answer;
    await sleep(ms, options.signal);
    waited += ms;
  }
}

export interface IterateOptions {
  /** Wait between polls of a run still working (default 2 000 ms). */
  pollIntervalMs?: number;
  signal?: AbortSignal;
}

const TERMINAL = new Set(["completed", "cancelled", "failed"]);
/** Leads per page of a run (the service's page size). */
export const LEADS_PER_PAGE = 25;

/** The operations billed per call, each with an Idempotency-Key. */
type LookupPath =
  | "/api/v1/name/parse"
  | "/api/v1/name/parse/batch"
  | "/api/v1/find"
  | "/api/v1/network-search"
  | "/api/v1/enrich/email"
  | "/api/v1/verify"
  | "/api/v1/domain-search"
  | "/api/v1/lead-search";
type LookupBody<P extends LookupPath> = paths[P]["post"]["requestBody"]["content"][
  "application/json"
];
type LookupAnswer<P extends LookupPath> = paths[P]["post"]["responses"][200]["content"][
  "application/json"
]["data"];

export type ContactDataClient = ReturnType<typeof createContactDataClient>;

export function createContactDataClient(options: ClientOptions) {
  const api = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers: { Authorization: `Bearer ${options.apiKey}` },
    fetch: options.fetch,
  });
  const maxRetries = options.maxRetries ?? 3;
  const maxDelay = options.maxRetryDelayMs ?? 60_000;
  const makeKey = options.makeIdempotencyKey ?? (() => crypto.randomUUID());

  /** One operation's answer, retried while the service says to wait; its `data`, or a throw. */
  async function send<T>(
    attempt: () => Promise<{ data?: { data: T }; error?: unknown; response: Response }>,
    signal?: AbortSignal,
  ): Promise<T> {
    for (let retries = 0;; retries++) {
      const { data, error, response } = await attempt();
      if (response.ok && data) return data.data;
      const failure = toApiError(response, error);
      const waits = failure.code === "rate_limited" || failure.code === "idempotency_in_progress";
      if (!waits || retries >= maxRetries) throw failure;
      const seconds = failure.details.retryAfterSeconds ?? 2 ** retries;
      await sleep(Math.min(Math.max(seconds, 0) * 1000, maxDelay), signal);
    }
  }

  /** A billed lookup: its body, an Idempotency-Key (made unless given), its answer's `data`. */
  const lookup =
    <P extends LookupPath>(path: P) =>
    (body: LookupBody<P>, call?: CallOptions): Promise<LookupAnswer<P>> => {
      // One key for every attempt: a retry of the same call is never billed twice.
      const params = { header: { "idempotency-key": call?.idempotencyKey ?? makeKey() } };
      // The path is one of the lookups, so the body and answer types above are the path's own.
      const post = api.POST as unknown as (path: P, init: unknown) => ReturnType<typeof api.POST>;
      const once = () =>
        send(
          () =>
            post(path, { body, params, signal: call?.signal }) as Promise<
              { data?: { data: LookupAnswer<P> }; error?: unknown; response: Response }
            >,
          call?.signal,
        );
      // The same key on every call: a greylisted answer gave it back, the answer is billed once.
      return call?.waitForGreylisting
        ? waitingForGreylisting(once, { maxWaitMs: call.maxGreylistWaitMs, signal: call.signal })
        : once();
    };

  const leadSearch = {
    /** Starts a run: `queued`, with the worst case reserved (or `reason` when refused). */
    start: lookup("/api/v1/lead-search"),
    /** The run and one page (1-based, 25 leads) of what it delivered. Free. */
    get: (runId: string, query: { page?: number } = {}, signal?: AbortSignal) =>
      send<LeadSearchRunPage>(
        () =>
          api.GET("/api/v1/lead-search/runs/{runId}", {
            params: { path: { runId }, query },
            signal,
          }),
        signal,
      ),
    /** Cancels a run (`cancelled`, `cancelling` or `already-terminal`). Free. */
    cancel: (runId: string, signal?: AbortSignal): Promise<LeadSearchCancelAnswer> =>
      send(
        () =>
          api.POST("/api/v1/lead-search/runs/{runId}/cancel", {
            params: { path: { runId } },
            body: {},
            signal,
          }),
        signal,
      ),
    /**
     * The run's leads as they are delivered, one array at a time (a page of 25, or what has
     * arrived of the page being filled), until the run is terminal and every lead was yielded.
     */
    async *iterate(runId: string, iterate: IterateOptions = {}): AsyncGenerator<Lead[]> {
      let page = 1;
      let seen = 0;
      for (;;) {
        const run = await leadSearch.get(runId, { page }, iterate.signal);
        const fresh = run.results.slice(seen);
        if (fresh.length > 0) yield fresh;
        seen = run.results.length;
        // A full page is final: read the next one. A run ends only after its last delivery,
        // so a terminal status beside a page that is not full means every lead was yielded.
        if (seen >= LEADS_PER_PAGE) {
          page++;
          seen = 0;
          continue;
        }
        if (TERMINAL.has(run.status)) return;
        await sleep(iterate.pollIntervalMs ?? 2_000, iterate.signal);
      }
    },
  };

  const bulk = {
    /** What a job would reserve, and the rows it would set aside. Free; nothing is kept. */
    quote: (request: BulkJobRequest, signal?: AbortSignal): Promise<BulkJobAnswer> =>
      send(
        () =>
          api.POST("/api/v1/bulk/jobs", {
            params: { query: { dryRun: "true" } },
            body: request,
            signal,
          }),
        signal,
      ),
    /** Starts a job with its worst case reserved; the key (made unless given) makes a retry safe. */
    start: (request: BulkJobRequest, call?: CallOptions): Promise<BulkJobAnswer> => {
      const params = { header: { "idempotency-key": call?.idempotencyKey ?? makeKey() } };
      return send(
        () => api.POST("/api/v1/bulk/jobs", { params, body: request, signal: call?.signal }),
        call?.signal,
      );
    },
    /** The job's status and counts. Free. */
    get: (jobId: string, signal?: AbortSignal): Promise<BulkJob> =>
      send(
        () => api.GET("/api/v1/bulk/jobs/{jobId}", { params: { path: { jobId } }, signal }),
        signal,
      ),
    /** Every row: its lines, input, and once answered its answer and cost. Free. */
    results: async (jobId: string, signal?: AbortSignal): Promise<Record<string, unknown>[]> => {
      const { data, response } = await api.GET("/api/v1/bulk/jobs/{jobId}/results", {
        params: { path: { jobId } },
        headers: { Accept: "application/x-ndjson" },
        parseAs: "text",
        signal,
      });
      if (!response.ok || typeof data !== "string") {
        throw toApiError(response, await readJson(response, data));
      }
      return data.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line));
    },
    /** Cancels a job: answered rows stay charged, the rest of the reservation is released. */
    cancel: (jobId: string, signal?: AbortSignal) =>
      send(
        () => api.POST("/api/v1/bulk/jobs/{jobId}/cancel", { params: { path: { jobId } }, signal }),
        signal,
      ),
  };

  const webhooks = {
    /** Registers an endpoint; its `whsec_…` secret is in this answer only. */
    create: (request: WebhookEndpointRequest, signal?: AbortSignal) =>
      send(() => api.POST("/api/v1/webhooks", { body: request, signal }), signal),
    list: (signal?: AbortSignal): Promise<WebhookEndpoint[]> =>
      send(() => api.GET("/api/v1/webhooks", { signal }), signal),
    delete: (endpointId: string, signal?: AbortSignal) =>
      send(
        () =>
          api.DELETE("/api/v1/webhooks/{endpointId}", { params: { path: { endpointId } }, signal }),
        signal,
      ),
  };

  return {
    names: {
      /** Splits one name into given name and surname. */
      parse: lookup("/api/v1/name/parse"),
      /** Splits up to 100 names; each row is answered and billed on its own. */
      parseBatch: lookup("/api/v1/name/parse/batch"),
    },
    /** Finds a verified work email (modes `email`, `company`, `network`). */
    find: lookup("/api/v1/find"),
    /** Finds a person's public professional-network profile. */
    networkSearch: lookup("/api/v1/network-search"),
    /** Turns an email address into a contact profile. */
    enrichEmail: lookup("/api/v1/enrich/email"),
    /** Verifies one address: a verdict, the checks, the domain's mail setup, the SMTP evidence. */
    verify: lookup("/api/v1/verify"),
    /**
     * A company's mail pattern and a page of the people the service knows there (`domain` or
     * `company`; page with `cursor`). Billed only for a page that delivers a verified email.
     */
    domainSearch: lookup("/api/v1/domain-search"),
    /** How many people and verified addresses the service holds at a domain. Free. */
    domainCount: (domain: string, signal?: AbortSignal): Promise<DomainCountAnswer> =>
      send(
        () => api.GET("/api/v1/domain-search/count", { params: { query: { domain } }, signal }),
        signal,
      ),
    leadSearch,
    bulk,
    webhooks,
    /** The ledger, one line per call, run or job, newest first; page with `cursor`. Free. */
    getLedger: (
      query: { cursor?: string; limit?: string; from?: string; to?: string } = {},
      signal?: AbortSignal,
    ): Promise<{ lines: LedgerLine[]; nextCursor: number | null }> =>
      send(() => api.GET("/api/v1/points/ledger", { params: { query }, signal }), signal),
    /** The workspace's audit log, newest first; page with `cursor`. Free. */
    getAuditLog: (
      query: { cursor?: string; limit?: string } = {},
      signal?: AbortSignal,
    ): Promise<{ entries: AuditEntry[]; nextCursor: number | null }> =>
      send(() => api.GET("/api/v1/audit-log", { params: { query }, signal }), signal),
    /** The balance and the price table. Free. */
    getPoints: (signal?: AbortSignal): Promise<Points> =>
      send(() => api.GET("/api/v1/points", { signal }), signal),
    /** Store status; no key needed. Resolves for 200 and 503 alike (read `status`). */
    getHealth: async (signal?: AbortSignal): Promise<Health> => {
      const { data, error, response } = await api.GET("/healthz", { signal });
      const health = data ?? error;
      if (!health || typeof health !== "object" || !("status" in health)) {
        throw toApiError(response, error);
      }
      return health as Health;
    },
    /** The service's OpenAPI 3.1 document. */
    getOpenApiDocument: async (signal?: AbortSignal): Promise<Record<string, unknown>> => {
      const { data, error, response } = await api.GET("/api/v1/openapi.json", { signal });
      if (!data) throw toApiError(response, error);
      return data;
    },
  };
}

/** A refusal's JSON envelope, whatever the body was read as. */
async function readJson(response: Response, text: unknown): Promise<unknown> {
  try {
    return typeof text === "string" ? JSON.parse(text) : await response.json();
  } catch {
    return undefined;
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", abort, { once: true });
  });
}

export { ApiError };
