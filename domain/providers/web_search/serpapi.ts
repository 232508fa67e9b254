/**
 * Web search through SerpApi's Google engine (`GET …/search.json`), as the `WebSearch` port.
 *
 * Request: `engine=google`, `q` (whitespace collapsed; SerpApi states no length limit, Google
 * reads 32 words), `api_key` (SerpApi takes the key only in the query string, so the request URL
 * is a secret: nothing built from it is ever returned) and `num` (1–100, default 10).
 *
 * Answer, parsed with zod: `{ search_metadata: { status: "Success" | "Error" | …, … },
 * organic_results?: [ { position, title, link, displayed_link, snippet, snippet_highlighted_words,
 * source } ], error? }`. Status `Success` without `organic_results` is Google returning nothing
 * (SerpApi adds an `error` text saying so): a completed search with no results, not a failure.
 * Titles and snippets are plain text already; they go through `stripHtml` anyway (entities,
 * stray tags, whitespace), as Brave's do.
 *
 * Failures are values: 401 and 403 (a wrong, missing or disabled key) → `bad-key`; 429 (out of
 * searches, or the hourly limit) → `rate-limited` (with `retryAfterSeconds` when a `Retry-After`
 * header says); 400 (a request SerpApi refused), other statuses, 5xx, a body that is not JSON or
 * not the shape above, and HTTP 200 with any status but `Success` → `provider-error`; no answer
 * within `timeoutMs` or a network failure → `timeout`. SerpApi's `{ "error": "…" }` text is never
 * read into an answer.
 */
import { z } from "zod";
import { fetchAnswer } from "./fetch_answer.ts";
import type { WebSearch, WebSearchAnswer, WebSearchResult } from "./port.ts";
import { stripHtml } from "./strip_html.ts";

export interface SerpApiSearchOptions {
  /** The search endpoint, e.g. `https://serpapi.com/search.json`. */
  url: string;
  /** The API key, sent as the `api_key` parameter. */
  key: string;
  fetch?: typeof fetch;
  /** Give up on a search after this long (the whole answer read); default 10000 ms. */
  timeoutMs?: number;
}

/** SerpApi runs the Google search live (a few seconds is ordinary), so it waits longer than Brave. */
export const DEFAULT_SERPAPI_TIMEOUT_MS = 10_000;
export const SERPAPI_MAX_COUNT = 100;
const DEFAULT_COUNT = 10;

const OrganicResult = z.object({
  title: z.string(),
  link: z.string(),
  snippet: z.string().nullish(),
});

const SerpApiAnswer = z.object({
  search_metadata: z.object({ status: z.string() }),
  organic_results: z.array(OrganicResult).nullish(),
});

export function createSerpApiSearch(options: SerpApiSearchOptions): WebSearch {
  const endpoint = new URL(options.url);
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_SERPAPI_TIMEOUT_MS;
  const headers = { "Accept": "application/json" };

  return {
    name: "serpapi",
    async search(query: string, searchOptions?: { count?: number }): Promise<WebSearchAnswer> {
      const q = query.normalize("NFC").replace(/\s+/gu, " ").trim();
      if (q === "") return { kind: "results", results: [] };
      const url = new URL(endpoint);
      url.searchParams.set("engine", "google");
      url.searchParams.set("q", q);
      url.searchParams.set("api_key", options.key);
      url.searchParams.set("num", String(clampCount(searchOptions?.count)));
      const fetched = await fetchAnswer(doFetch, url, { headers, timeoutMs });
      if (fetched.kind === "timeout") return { kind: "unavailable", why: "timeout" };
      const { status, text } = fetched;
      if (status === 429) {
        const retryAfter = fetched.headers.get("retry-after")?.trim();
        return {
          kind: "unavailable",
          why: "rate-limited",
          ...(retryAfter && /^[0-9]+$/.test(retryAfter)
            ? { retryAfterSeconds: Number(retryAfter) }
            : {}),
        };
      }
      if (status === 401 || status === 403) return { kind: "unavailable", why: "bad-key" };
      if (status !== 200) return { kind: "unavailable", why: "provider-error" };
      const parsed = SerpApiAnswer.safeParse(parseJson(text));
      if (!parsed.success || parsed.data.search_metadata.status !== "Success") {
        return { kind: "unavailable", why: "provider-error" };
      }
      return { kind: "results", results: (parsed.data.organic_results ?? []).map(toResult) };
    },
  };
}

function toResult(result: z.infer<typeof OrganicResult>): WebSearchResult {
  return {
    title: stripHtml(result.title),
    url: result.link.trim(),
    snippet: stripHtml(result.snippet ?? ""),
  };
}

function clampCount(count: number | undefined): number {
  if (count === undefined || !Number.isFinite(count)) return DEFAULT_COUNT;
  return Math.min(SERPAPI_MAX_COUNT, Math.max(1, Math.trunc(count)));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
