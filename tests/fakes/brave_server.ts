/**
 * A fake Brave Search API on 127.0.0.1 for the web-search adapter's tests (and network search's),
 * speaking the real wire shapes (`../shared/notes/providers.md`), and the helpers that build the
 * search results of a test world (shared with the SerpApi fake):
 *
 * - `GET /res/v1/web/search?q=…&count=…` with `X-Subscription-Token` →
 *   `{ type: "search", query: { original, more_results_available, … }, mixed: {…}, web: { type:
 *   "search", results: [ { title, url, description, page_age, age, profile: { name, url,
 *   long_name, img }, meta_url: { scheme, netloc, hostname, favicon, path }, extra_snippets?, … }
 *   ], family_friendly } }`; `description` carries `<strong>` around the words of the name and
 *   HTML entities (`&#x27;`, `&amp;`); **`web` is absent when nothing matched**.
 * - `X-RateLimit-Limit`, `X-RateLimit-Policy`, `X-RateLimit-Remaining`, `X-RateLimit-Reset` on
 *   every answer, errors included (a per-second and a per-month window, as Brave sends them).
 * - Errors in Brave's shapes (`{ type: "ErrorResponse", error: { id, status, code, detail, meta }
 *   }` as seen live, or the documented `{ type: "ErrorResponse", errors: [ { code, detail,
 *   status } ] }` with `errorShape: "documented"`): 422 `VALIDATION` without the token header (its
 *   `meta.errors[].loc` names the header), 422 `SUBSCRIPTION_TOKEN_INVALID` for a wrong token,
 *   422 `VALIDATION` for a bad `q` (empty, over 400 characters or 50 words; its `input` echoes the
 *   query) or `count` (outside 1–20); and on demand 401, 403, 422, 429 `RATE_LIMITED`, 429
 *   `QUOTA_LIMITED`, 500, 503 (an HTML page), a truncated JSON body, a JSON body of the wrong
 *   shape, and a slow answer (closing the fake ends the wait).
 *
 * Results come from `results`: a function of the query, a map from exact query to results, or
 * one list for every query. `searchIndex(pool)` makes a function that answers like a search
 * engine over a pool (`site:` prefix, quoted phrases and words must match). `profileResult(…)`
 * builds a realistic profile page result in each title shape; `companyPageResult(…)` a network
 * company page that is not a profile.
 */
import {
  DEFAULT_PROFILE_NETWORK,
  type ProfileNetwork,
} from "../../domain/shared/profile_network.ts";
import { jsonAnswer, serveFake, sleep } from "./fake_http.ts";
export { sleep };

/** One search hit as the fake serves it; `description` is HTML (Brave's form). */
export interface FakeSearchResult {
  title: string;
  url: string;
  /** HTML: `<strong>` highlights and entities, as Brave sends it. */
  description: string;
  /** Brave's `extra_snippets` (HTML like `description`); SerpApi has none. */
  extraSnippets?: string[];
  /** ISO date of the page, for `page_age` / `age`. */
  pageAge?: string;
  /** The site's name as engines show it (Brave's `profile.name`, SerpApi's `source`). */
  siteName?: string;
}

export type FakeResults =
  | ((query: string) => FakeSearchResult[])
  | Record<string, FakeSearchResult[]>
  | FakeSearchResult[];

export type FakeBraveFailure =
  | 401
  | 403
  | 422
  | 429
  | "quota"
  | 500
  | 503
  | "malformed"
  | "wrong-shape"
  | "slow";

export interface FakeBraveOptions {
  /** The subscription token the fake accepts in `X-Subscription-Token`. */
  key: string;
  results?: FakeResults;
  /** Fail every request this way (401/403/422 whatever the token; the others after its check). */
  failWith?: FakeBraveFailure;
  /** How long a `slow` answer waits before answering normally (default 10 s). */
  slowMs?: number;
  /** Error bodies as seen live (`error: {…}`, default) or as documented (`errors: [ … ]`). */
  errorShape?: "live" | "documented";
}

