/**
 * A fake SerpApi (Google engine) on 127.0.0.1 for the web-search adapter's tests (and network
 * search's), speaking the real wire shapes (`../shared/notes/providers.md`):
 *
 * - `GET /search.json?engine=google&q=…&api_key=…&num=…` → `{ search_metadata: { id, status:
 *   "Success", json_endpoint, created_at, processed_at, google_url, raw_html_file,
 *   total_time_taken }, search_parameters: { engine, q, google_domain, num, device },
 *   search_information: { query_displayed, total_results, time_taken_displayed,
 *   organic_results_state }, organic_results: [ { position, title, link, redirect_link,
 *   displayed_link, favicon, snippet, snippet_highlighted_words, source } ] }`. The snippet is
 *   plain text (the `<strong>` parts of a result's description become
 *   `snippet_highlighted_words`, its entities are decoded).
 * - Zero results: still HTTP 200 and status `Success`, no `organic_results`,
 *   `organic_results_state: "Fully empty"` and `error: "Google hasn't returned any results for
 *   this query."`.
 * - Errors `{ "error": "…" }`: 401 for a missing or wrong `api_key` ("Invalid API key. …"), 400
 *   for a missing `q` or another engine; and on demand 400, 401, 403, 429 ("Your account has run out of
 *   searches."), 429 for the hourly limit, 500, 503 (an HTML page), HTTP 200 with status
 *   `Error`, a truncated JSON body, and a slow answer (closing the fake ends the wait).
 *
 * Results come from `results` as in the Brave fake (a function of the query, a map from exact
 * query, or one list); the result builders (`profileResult`, `companyPageResult`,
 * `searchIndex`) are re-exported from there.
 */
import { serveFake } from "./fake_http.ts";
import {
  decodeEntities,
  type FakeResults,
  type FakeSearchResult,
  type FakeSearchServer,
  lookUp,
  sleep,
} from "./brave_server.ts";

export {
  companyPageResult,
  EXAMPLE_NETWORK,
  type FakeResults,
  type FakeSearchResult,
  type FakeSearchServer,
  profileResult,
  type ProfileResultOptions,
  type ProfileTitleShape,
  searchIndex,
} from "./brave_server.ts";

export type FakeSerpApiFailure =
  | 400
  | 401
  | 403
  | 429
  | "hourly"
  | 500
  | 503
  | "status-error"
  | "malformed"
  | "slow";

export interface FakeSerpApiOptions {
  /** The key the fake accepts in `api_key`. */
  key: string;
  results?: FakeResults;
  /** Fail every request this way (401/403 whatever the key; the others after its check). */
  failWith?: FakeSerpApiFailure;
  /** How long a `slow` answer waits before answering normally (default 10 s). */
  slowMs?: number;
}

const PATH = "/search.json";
export const INVALID_KEY_TEXT =
  "Invalid API key. Your API key should be here: https://serpapi.com/manage-api-key";
export const NO_RESULTS_TEXT = "Google hasn't returned any results for this query.";

