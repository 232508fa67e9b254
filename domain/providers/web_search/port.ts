/**
 * A web-search provider as a port (Brave Search API, SerpApi): a query in, result pages out.
 * Network search, find's `network`-mode fallback and enrich's cross-reference use it to find
 * public professional-network profile pages. A provider failure is a value, never an exception.
 */

export interface WebSearchResult {
  /** The page title as the provider gives it (no HTML). */
  title: string;
  url: string;
  /** The snippet with HTML tags removed and entities decoded. */
  snippet: string;
  /**
   * More excerpts of the same page, cleaned like `snippet`, when the provider gives them (Brave's
   * `extra_snippets`, on some plans); absent otherwise. Secondary evidence only.
   */
  extraSnippets?: string[];
}

export type WebSearchUnavailable =
  | "rate-limited" // 429 (out of searches, hourly or per-second limit)
  | "bad-key" // 401/403/422: the key is missing or wrong
  | "provider-error" // 5xx, a malformed answer, an unexpected status
  | "timeout"; // no answer in time, or the network failed

export type WebSearchAnswer =
  /** A completed search; `results` may be empty (nothing matched). */
  | { kind: "results"; results: WebSearchResult[] }
  | {
    kind: "unavailable";
    why: WebSearchUnavailable;
    /** On `rate-limited`, when the provider said: seconds until its exhausted window resets. */
    retryAfterSeconds?: number;
  };

export interface WebSearch {
  /** The provider's name (`brave`, `serpapi`), for `sources` and logs. */
  readonly name: string;
  search(query: string, options?: { count?: number }): Promise<WebSearchAnswer>;
}