export interface FakeSearchServer {
  /** The endpoint to configure, like `https://api.search.brave.com/res/v1/web/search`. */
  url: string;
  /** Every request, in arrival order. */
  requests: URL[];
  /** The headers of every request, in the same order. */
  headers: Headers[];
  close(): Promise<void>;
}

/**
 * The stand-in network of tests that keep a reserved host (configured with `NETWORK_PROFILE_HOST=
 * network.example`, `NETWORK_TITLE_SUFFIX=Network`); the fakes default to the real network's
 * shapes (`DEFAULT_PROFILE_NETWORK`: `https://www.linkedin.com/in/…`, "… | LinkedIn").
 */
export const EXAMPLE_NETWORK: ProfileNetwork = Object.freeze({
  host: "network.example",
  pathPrefix: "/in/",
  displayName: "Network",
});

const PATH = "/res/v1/web/search";
const MONTHLY_QUOTA = 2000;
const MONTH_RESET_SECONDS = 1_419_704;

export function startFakeBrave(options: FakeBraveOptions): FakeSearchServer {
  let used = 0;

  function rateHeaders(kind: "ok" | "second" | "month"): Record<string, string> {
    const monthLeft = kind === "month" ? 0 : Math.max(0, MONTHLY_QUOTA - used);
    return {
      "x-ratelimit-limit": `1, ${MONTHLY_QUOTA}`,
      "x-ratelimit-policy": `1;w=1, ${MONTHLY_QUOTA};w=2592000`,
      "x-ratelimit-remaining": `${kind === "second" ? 0 : 1}, ${monthLeft}`,
      "x-ratelimit-reset": `1, ${MONTH_RESET_SECONDS}`,
    };
  }

  function error(
    status: number,
    code: string,
    detail: string,
    meta: Record<string, unknown> = {},
    limit: "ok" | "second" | "month" = "ok",
  ): Response {
    const body = options.errorShape === "documented"
      ? { type: "ErrorResponse", errors: [{ code, detail, status }] }
      : {
        type: "ErrorResponse",
        error: { id: crypto.randomUUID(), status, code, detail, meta },
        time: Math.floor(Date.now() / 1000),
      };
    return jsonBody(body, status, rateHeaders(limit));
  }

  const fake = serveFake(async (request, url) => {
    if (url.pathname !== PATH) {
      return error(404, "NOT_FOUND", "The requested resource could not be found.");
    }
    const failWith = options.failWith;
    if (failWith === 401) {
      return error(401, "UNAUTHORIZED", "The request is not authorized.", {
        component: "authentication",
      });
    }
    if (failWith === 403) {
      return error(403, "FORBIDDEN", "Subscription does not grant access to this endpoint.", {
        component: "authentication",
      });
    }
    const token = request.headers.get("x-subscription-token");
    if (token === null) {
      return error(422, "VALIDATION", "Unable to validate request parameter(s)", {
        errors: [{
          type: "missing",
          loc: ["header", "x-subscription-token"],
          msg: "Field required",
          input: null,
        }],
      });
    }
    if (token !== options.key || failWith === 422) {
      return error(
        422,
        "SUBSCRIPTION_TOKEN_INVALID",
        "The provided subscription token is invalid.",
        {
          component: "authentication",
        },
      );
    }
    switch (failWith) {
      case 429:
        return error(429, "RATE_LIMITED", "Request rate limit exceeded for plan.", {
          plan: "Free",
          rate_limit: 1,
          rate_current: 1,
          quota_limit: MONTHLY_QUOTA,
          quota_current: used,
          component: "rate_limiter",
        }, "second");
      case "quota":
        return error(429, "QUOTA_LIMITED", "Request quota limit exceeded for plan.", {
          plan: "Free",
          rate_limit: 1,
          rate_current: 0,
          quota_limit: MONTHLY_QUOTA,
          quota_current: MONTHLY_QUOTA,
          component: "rate_limiter",
        }, "month");
      case 500:
        return error(500, "INTERNAL_SERVER_ERROR", "An unexpected error occurred.");
      case 503:
        return new Response(
          "<html><head><title>503 Service Temporarily Unavailable</title></head><body>" +
            "<center><h1>503 Service Temporarily Unavailable</h1></center></body></html>",
          { status: 503, headers: { "content-type": "text/html", ...rateHeaders("ok") } },
        );
      case "malformed":
        return new Response('{"type":"search","query":{"original":"', {
          status: 200,
          headers: { "content-type": "application/json", ...rateHeaders("ok") },
        });
      case "wrong-shape":
        return jsonBody(
          {
            type: "search",
            query: { original: url.searchParams.get("q") },
            web: { type: "search", results: [{ title: 42, url: null }] },
          },
          200,
          rateHeaders("ok"),
        );
      case "slow":
        await sleep(options.slowMs ?? 10_000, fake.closing);
        break;
    }
    const q = url.searchParams.get("q") ?? "";
    const invalid = validateQuery(q, url.searchParams.get("count"));
    if (invalid) {
      return error(422, "VALIDATION", "Unable to validate request parameter(s)", invalid);
    }
    used++;
    const count = Number(url.searchParams.get("count") ?? "20");
    const found = lookUp(options.results, q);
    return jsonBody(
      answer(q, found.slice(0, count), found.length > count),
      200,
      rateHeaders("ok"),
    );
  });
  const port = fake.port;
  return {
    url: `http://127.0.0.1:${port}${PATH}`,
    requests: fake.requests,
    headers: fake.headers,
    close: fake.close,
  };
}

