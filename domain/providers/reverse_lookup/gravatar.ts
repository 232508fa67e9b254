/**
 * Reverse lookup on Gravatar's REST API v3: `GET {url}/profiles/{hash}`, where the hash is the
 * hex SHA-256 of the trimmed, lower-cased address (Gravatar deprecated MD5 for this API).
 * `Authorization: Bearer KEY` is sent only when a key is configured (100 requests an hour per IP
 * without one, 1,000 with); a keyed answer also holds `first_name`, `last_name`, `links`,
 * `contact_info`, `languages` and `timezone`.
 *
 * What the profile states becomes `StatedFields`: `display_name` (else first + last name) → name,
 * `first_name`/`last_name` → given/surname, `job_title` → title, `company` → companyName,
 * `location`, `description` (whitespace collapsed, cut at 200 characters) → headline,
 * `profile_url` → profileUrl. From the verified accounts that are not hidden (`is_hidden: true`
 * accounts are never read) and the links: the first professional-network profile → networkUrl, a
 * Twitter/X account → x (its handle from the URL; only a verified account, never a self-typed
 * link), a `t.me` account or link → telegram, a link labelled as a company or website (not on a
 * social or profile platform) → companyWebsite. `contact_info.email`, when it is another
 * well-formed address, → associatedEmails. Phone numbers are never read from `contact_info`, and
 * every field passes through `dropPhones`.
 *
 * Failures are values: 404 (`{ error, code }`) → not-found; 429 → rate-limited (the message says
 * when `X-RateLimit-Reset` allows more; the adapter never waits); 401/403 → bad-key; other
 * statuses, a body that is not JSON or not a profile → provider-error; no answer within the
 * timeout, or a network failure → timeout. Messages never hold the address, its hash or a URL.
 */
import { z } from "zod";
import {
  canonicalProfileUrl,
  DEFAULT_PROFILE_NETWORK,
  type ProfileNetwork,
} from "../../shared/profile_network.ts";
import { dropPhones } from "./drop_phones.ts";
import type { ReverseLookup, ReverseLookupAnswer, StatedFields } from "./port.ts";
import { LookupFailure, lookupWithDeadline } from "./lookup_with_deadline.ts";

export interface GravatarLookupOptions {
  /** The API base, e.g. `https://api.gravatar.com/v3`. */
  url: string;
  /** A Gravatar API key, or null to ask without one (fewer fields, lower limit). */
  key: string | null;
  fetch?: typeof fetch;
  /** The lookup gives up after this long; default 5000 ms. */
  timeoutMs?: number;
  /** The professional network whose profile links are stated as `networkUrl` (default: the real one). */
  network?: ProfileNetwork;
  /** Whether a URL is a profile on the professional network (default: `isNetworkProfileUrl`). */
  isNetworkProfile?: (url: string) => boolean;
}

export const DEFAULT_GRAVATAR_TIMEOUT_MS = 5000;

/** Headlines longer than this are cut at a word boundary and end with "…". */
const HEADLINE_MAX = 200;

const text = z.string().nullish();

const Profile = z.object({
  display_name: text,
  first_name: text,
  last_name: text,
  profile_url: text,
  location: text,
  description: text,
  job_title: text,
  company: text,
  verified_accounts: z.array(z.object({
    service_type: text,
    service_label: text,
    url: text,
    is_hidden: z.boolean().nullish(),
  })).nullish(),
  links: z.array(z.object({ label: text, url: text })).nullish(),
  // Only `email` is read; the phone fields (`cell_phone`, `home_phone`, `work_phone`) never are.
  contact_info: z.object({ email: text }).nullish(),
});

type Profile = z.infer<typeof Profile>;

