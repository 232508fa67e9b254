/**
 * Web search through the Brave Search API (`GET …/res/v1/web/search`), as the `WebSearch` port.
 *
 * Request: `q` (at most 400 characters and 50 words, Brave's limits: a longer query is cut at a
 * word boundary, and a double quote left open by the cut is dropped) and `count` (1–20, default
 * 10), with `X-Subscription-Token: key` and `Accept: application/json`.
 *
 * Answer, parsed with zod: `{ type: "search", query: {…}, web?: { results: [ { title, url,
 * description, extra_snippets?, … } ] } }`. `web` is absent when nothing matched: a completed
 * search with no results. Titles and descriptions carry `<strong>` highlights and HTML entities:
 * both are turned into plain text (`stripHtml`). `extra_snippets` (some plans) are cleaned the
 * same way and kept apart in `extraSnippets`, not joined into `snippet`, so the snippet stays the
 * one excerpt the provider shows and a reader can weigh the extras as secondary evidence.
 *
 * Failures are values: 429 (`RATE_LIMITED`, `QUOTA_LIMITED`) → `rate-limited`, with
 * `retryAfterSeconds` from the `X-RateLimit-Remaining`/`X-RateLimit-Reset` windows (the longest
 * exhausted one); 401, 403 and 422 (a wrong or missing token) → `bad-key`, except a 422 that
 * Brave explains as a validation error of query parameters only (our request, not the key) →
 * `provider-error`; other statuses, a body that is not JSON or not the shape above →
 * `provider-error`; no answer within `timeoutMs` or a network failure → `timeout`. Both error
 * body shapes are read (documented `{ type: "ErrorResponse", errors: [ { code, detail, status }
 * ] }`, seen live `{ error: { code, detail, status, meta } }`), only for their codes: nothing the
 * provider wrote, and never the key, is put into an answer.
 */
import { z } from "zod";
import { fetchAnswer } from "./fetch_answer.ts";
import type { WebSearch, WebSearchAnswer, WebSearchResult } from "./port.ts";
import { stripHtml } from "./strip_html.ts";

export interface BraveSearchOptions {
  /** The web-search endpoint, e.g. `https://api.search.brave.com/res/v1/web/search`. */
  url: string;
  /** The subscription token, sent as `X-Subscription-Token`. */
  key: string;
  fetch?: typeof fetch;
  /** Give up on a search after this long (the whole answer read); default 8000 ms. */
  timeoutMs?: number;
}

export const DEFAULT_BRAVE_TIMEOUT_MS = 8000;
export const BRAVE_MAX_QUERY_CHARS = 400;
export const BRAVE_MAX_QUERY_WORDS = 50;
export const BRAVE_MAX_COUNT = 20;
const DEFAULT_COUNT = 10;

const BraveResult = z.object({
  title: z.string(),
  url: z.string(),
  description: z.string().nullish(),
  extra_snippets: z.array(z.string()).nullish(),
});

const BraveAnswer = z.object({
  type: z.literal("search"),
  query: z.object({ original: z.string().optional() }),
  web: z.object({ results: z.array(BraveResult) }).nullish(),
});

const BraveErrorItem = z.object({
  code: z.string().optional(),
  meta: z.object({
    errors: z.array(z.object({ loc: z.array(z.unknown()).optional() })).optional(),
  }).nullish(),
});

const BraveError = z.union([
  z.object({ error: BraveErrorItem }),
  z.object({ errors: z.array(BraveErrorItem).min(1) }),
]);

export function createBraveSearch(options: BraveSearchOptions): WebSearch {
  const endpoint = new URL(options.url);
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_BRAVE_TIMEOUT_MS;
  const headers = { "X-Subscription-Token": options.key, "Accept": "application/json" };

  return {
    name: "brave",
    async search(query: string, searchOptions?: { count?: number }): Promise<WebSearchAnswer> {
      const q = braveQuery(query);
      if (q === "") return { kind: "results", results: [] };
      const url = new URL(endpoint);
      url.searchParams.set("q", q);
      url.searchParams.set("count", String(clampCount(searchOptions?.count)));
      const fetched = await fetchAnswer(doFetch, url, { headers, timeoutMs });
      if (fetched.kind === "timeout") return { kind: "unavailable", why: "timeout" };
      const { status, text } = fetched;
      if (status === 429) {
        const retryAfterSeconds = rateLimitResetSeconds(fetched.headers);
        return {
          kind: "unavailable",
          why: "rate-limited",
          ...(retryAfterSeconds === null ? {} : { retryAfterSeconds }),
        };
      }
      if (status === 401 || status === 403) return { kind: "unavailable", why: "bad-key" };
      if (status === 422) {
        return { kind: "unavailable", why: isQueryValidation(text) ? "provider-error" : "bad-key" };
      }
      if (status !== 200) return { kind: "unavailable", why: "provider-error" };
      const parsed = BraveAnswer.safeParse(parseJson(text));
      if (!parsed.success) return { kind: "unavailable", why: "provider-error" };
      return { kind: "results", results: (parsed.data.web?.results ?? []).map(toResult) };
    },
  };
}

