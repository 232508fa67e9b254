/**
 * Reverse lookup on GitHub's REST API: `GET {url}/search/users?q=EMAIL+in:email` finds accounts
 * whose public profile email is the address (private emails are never searchable), then
 * `GET {url}/users/{login}` reads the one account's public profile.
 *
 * Which account: no item → not-found; items but no `type: "User"` (organisations only) →
 * not-found; exactly one User → that account; several Users → not-found, since nothing says which
 * of them owns the address and stating another person's data is worse than stating none. When
 * GitHub flags `incomplete_results` (its search timed out) the count cannot be trusted, so the
 * lookup is provider-error rather than a guess either way.
 *
 * Every request sends `Accept: application/vnd.github+json`, the required `User-Agent`,
 * `X-GitHub-Api-Version: 2022-11-28`, and `Authorization: Bearer TOKEN` only when a token is
 * configured (search allows 10 requests a minute without one, 30 with).
 *
 * Mapping to `StatedFields`: `name`; `company` → companyName without a leading `@` (`@acme` →
 * `acme`); `blog` → companyWebsite when it is a URL or a bare domain that is not a social or
 * profile platform (a professional-network profile there → networkUrl, an X or Telegram page → x
 * or telegram); `location`; `bio` → headline; `html_url` → profileUrl; `twitter_username` → x;
 * the public `email`, when it is another address than the one asked, → associatedEmails. Every
 * field passes through `dropPhones`.
 *
 * Failures are values: 403 or 429 with `x-ratelimit-remaining: 0`, a `retry-after` header, or a
 * body saying a rate limit was exceeded → rate-limited (the message says when the limit resets;
 * the adapter never waits); 401 → bad-key; any other 403 → bad-key with a token, provider-error
 * without; 422 (invalid search), other statuses, a body that is not JSON or not the shape expected
 * → provider-error; no answer in time or a network failure → timeout. A 404 for the user (the
 * account went away between the two requests) → not-found. Messages never hold the address, a
 * login, a URL or GitHub's own message.
 */
import { z } from "zod";
import { dropPhones } from "./drop_phones.ts";
import {
  httpUrl,
  isNetworkProfileUrl,
  isPlatformHost,
  telegramHandle,
  xHandle,
} from "./gravatar.ts";
import { DEFAULT_PROFILE_NETWORK, type ProfileNetwork } from "../../shared/profile_network.ts";
import type { ReverseLookup, ReverseLookupAnswer, StatedFields } from "./port.ts";
import { LookupFailure, lookupWithDeadline } from "./lookup_with_deadline.ts";

export interface GithubLookupOptions {
  /** The API base, e.g. `https://api.github.com`. */
  url: string;
  /** A GitHub token, or null to ask without one (lower limits). */
  token: string | null;
  fetch?: typeof fetch;
  /** The whole lookup (both requests) gives up after this long; default 5000 ms. */
  timeoutMs?: number;
  /** Sent on every request; GitHub refuses requests without one. */
  userAgent: string;
  /** The professional network whose profile links are stated as `networkUrl` (default: the real one). */
  network?: ProfileNetwork;
  /** Whether a URL is a professional-network profile (default: Gravatar's `isNetworkProfileUrl`). */
  isNetworkProfile?: (url: string) => boolean;
}

export const DEFAULT_GITHUB_TIMEOUT_MS = 5000;

const text = z.string().nullish();

const SearchAnswer = z.object({
  total_count: z.number(),
  incomplete_results: z.boolean(),
  items: z.array(z.object({
    login: z.string(),
    id: z.number(),
    html_url: text,
    url: text,
    type: z.string(),
  })),
});

const UserAnswer = z.object({
  login: z.string(),
  name: text,
  company: text,
  blog: text,
  location: text,
  email: text,
  bio: text,
  twitter_username: text,
  html_url: text,
});

type User = z.infer<typeof UserAnswer>;

const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;

export function createGithubLookup(options: GithubLookupOptions): ReverseLookup {
  const userAgent = options.userAgent.trim();
  if (userAgent === "") {
    throw new Error("createGithubLookup: userAgent must not be empty (GitHub requires one)");
  }
  const base = options.url.replace(/\/+$/, "");
  new URL(base); // a malformed base URL fails here, at start-up
  const token = options.token?.trim() || null;
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_GITHUB_TIMEOUT_MS;
  const network = options.network ?? DEFAULT_PROFILE_NETWORK;
  const isNetworkProfile = options.isNetworkProfile ??
    ((url: string) => isNetworkProfileUrl(url, network));

  const headers: Record<string, string> = {
    "Accept": "application/vnd.github+json",
    "User-Agent": userAgent,
    "X-GitHub-Api-Version": "2022-11-28",
  };
  if (token) headers["Authorization"] = `Bearer ${token}`;

  /** The parsed JSON body, or null for a 404. */
  async function get(url: URL, what: string, signal: AbortSignal): Promise<unknown | null> {
    const response = await doFetch(url, { headers, signal });
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    const body = await response.text();
    if (!response.ok) throw statusFailure(response, body, what, token !== null);
    try {
      return JSON.parse(body);
    } catch {
      throw new LookupFailure("provider-error", `GitHub's answer to ${what} was not valid JSON`);
    }
  }

  function parse<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      throw new LookupFailure(
        "provider-error",
        `GitHub's answer to ${what} did not have the expected shape`,
      );
    }
    return parsed.data;
  }

  async function lookUp(email: string, signal: AbortSignal): Promise<ReverseLookupAnswer> {
    const search = new URL(`${base}/search/users`);
    search.searchParams.set("q", `${email} in:email`);
    const found = await get(search, "the user search", signal);
    if (found === null) {
      throw new LookupFailure("provider-error", "GitHub answered HTTP 404 to the user search");
    }
    const answer = parse(SearchAnswer, found, "the user search");
    if (answer.incomplete_results) {
      throw new LookupFailure(
        "provider-error",
        "GitHub's user search was incomplete (its search timed out)",
      );
    }
    const users = answer.items.filter((item) => item.type === "User");
    if (users.length !== 1) return { kind: "not-found" };
    const login = users[0].login;
    if (!LOGIN.test(login)) {
      throw new LookupFailure("provider-error", "GitHub's user search named an invalid login");
    }
    const body = await get(
      new URL(`${base}/users/${encodeURIComponent(login)}`),
      "the user profile",
      signal,
    );
    if (body === null) return { kind: "not-found" };
    const user = parse(UserAnswer, body, "the user profile");
    return { kind: "found", fields: statedFields(user, email, isNetworkProfile) };
  }

  return {
    source: "github",
    async lookup(email: string): Promise<ReverseLookupAnswer> {
      const asked = email.trim().toLowerCase();
      if (asked === "") return { kind: "not-found" };
      return await lookupWithDeadline("GitHub", timeoutMs, (signal) => lookUp(asked, signal));
    },
  };
}

