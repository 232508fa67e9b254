/**
 * A fake GitHub REST API on 127.0.0.1 for the reverse-lookup tests, speaking the real wire shapes
 * (`../shared/notes/providers.md`):
 *
 * - `GET /search/users?q=TERM+in:email` → `{ total_count, incomplete_results, items: [ { login,
 *   id, node_id, avatar_url, gravatar_id, url, html_url, …_url, type, user_view_type, site_admin,
 *   score } ] }`: the accounts whose searchable addresses (`emails`) include TERM, compared without
 *   case (without `in:email`, logins and names match too). A missing or blank `q` is GitHub's 422
 *   `{ message: "Validation Failed", errors: [ { resource, field, code } ], documentation_url,
 *   status }`.
 * - `GET /users/{login}` (any case) → `{ login, id, …, html_url, type, site_admin, name, company,
 *   blog, location, email, hireable, bio, twitter_username, public_repos, public_gists,
 *   followers, following, created_at, updated_at }`; unknown → 404 `{ message: "Not Found",
 *   documentation_url, status: "404" }`.
 * - A request without a `User-Agent` gets GitHub's 403 text. With `token` set, a request with
 *   another token gets 401 `{ message: "Bad credentials", … }`; one without any is served
 *   unauthenticated (lower limits). Every answer carries `x-ratelimit-limit`, `-remaining`,
 *   `-reset` (a Unix time), `-used` and `-resource` (`search`: 30 a minute with a token, 10
 *   without; `core`: 5,000 / 60 an hour).
 * - On demand: 401; `403-rate` and 429 (`x-ratelimit-remaining: 0`, `{ message: "API rate limit
 *   exceeded for …", documentation_url }`); `403-secondary` (a `retry-after` header, remaining
 *   above zero); a plain 403; 422; 500; a truncated JSON body; a body of the wrong shape; a search
 *   flagged `incomplete_results`; a slow answer. `failOn` limits the failure to one endpoint.
 */
import { jsonAnswer, serveFake, sleep } from "./fake_http.ts";

export interface FakeGithubUser {
  login: string;
  name?: string | null;
  company?: string | null;
  blog?: string | null;
  location?: string | null;
  /** The public profile email shown by `/users/{login}`. */
  email?: string | null;
  bio?: string | null;
  twitter_username?: string | null;
  /** The addresses `in:email` search finds this account by. */
  emails?: string[];
  /** Default `User`. */
  type?: "User" | "Organization";
}

export type FakeGithubFailure =
  | 401
  | 403
  | "403-rate"
  | "403-secondary"
  | 422
  | 429
  | 500
  | "malformed"
  | "wrong-shape"
  | "incomplete"
  | "slow";

export interface FakeGithubOptions {
  /** When set, a request with another token gets 401 (one with no token is served without). */
  token?: string | null;
  users?: FakeGithubUser[];
  failWith?: FakeGithubFailure;
  /** Fail only this endpoint (default: both). */
  failOn?: "search" | "user";
  /** How long a `slow` answer waits before answering (default 10 s); closing the fake ends it. */
  slowMs?: number;
}

export interface FakeGithub {
  /** The API base, like `https://api.github.com`. */
  url: string;
  /** Every request, in arrival order. */
  requests: URL[];
  /** The headers of every request, in the same order. */
  headers: Headers[];
  close(): Promise<void>;
}

const DOCS = "https://docs.github.com/rest";
const RATE_DOCS =
  "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits";

export function startFakeGithub(options: FakeGithubOptions = {}): FakeGithub {
  const token = options.token ?? null;
  const users = options.users ?? [];
  const used = { search: 0, core: 0 };
  let base = "";

  const fake = serveFake(async (request, url) => {
    if (!request.headers.get("user-agent")) {
      return new Response(
        "Request forbidden by administrative rules. Please make sure your request has a " +
          "User-Agent header (https://docs.github.com/en/rest/overview/resources-in-the-rest-api" +
          "#user-agent-required). Check https://developer.github.com for other possible causes.\n",
        { status: 403, headers: { "content-type": "text/html; charset=utf-8" } },
      );
    }
    const authorization = request.headers.get("authorization");
    const resource = url.pathname === "/search/users" ? "search" : "core";
    const limit = resource === "search" ? (authorization ? 30 : 10) : (authorization ? 5000 : 60);
    used[resource]++;
    const resetAt = Math.floor(Date.now() / 1000) + (resource === "search" ? 60 : 3600);
    const rate = (remaining: number) => ({
      "x-ratelimit-limit": String(limit),
      "x-ratelimit-remaining": String(remaining),
      "x-ratelimit-reset": String(resetAt),
      "x-ratelimit-used": String(Math.min(limit, used[resource])),
      "x-ratelimit-resource": resource,
    });
    const okRate = rate(Math.max(1, limit - used[resource]));

    if (token !== null && authorization !== null) {
      const sent = authorization.replace(/^(?:Bearer|token)\s+/i, "");
      if (sent !== token) {
        return jsonAnswer(401, {
          message: "Bad credentials",
          documentation_url: DOCS,
          status: "401",
        }, {
          ...okRate,
        });
      }
    }
    const endpoint = resource === "search" ? "search" : "user";
    if (options.failWith !== undefined && (!options.failOn || options.failOn === endpoint)) {
      const failure = await fail(options, rate, okRate, fake.closing);
      if (failure) return failure;
    }
    if (request.method !== "GET") return notFound(okRate);
    if (url.pathname === "/search/users") {
      return search(users, url, base, options.failWith === "incomplete", okRate);
    }
    const match = /^\/users\/([^/]+)$/.exec(url.pathname);
    if (!match) return notFound(okRate);
    const login = decodeURIComponent(match[1]).toLowerCase();
    const index = users.findIndex((u) => u.login.toLowerCase() === login);
    if (index < 0) return notFound(okRate);
    return jsonAnswer(200, fullUser(users[index], index, base), okRate);
  });

  const port = fake.port;
  base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    requests: fake.requests,
    headers: fake.headers,
    close: fake.close,
  };
}