export function createGravatarLookup(options: GravatarLookupOptions): ReverseLookup {
  const base = options.url.replace(/\/+$/, "");
  new URL(base); // a malformed base URL fails here, at start-up
  const key = options.key?.trim() || null;
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_GRAVATAR_TIMEOUT_MS;
  const network = options.network ?? DEFAULT_PROFILE_NETWORK;
  const isNetworkProfile = options.isNetworkProfile ??
    ((url: string) => isNetworkProfileUrl(url, network));

  async function fetchProfile(email: string, signal: AbortSignal): Promise<Profile | null> {
    const hash = await sha256Hex(email.trim().toLowerCase());
    const headers: Record<string, string> = { "Accept": "application/json" };
    if (key) headers["Authorization"] = `Bearer ${key}`;
    const response = await doFetch(`${base}/profiles/${hash}`, { headers, signal });
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw statusFailure(response);
    }
    const raw = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      throw new LookupFailure("provider-error", "Gravatar's profile answer was not valid JSON");
    }
    const parsed = Profile.safeParse(body);
    if (!parsed.success) {
      throw new LookupFailure(
        "provider-error",
        "Gravatar's profile answer did not have the expected shape",
      );
    }
    return parsed.data;
  }

  return {
    source: "gravatar",
    async lookup(email: string): Promise<ReverseLookupAnswer> {
      const asked = email.trim().toLowerCase();
      return await lookupWithDeadline("Gravatar", timeoutMs, async (signal) => {
        const profile = await fetchProfile(asked, signal);
        if (profile === null) return { kind: "not-found" };
        return { kind: "found", fields: statedFields(profile, asked, isNetworkProfile) };
      });
    },
  };
}

function statusFailure(response: Response): LookupFailure {
  const status = response.status;
  if (status === 429) {
    return new LookupFailure(
      "rate-limited",
      `Gravatar is rate limiting lookups (HTTP 429${resetText(response.headers)})`,
    );
  }
  if (status === 401 || status === 403) {
    return new LookupFailure("bad-key", `Gravatar refused the API key (HTTP ${status})`);
  }
  return new LookupFailure(
    "provider-error",
    `Gravatar answered HTTP ${status} to a profile lookup`,
  );
}

/** `, resets in N s` from `X-RateLimit-Reset` (a Unix time), or "". */
function resetText(headers: Headers): string {
  const value = headers.get("x-ratelimit-reset")?.trim();
  if (!value || !/^[0-9]+$/.test(value)) return "";
  const at = Number(value);
  const seconds = at > 1e9 ? Math.max(0, Math.ceil(at - Date.now() / 1000)) : at;
  return `, resets in ${seconds} s`;
}

async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

function statedFields(
  profile: Profile,
  asked: string,
  isNetworkProfile: (url: string) => boolean,
): StatedFields {
  const fields: StatedFields = {};
  const given = clean(profile.first_name);
  const surname = clean(profile.last_name);
  const display = clean(profile.display_name);
  const name = display && !display.includes("@")
    ? display
    : given && surname
    ? `${given} ${surname}`
    : undefined;
  if (name) fields.name = name;
  if (given) fields.given = given;
  if (surname) fields.surname = surname;
  const title = clean(profile.job_title);
  if (title) fields.title = title;
  const company = clean(profile.company);
  if (company) fields.companyName = company;
  const location = clean(profile.location);
  if (location) fields.location = location;
  const headline = short(clean(profile.description));
  if (headline) fields.headline = headline;
  if (httpUrl(profile.profile_url)) fields.profileUrl = profile.profile_url!.trim();

  const accounts = (profile.verified_accounts ?? []).filter((a) => a.is_hidden !== true);
  const links = profile.links ?? [];
  const urls = [...accounts, ...links]
    .map((entry) => ({ stated: entry.url?.trim() ?? "", url: httpUrl(entry.url) }))
    .filter((entry): entry is { stated: string; url: URL } => entry.url !== null);

  const network = urls.find((entry) => isNetworkProfile(entry.stated));
  if (network) fields.networkUrl = network.stated;
  for (const account of accounts) {
    const type = clean(account.service_type)?.toLowerCase();
    if (type !== "twitter" && type !== "x") continue;
    const handle = xHandle(httpUrl(account.url));
    if (handle) {
      fields.x = handle;
      break;
    }
  }
  for (const { url } of urls) {
    const handle = telegramHandle(url);
    if (handle) {
      fields.telegram = handle;
      break;
    }
  }
  for (const link of links) {
    const label = clean(link.label)?.toLowerCase();
    const url = httpUrl(link.url);
    if (!label || !url || !WEBSITE_LABEL.test(label)) continue;
    if (isNetworkProfile(link.url!) || isPlatformHost(url.hostname)) continue;
    fields.companyWebsite = link.url!.trim();
    break;
  }
  const other = clean(profile.contact_info?.email)?.toLowerCase();
  if (other && other !== asked && EMAIL.test(other)) fields.associatedEmails = [other];
  return dropPhones(fields);
}