function toResult(result: z.infer<typeof BraveResult>): WebSearchResult {
  const extras = (result.extra_snippets ?? []).map(stripHtml).filter((s) => s !== "");
  return {
    title: stripHtml(result.title),
    url: result.url.trim(),
    snippet: stripHtml(result.description ?? ""),
    ...(extras.length > 0 ? { extraSnippets: extras } : {}),
  };
}

/**
 * The query within Brave's limits: whitespace collapsed, at most 50 words and 400 characters
 * (code points), cut at a word boundary; a double quote left unpaired by a cut is dropped.
 */
export function braveQuery(query: string): string {
  const q = query.normalize("NFC").replace(/\s+/gu, " ").trim();
  let cut = q;
  const words = cut.split(" ");
  if (words.length > BRAVE_MAX_QUERY_WORDS) cut = words.slice(0, BRAVE_MAX_QUERY_WORDS).join(" ");
  const chars = Array.from(cut);
  if (chars.length > BRAVE_MAX_QUERY_CHARS) {
    let head = chars.slice(0, BRAVE_MAX_QUERY_CHARS).join("");
    if (chars[BRAVE_MAX_QUERY_CHARS] !== " ") {
      const space = head.lastIndexOf(" ");
      if (space > 0) head = head.slice(0, space);
    }
    cut = head.trim();
  }
  if (cut !== q && (cut.match(/"/g)?.length ?? 0) % 2 === 1) {
    const open = cut.lastIndexOf('"');
    cut = (cut.slice(0, open) + cut.slice(open + 1)).replace(/\s+/gu, " ").trim();
  }
  return cut;
}

function clampCount(count: number | undefined): number {
  if (count === undefined || !Number.isFinite(count)) return DEFAULT_COUNT;
  return Math.min(BRAVE_MAX_COUNT, Math.max(1, Math.trunc(count)));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A 422 whose every validation error is located in the query string, none in a header. */
function isQueryValidation(text: string): boolean {
  const parsed = BraveError.safeParse(parseJson(text));
  if (!parsed.success) return false;
  const items = "error" in parsed.data ? [parsed.data.error] : parsed.data.errors;
  return items.every((item) => {
    if (item.code !== "VALIDATION") return false;
    const located = item.meta?.errors ?? [];
    return located.length > 0 && located.every((e) => e.loc?.[0] === "query");
  });
}

/**
 * Seconds until the rate limit lifts, from Brave's per-window headers (`X-RateLimit-Remaining:
 * 0, 14999` with `X-RateLimit-Reset: 1, 1419704`: the longest reset among exhausted windows, else
 * the first window's), or `Retry-After` in seconds; null when neither says.
 */
function rateLimitResetSeconds(headers: Headers): number | null {
  const resets = numberList(headers.get("x-ratelimit-reset"));
  const remaining = numberList(headers.get("x-ratelimit-remaining"));
  if (resets.length > 0) {
    const exhausted = resets.filter((_, i) => remaining[i] === 0);
    const seconds = exhausted.length > 0 ? Math.max(...exhausted) : resets[0];
    if (seconds !== undefined && Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  }
  const retryAfter = headers.get("retry-after")?.trim();
  if (retryAfter && /^[0-9]+$/.test(retryAfter)) return Number(retryAfter);
  return null;
}

function numberList(value: string | null): number[] {
  if (!value) return [];
  return value.split(",").map((part) => {
    const trimmed = part.trim();
    return /^[0-9]+(\.[0-9]+)?$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  });
}