function statusFailure(
  response: Response,
  body: string,
  what: string,
  withToken: boolean,
): LookupFailure {
  const status = response.status;
  const headers = response.headers;
  if (status === 403 || status === 429) {
    const limited = headers.get("x-ratelimit-remaining")?.trim() === "0" ||
      headers.has("retry-after") || status === 429 || /rate limit/i.test(errorMessage(body));
    if (limited) {
      return new LookupFailure(
        "rate-limited",
        `GitHub is rate limiting lookups (HTTP ${status} to ${what}${waitText(headers)})`,
      );
    }
    return withToken
      ? new LookupFailure("bad-key", `GitHub refused the token for ${what} (HTTP 403)`)
      : new LookupFailure("provider-error", `GitHub refused ${what} (HTTP 403)`);
  }
  if (status === 401) {
    return new LookupFailure("bad-key", `GitHub refused the credentials for ${what} (HTTP 401)`);
  }
  if (status === 422) {
    return new LookupFailure("provider-error", `GitHub rejected ${what} as invalid (HTTP 422)`);
  }
  return new LookupFailure("provider-error", `GitHub answered HTTP ${status} to ${what}`);
}

/** GitHub's `message`, read only to classify the failure (never repeated). */
function errorMessage(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === "object" && "message" in parsed) {
      return typeof parsed.message === "string" ? parsed.message : "";
    }
  } catch {
    // not JSON: nothing to read
  }
  return "";
}

/** `, retry after N s` from `retry-after`, else `, resets in N s` from `x-ratelimit-reset`. */
function waitText(headers: Headers): string {
  const retry = headers.get("retry-after")?.trim();
  if (retry && /^[0-9]+$/.test(retry)) return `, retry after ${Number(retry)} s`;
  const reset = headers.get("x-ratelimit-reset")?.trim();
  if (reset && /^[0-9]+$/.test(reset)) {
    return `, resets in ${Math.max(0, Math.ceil(Number(reset) - Date.now() / 1000))} s`;
  }
  return "";
}

function statedFields(
  user: User,
  asked: string,
  isNetworkProfile: (url: string) => boolean,
): StatedFields {
  const fields: StatedFields = {};
  const name = clean(user.name);
  if (name && !name.includes("@")) fields.name = name;
  const company = clean(clean(user.company)?.replace(/^@/, ""));
  if (company) fields.companyName = company;
  const location = clean(user.location);
  if (location) fields.location = location;
  const bio = clean(user.bio);
  if (bio) fields.headline = bio;
  if (httpUrl(user.html_url)) fields.profileUrl = user.html_url!.trim();
  const twitter = clean(user.twitter_username)?.replace(/^@/, "");
  if (twitter && /^[A-Za-z0-9_]{1,15}$/.test(twitter)) fields.x = twitter;

  const blog = clean(user.blog);
  const blogUrl = blog ? websiteUrl(blog) : null;
  if (blog && blogUrl) {
    if (isNetworkProfile(blogUrl.href)) fields.networkUrl = blog;
    else if (xHandle(blogUrl)) fields.x ??= xHandle(blogUrl);
    else if (telegramHandle(blogUrl)) fields.telegram = telegramHandle(blogUrl);
    else if (!isPlatformHost(blogUrl.hostname)) fields.companyWebsite = blog;
  }

  const other = clean(user.email)?.toLowerCase();
  if (other && other !== asked && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(other)) {
    fields.associatedEmails = [other];
  }
  return dropPhones(fields);
}

/** A `blog` value as a URL: an http(s) URL, or a bare domain (`acme.test/about`) read as https. */
function websiteUrl(value: string): URL | null {
  let url: URL | null;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) url = httpUrl(value);
  else if (/^[a-z0-9-]+(\.[a-z0-9-]+)+(?::\d+)?(?:[/?#]\S*)?$/i.test(value)) {
    url = httpUrl(`https://${value}`);
  } else return null;
  // A host name with a name for a top-level label: no IP address, no single-label host.
  const labels = url?.hostname.split(".") ?? [];
  return url && labels.length >= 2 && /[a-z]/i.test(labels[labels.length - 1]) ? url : null;
}

function clean(value: string | null | undefined): string | undefined {
  const cleaned = value?.replace(/\s+/gu, " ").trim();
  return cleaned ? cleaned : undefined;
}