function validateQuery(q: string, count: string | null): Record<string, unknown> | null {
  const errors: Record<string, unknown>[] = [];
  if (q.trim() === "") {
    errors.push({ type: "missing", loc: ["query", "q"], msg: "Field required", input: q });
  } else if (Array.from(q).length > 400) {
    errors.push({
      type: "string_too_long",
      loc: ["query", "q"],
      msg: "String should have at most 400 characters",
      input: q,
    });
  } else if (q.trim().split(/\s+/).length > 50) {
    errors.push({
      type: "value_error",
      loc: ["query", "q"],
      msg: "Value error, query should have at most 50 words",
      input: q,
    });
  }
  if (count !== null) {
    const n = Number(count);
    if (!Number.isInteger(n) || n < 1 || n > 20) {
      errors.push({
        type: "less_than_equal",
        loc: ["query", "count"],
        msg: "Input should be less than or equal to 20",
        input: count,
      });
    }
  }
  return errors.length > 0 ? { errors } : null;
}

function answer(q: string, results: FakeSearchResult[], more: boolean): unknown {
  const query = {
    original: q,
    show_strict_warning: false,
    is_navigational: false,
    is_news_breaking: false,
    spellcheck_off: true,
    country: "us",
    bad_results: false,
    should_fallback: false,
    postal_code: "",
    city: "",
    header_country: "",
    more_results_available: more,
    state: "",
  };
  if (results.length === 0) {
    return { type: "search", query, mixed: { type: "mixed", main: [], top: [], side: [] } };
  }
  return {
    type: "search",
    query,
    mixed: {
      type: "mixed",
      main: results.map((_, index) => ({ type: "web", index, all: false })),
      top: [],
      side: [],
    },
    web: {
      type: "search",
      results: results.map((result) => braveResult(result)),
      family_friendly: true,
    },
  };
}

function braveResult(result: FakeSearchResult): Record<string, unknown> {
  const url = new URL(result.url);
  const site = url.hostname.replace(/^www\./, "");
  const pageAge = result.pageAge ?? "2026-09-14T08:12:41";
  return {
    title: result.title,
    url: result.url,
    is_source_local: false,
    is_source_both: false,
    description: result.description,
    page_age: pageAge,
    profile: {
      name: result.siteName ?? site,
      url: result.url,
      long_name: site,
      img: `https://imgs.search.brave.com/fake/${site}/favicon.png`,
    },
    language: "en",
    family_friendly: true,
    type: "search_result",
    subtype: "generic",
    is_live: false,
    meta_url: {
      scheme: url.protocol.replace(":", ""),
      netloc: url.hostname,
      hostname: url.hostname,
      favicon: `https://imgs.search.brave.com/fake/${site}/favicon.png`,
      path: url.pathname.split("/").filter(Boolean).map((p) => `› ${p}`).join(" "),
    },
    age: new Date(pageAge).toLocaleDateString("en-US", {
      month: "long",
      day: "numeric",
      year: "numeric",
    }),
    ...(result.extraSnippets ? { extra_snippets: result.extraSnippets } : {}),
  };
}