async function fail(
  options: FakeGithubOptions,
  rate: (remaining: number) => Record<string, string>,
  okRate: Record<string, string>,
  closing: AbortSignal,
): Promise<Response | null> {
  const exceeded = {
    message: "API rate limit exceeded for 127.0.0.1. (But here's the good news: Authenticated " +
      "requests get a higher rate limit. Check out the documentation for more details.)",
    documentation_url:
      "https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting",
  };
  switch (options.failWith) {
    case 401:
      return jsonAnswer(
        401,
        { message: "Bad credentials", documentation_url: DOCS, status: "401" },
        okRate,
      );
    case 403:
      return jsonAnswer(403, {
        message: "Resource not accessible by personal access token",
        documentation_url: DOCS,
        status: "403",
      }, okRate);
    case "403-rate":
      return jsonAnswer(403, exceeded, rate(0));
    case 429:
      return jsonAnswer(429, exceeded, rate(0));
    case "403-secondary":
      return jsonAnswer(403, {
        message: "You have exceeded a secondary rate limit. Please wait a few minutes before you " +
          "try again. If you reach out to GitHub Support for help, please include the request ID " +
          "FAKE:1234:5678:9ABC:DEF0.",
        documentation_url: RATE_DOCS,
      }, { ...okRate, "retry-after": "60" });
    case 422:
      return jsonAnswer(422, {
        message: "Validation Failed",
        errors: [{
          message: "The listed users cannot be searched either because the users do not exist " +
            "or you do not have permission to view the users.",
          resource: "Search",
          field: "q",
          code: "invalid",
        }],
        documentation_url: "https://docs.github.com/v3/search/",
        status: "422",
      }, okRate);
    case 500:
      return new Response("<html><body><h1>Unicorn!</h1></body></html>", {
        status: 500,
        headers: { "content-type": "text/html", ...okRate },
      });
    case "malformed":
      return new Response('{"total_count":1,"incomplete_results":false,"items":[{"login":"', {
        status: 200,
        headers: { "content-type": "application/json; charset=utf-8", ...okRate },
      });
    case "wrong-shape":
      return jsonAnswer(200, { total_count: "one", items: null }, okRate);
    case "slow":
      await sleep(options.slowMs ?? 10_000, closing);
      return null;
    default:
      return null;
  }
}

function search(
  users: FakeGithubUser[],
  url: URL,
  base: string,
  incomplete: boolean,
  rate: Record<string, string>,
): Response {
  const q = url.searchParams.get("q")?.trim() ?? "";
  if (q === "") {
    return jsonAnswer(422, {
      message: "Validation Failed",
      errors: [{ resource: "Search", field: "q", code: "missing" }],
      documentation_url: "https://docs.github.com/v3/search",
      status: "422",
    }, rate);
  }
  const words = q.split(/\s+/);
  const inEmail = words.some((w) => w.toLowerCase() === "in:email");
  const terms = words.filter((w) => !w.includes(":")).map((w) => w.toLowerCase());
  const matches = users
    .map((user, index) => ({ user, index }))
    .filter(({ user }) =>
      terms.length > 0 &&
      terms.every((term) =>
        (user.emails ?? []).some((e) => e.toLowerCase() === term) ||
        (!inEmail &&
          (user.login.toLowerCase() === term || (user.name ?? "").toLowerCase().includes(term)))
      )
    );
  return jsonAnswer(200, {
    total_count: matches.length,
    incomplete_results: incomplete,
    items: matches.map(({ user, index }) => ({ ...briefUser(user, index, base), score: 1.0 })),
  }, rate);
}

function briefUser(user: FakeGithubUser, index: number, base: string): Record<string, unknown> {
  const id = 1000 + index;
  const api = `${base}/users/${user.login}`;
  return {
    login: user.login,
    id,
    node_id: `U_kgDO${id}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    gravatar_id: "",
    url: api,
    html_url: `https://github.com/${user.login}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type: user.type ?? "User",
    user_view_type: "public",
    site_admin: false,
  };
}

function fullUser(user: FakeGithubUser, index: number, base: string): Record<string, unknown> {
  return {
    ...briefUser(user, index, base),
    name: user.name ?? null,
    company: user.company ?? null,
    blog: user.blog ?? "",
    location: user.location ?? null,
    email: user.email ?? null,
    hireable: null,
    bio: user.bio ?? null,
    twitter_username: user.twitter_username ?? null,
    public_repos: 12,
    public_gists: 1,
    followers: 34,
    following: 5,
    created_at: "2014-03-08T10:11:12Z",
    updated_at: "2026-10-30T08:00:00Z",
  };
}

function notFound(rate: Record<string, string>): Response {
  return jsonAnswer(404, { message: "Not Found", documentation_url: DOCS, status: "404" }, rate);
}