/** Link labels that state a company website. */
const WEBSITE_LABEL =
  /^(?:company|company (?:website|site|homepage)|employer|work|website|web site|homepage|home page|site)$/;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Hosts of social and profile platforms: a link there is a person's page, not a company website.
 * Subdomains count (`ada.github.io`).
 */
const PLATFORM_HOSTS = [
  "about.me",
  "behance.net",
  "bsky.app",
  "dribbble.com",
  "facebook.com",
  "github.com",
  "github.io",
  "gitlab.com",
  "gravatar.com",
  "instagram.com",
  "linktr.ee",
  "mastodon.social",
  "medium.com",
  "t.me",
  "telegram.me",
  "threads.net",
  "tiktok.com",
  "twitter.com",
  "wordpress.com",
  "x.com",
  "youtube.com",
];

/** Whether a host is (on) a social or profile platform, whose pages are no company website. */
export function isPlatformHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  return PLATFORM_HOSTS.some((platform) => host === platform || host.endsWith(`.${platform}`));
}

/**
 * Whether a URL is an http(s) link to a profile page on the professional network
 * (`canonicalProfileUrl`: `www.` and country subdomains, a language version, a query count).
 */
export function isNetworkProfileUrl(value: string, network: ProfileNetwork): boolean {
  return httpUrl(value.trim()) !== null && canonicalProfileUrl(value, network) !== null;
}

const X_HOSTS = new Set([
  "x.com",
  "twitter.com",
  "www.x.com",
  "www.twitter.com",
  "mobile.twitter.com",
]);
const X_RESERVED = new Set(["home", "i", "intent", "share", "search", "hashtag", "explore"]);

/** The handle of an X (Twitter) profile URL (`https://x.com/ada_l` → `ada_l`). */
export function xHandle(url: URL | null): string | undefined {
  if (!url || !X_HOSTS.has(url.hostname.toLowerCase())) return undefined;
  const first = (url.pathname.split("/")[1] ?? "").replace(/^@/, "");
  if (!/^[A-Za-z0-9_]{1,15}$/.test(first) || X_RESERVED.has(first.toLowerCase())) return undefined;
  return first;
}

const TELEGRAM_HOSTS = new Set(["t.me", "www.t.me", "telegram.me", "www.telegram.me"]);
const TELEGRAM_RESERVED = new Set(["joinchat", "addstickers", "share", "proxy", "socks", "s"]);

/** The handle of a Telegram URL (`https://t.me/ada_l` → `ada_l`; invite and phone links: none). */
export function telegramHandle(url: URL): string | undefined {
  if (!TELEGRAM_HOSTS.has(url.hostname.toLowerCase())) return undefined;
  const first = (url.pathname.split("/")[1] ?? "").replace(/^@/, "");
  if (!/^[A-Za-z][A-Za-z0-9_]{3,31}$/.test(first)) return undefined;
  if (TELEGRAM_RESERVED.has(first.toLowerCase())) return undefined;
  return first;
}

/** The value as an http(s) URL, or null. */
export function httpUrl(value: string | null | undefined): URL | null {
  const input = value?.trim();
  if (!input) return null;
  try {
    const url = new URL(input);
    return url.protocol === "https:" || url.protocol === "http:" ? url : null;
  } catch {
    return null;
  }
}

function clean(value: string | null | undefined): string | undefined {
  const cleaned = value?.replace(/\s+/gu, " ").trim();
  return cleaned ? cleaned : undefined;
}

function short(value: string | undefined): string | undefined {
  if (!value || value.length <= HEADLINE_MAX) return value;
  const cut = value.slice(0, HEADLINE_MAX - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > HEADLINE_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