/** The results `results` gives for a query (none for an unknown query of a map). */
export function lookUp(results: FakeResults | undefined, q: string): FakeSearchResult[] {
  if (results === undefined) return [];
  if (typeof results === "function") return results(q);
  if (Array.isArray(results)) return results;
  return results[q] ?? [];
}

// --- building a test world ---------------------------------------------------------------------

/**
 * The title shapes profile pages come in:
 * - `title-company`: "First Last - Title - Company | LinkedIn"
 * - `title-at-company`: "First Last - Title at Company | LinkedIn"
 * - `company`: "First Last – Company | LinkedIn" (en dash)
 * - `location`: "First Last - Location | LinkedIn"
 * - `title`: "First Last - Title | LinkedIn"
 * - `name`: "First Last | LinkedIn"
 */
export type ProfileTitleShape =
  | "title-company"
  | "title-at-company"
  | "company"
  | "location"
  | "title"
  | "name";

export interface ProfileResultOptions {
  name: string;
  /** The job title (headline). */
  title?: string;
  company?: string;
  location?: string;
  /** The profile's slug: `https://www.linkedin.com/in/{slug}`. */
  slug: string;
  /** The network whose page this is (default: the real one, `DEFAULT_PROFILE_NETWORK`). */
  network?: ProfileNetwork;
  /** The title's suffix when it is not the network's name (a localized "LinkedIn Deutschland"). */
  suffixText?: string;
  /** Default: `title-company` with a title and a company, else `company`, `title`, `location`. */
  shape?: ProfileTitleShape;
  /** End the title with " | LinkedIn" (default true). */
  suffix?: boolean;
  /** Cut the title to this many characters and end it with `ellipsis`, as engines do. */
  truncateAt?: number;
  ellipsis?: "…" | "...";
  /** The host's subdomain: `www` (default), a country (`uk`), or "" for the bare host. */
  subdomain?: string;
  /** Appended to the URL as the engine gives it, e.g. `?trk=public_profile` or `/`. */
  urlTail?: string;
  /**
   * The description: `labelled` (default; "Headline · Experience: Company · Location: Place ·
   * 500+ connections on Network. View <strong>First</strong> <strong>Last</strong>&#x27;s profile
   * …"), `dotted` ("Place · Title at Company"), `none` (empty).
   */
  snippet?: "labelled" | "dotted" | "none";
  /** The whole description (HTML) instead of a generated one. */
  description?: string;
  extraSnippets?: string[];
}

/** A realistic profile page result on the network, in the shape asked for. */
export function profileResult(options: ProfileResultOptions): FakeSearchResult {
  const { name, title, company, location } = options;
  const network = options.network ?? DEFAULT_PROFILE_NETWORK;
  const shape = options.shape ??
    (title && company
      ? "title-company"
      : company
      ? "company"
      : title
      ? "title"
      : location
      ? "location"
      : "name");
  const need = (value: string | undefined, field: string) => {
    if (!value) throw new Error(`profileResult: shape ${shape} needs a ${field}`);
    return value;
  };
  let text: string;
  switch (shape) {
    case "title-company":
      text = `${name} - ${need(title, "title")} - ${need(company, "company")}`;
      break;
    case "title-at-company":
      text = `${name} - ${need(title, "title")} at ${need(company, "company")}`;
      break;
    case "company":
      text = `${name} – ${need(company, "company")}`;
      break;
    case "location":
      text = `${name} - ${need(location, "location")}`;
      break;
    case "title":
      text = `${name} - ${need(title, "title")}`;
      break;
    case "name":
      text = name;
      break;
  }
  if (options.suffix ?? true) text += ` | ${options.suffixText ?? network.displayName}`;
  if (options.truncateAt !== undefined && text.length > options.truncateAt) {
    text = text.slice(0, options.truncateAt).trimEnd() + (options.ellipsis ?? "…");
  }
  const subdomain = options.subdomain ?? "www";
  const host = subdomain ? `${subdomain}.${network.host}` : network.host;
  return {
    title: text,
    url: `https://${host}${network.pathPrefix}${options.slug}${options.urlTail ?? ""}`,
    siteName: network.displayName,
    description: options.description ?? profileDescription(options, network.displayName),
    ...(options.extraSnippets ? { extraSnippets: options.extraSnippets } : {}),
  };
}