export function startFakeSerpApi(options: FakeSerpApiOptions): FakeSearchServer {
  const fake = serveFake(async (_request, url) => {
    if (url.pathname !== PATH && url.pathname !== "/search") {
      return json({ error: "Not found." }, 404);
    }
    const failWith = options.failWith;
    if (failWith === 401) return json({ error: INVALID_KEY_TEXT }, 401);
    if (failWith === 403) {
      return json({ error: "The account associated with this API key has been disabled." }, 403);
    }
    if (url.searchParams.get("api_key") !== options.key) {
      return json({ error: INVALID_KEY_TEXT }, 401);
    }
    switch (failWith) {
      case 400:
        return json({ error: "Missing query `q` parameter." }, 400);
      case 429:
        return json({ error: "Your account has run out of searches." }, 429);
      case "hourly":
        return json({
          error: "Your account has exceeded the hourly searches limit of your plan. " +
            "Please try again later or upgrade your plan.",
        }, 429);
      case 500:
        return json({ error: "Internal server error. Please retry or contact support." }, 500);
      case 503:
        return new Response(
          "<html><body><h1>503 Service Unavailable</h1>No server is available to handle " +
            "this request.</body></html>",
          { status: 503, headers: { "content-type": "text/html" } },
        );
      case "malformed":
        return new Response('{"search_metadata":{"id":"', {
          status: 200,
          headers: { "content-type": "application/json; charset=utf-8" },
        });
      case "slow":
        await sleep(options.slowMs ?? 10_000, fake.closing);
        break;
    }
    const engine = url.searchParams.get("engine") ?? "google";
    if (engine !== "google") {
      return json({ error: `Unsupported \`${engine}\` search engine.` }, 400);
    }
    const q = url.searchParams.get("q");
    if (q === null || q.trim() === "") {
      return json({ error: "Missing query `q` parameter." }, 400);
    }
    const num = Math.min(100, Math.max(1, Number(url.searchParams.get("num") ?? "10") || 10));
    const metadata = searchMetadata(
      fake.port,
      q,
      failWith === "status-error" ? "Error" : "Success",
    );
    const parameters = {
      engine: "google",
      q,
      google_domain: "google.com",
      num: String(num),
      device: "desktop",
    };
    if (failWith === "status-error") {
      return json({
        search_metadata: metadata,
        search_parameters: parameters,
        error: "Google returned an error for this search. Please try again later.",
      }, 200);
    }
    const found = lookUp(options.results, q).slice(0, num);
    if (found.length === 0) {
      return json({
        search_metadata: metadata,
        search_parameters: parameters,
        search_information: {
          query_displayed: q,
          organic_results_state: "Fully empty",
        },
        error: NO_RESULTS_TEXT,
      }, 200);
    }
    return json({
      search_metadata: metadata,
      search_parameters: parameters,
      search_information: {
        query_displayed: q,
        total_results: found.length * 7,
        time_taken_displayed: 0.31,
        organic_results_state: "Results for exact spelling",
      },
      organic_results: found.map((result, index) => organicResult(result, index + 1)),
    }, 200);
  });
  const port = fake.port;
  return {
    url: `http://127.0.0.1:${port}${PATH}`,
    requests: fake.requests,
    headers: fake.headers,
    close: fake.close,
  };
}

function searchMetadata(port: number, q: string, status: "Success" | "Error") {
  const id = crypto.randomUUID().replace(/-/g, "").slice(0, 24);
  const now = new Date().toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
  return {
    id,
    status,
    json_endpoint: `http://127.0.0.1:${port}/searches/${id}.json`,
    created_at: now,
    processed_at: now,
    google_url: `https://www.google.com/search?q=${encodeURIComponent(q)}&oq=${
      encodeURIComponent(q)
    }&sourceid=chrome&ie=UTF-8`,
    raw_html_file: `http://127.0.0.1:${port}/searches/${id}.html`,
    total_time_taken: 1.42,
  };
}

function organicResult(result: FakeSearchResult, position: number): Record<string, unknown> {
  const url = new URL(result.url);
  const highlighted = [...result.description.matchAll(/<strong>(.*?)<\/strong>/g)]
    .map((m) => decodeEntities(m[1]));
  const snippet = decodeEntities(result.description.replace(/<[^>]*>/g, ""));
  const site = url.hostname.replace(/^www\./, "");
  return {
    position,
    title: result.title,
    link: result.url,
    redirect_link: `https://www.google.com/url?sa=t&url=${encodeURIComponent(result.url)}`,
    displayed_link: `${url.origin} › ${url.pathname.split("/").filter(Boolean).join(" › ")}`,
    favicon: `https://serpapi.com/searches/fake/images/${site}.png`,
    ...(snippet ? { snippet } : {}),
    ...(highlighted.length > 0 ? { snippet_highlighted_words: [...new Set(highlighted)] } : {}),
    source: result.siteName ?? site,
  };
}

function json(body: unknown, status: number): Response {
  return new Response(JSON.stringify(body, null, 2), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}