function profileDescription(options: ProfileResultOptions, networkName: string): string {
  const { name, title, company, location } = options;
  const headline = title && company ? `${title} at ${company}` : title;
  switch (options.snippet ?? "labelled") {
    case "none":
      return "";
    case "dotted":
      return [location, headline ?? company].filter(Boolean).map((s) => escapeHtml(s!)).join(
        " · ",
      );
    case "labelled": {
      const parts = [
        headline && escapeHtml(headline),
        company && `Experience: ${escapeHtml(company)}`,
        location && `Location: ${escapeHtml(location)}`,
        `500+ connections on ${networkName}`,
      ].filter(Boolean);
      const strong = name.split(" ").map((w) => `<strong>${escapeHtml(w)}</strong>`).join(" ");
      return `${parts.join(" · ")}. View ${strong}&#x27;s profile on ${networkName}, ` +
        "a professional community of 1 billion members.";
    }
  }
}

/** A company page on the network: not a profile, so network search must skip it. */
export function companyPageResult(
  options: { company: string; slug: string; network?: ProfileNetwork },
): FakeSearchResult {
  const network = options.network ?? DEFAULT_PROFILE_NETWORK;
  return {
    title: `${options.company} | ${network.displayName}`,
    url: `https://www.${network.host}/company/${options.slug}`,
    siteName: network.displayName,
    description: `<strong>${escapeHtml(options.company)}</strong> | 12,408 followers on ` +
      `${network.displayName}. Building tools for teams &amp; makers.`,
  };
}

/**
 * A search engine over a pool: a result matches when its URL is under every `site:` prefix
 * (any subdomain of the host counts) and its title, description or URL holds every quoted phrase
 * and every other word (case, diacritics and HTML ignored), in pool order.
 */
export function searchIndex(pool: FakeSearchResult[]): (query: string) => FakeSearchResult[] {
  return (query) => {
    const sites: string[] = [];
    const terms: string[] = [];
    const pattern = /site:(\S+)|"([^"]*)"|(\S+)/g;
    for (const match of query.matchAll(pattern)) {
      if (match[1]) sites.push(match[1].toLowerCase().replace(/^https?:\/\//, ""));
      else if (match[2] !== undefined) terms.push(foldText(match[2]));
      else if (match[3]) terms.push(foldText(match[3]));
    }
    return pool.filter((result) => {
      const url = new URL(result.url);
      const host = url.hostname.toLowerCase();
      const where = url.pathname.toLowerCase();
      const inSite = sites.every((site) => {
        const slash = site.indexOf("/");
        const siteHost = slash < 0 ? site : site.slice(0, slash);
        const sitePath = slash < 0 ? "" : site.slice(slash);
        return (host === siteHost || host.endsWith(`.${siteHost}`)) && where.startsWith(sitePath);
      });
      if (!inSite) return false;
      const text = foldText(
        `${result.title} ${result.description.replace(/<[^>]*>/g, "")} ${result.url}`,
      );
      return terms.every((term) => term === "" || text.includes(term));
    });
  };
}

function foldText(text: string): string {
  return decodeEntities(text).normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()
    .replace(/\s+/g, " ").trim();
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
}

/** The few entities the fakes write, decoded (SerpApi's snippets are plain text). */
export function decodeEntities(text: string): string {
  return text.replace(/&#x27;|&#39;|&quot;|&lt;|&gt;|&nbsp;|&amp;/g, (entity) =>
    ({
      "&#x27;": "'",
      "&#39;": "'",
      "&quot;": '"',
      "&lt;": "<",
      "&gt;": ">",
      "&nbsp;": " ",
      "&amp;": "&",
    })[entity]!);
}

function jsonBody(body: unknown, status: number, extra: Record<string, string>): Response {
  return jsonAnswer(status, body, extra);
}
