/**
 * A fake Gravatar REST API v3 on 127.0.0.1 for the reverse-lookup tests, speaking the real wire
 * shapes (`../shared/notes/providers.md`):
 *
 * - `GET /v3/profiles/{hash}`, the hash being the hex SHA-256 of the trimmed, lower-cased address
 *   (the fake computes it for each profile's address; an MD5 hash or a slug finds nothing) →
 *   `{ hash, display_name, profile_url, avatar_url, avatar_alt_text, location, description,
 *   job_title, company, verified_accounts: [ { service_type, service_label, service_icon, url,
 *   is_hidden } ], pronunciation, pronouns }`, empty strings for what the profile leaves blank.
 *   A request with the API key also gets `timezone, languages: [ { code, name, is_primary, order
 *   } ], first_name, last_name, is_organization, links: [ { label, url } ], interests, payments,
 *   contact_info: { home_phone, work_phone, cell_phone, email, contact_form, calendar },
 *   number_verified_accounts, last_profile_edit, registration_date`. With `key` set, a request
 *   without an `Authorization` header gets the keyless fields, one with another key gets 401;
 *   without `key`, every request gets every field.
 * - 404 `{ error: "Profile not found", code: "profile_not_found" }` for an unknown hash.
 * - `X-RateLimit-Limit` (100 without a key, 1,000 with), `X-RateLimit-Remaining` and
 *   `X-RateLimit-Reset` (a Unix time) on every answer; on demand 429 `{ error, code }` with
 *   `X-RateLimit-Remaining: 0`, 401, 403, 500, a truncated JSON body, a JSON body that is no
 *   profile, or a slow answer.
 */
import { jsonAnswer, serveFake, sleep } from "./fake_http.ts";

/** A profile as stored; any field left out is answered as Gravatar answers a blank one. */
export interface FakeGravatarProfile {
  display_name?: string;
  profile_url?: string;
  avatar_url?: string;
  avatar_alt_text?: string;
  location?: string;
  description?: string;
  job_title?: string;
  company?: string;
  pronunciation?: string;
  pronouns?: string;
  verified_accounts?: {
    service_type: string;
    service_label: string;
    service_icon?: string;
    url: string;
    is_hidden?: boolean;
  }[];
  // Only with the API key:
  first_name?: string;
  last_name?: string;
  timezone?: string;
  languages?: { code: string; name: string; is_primary: boolean; order: number }[];
  links?: { label: string; url: string }[];
  contact_info?: {
    home_phone?: string;
    work_phone?: string;
    cell_phone?: string;
    email?: string;
    contact_form?: string;
    calendar?: string;
  };
}

export type FakeGravatarFailure = 401 | 403 | 429 | 500 | "malformed" | "wrong-shape" | "slow";

export interface FakeGravatarOptions {
  /** When set, requests must carry `Authorization: Bearer KEY` to get the keyed fields. */
  key?: string | null;
  /** Profiles by email address (trimmed and lower-cased by the fake before hashing). */
  profiles?: Record<string, FakeGravatarProfile>;
  failWith?: FakeGravatarFailure;
  /** How long a `slow` answer waits before answering (default 10 s); closing the fake ends it. */
  slowMs?: number;
}

export interface FakeGravatar {
  /** The API base, like `https://api.gravatar.com/v3`. */
  url: string;
  /** Every request, in arrival order. */
  requests: URL[];
  /** The headers of every request, in the same order. */
  headers: Headers[];
  close(): Promise<void>;
}

const PREFIX = "/v3/profiles/";

export function startFakeGravatar(options: FakeGravatarOptions = {}): FakeGravatar {
  const key = options.key ?? null;
  const byHash = new Map<string, FakeGravatarProfile>();
  const ready = Promise.all(
    Object.entries(options.profiles ?? {}).map(async ([email, profile]) => {
      byHash.set(await sha256Hex(email.trim().toLowerCase()), profile);
    }),
  );
  let used = 0;

  const fake = serveFake(async (request, url) => {
    await ready;
    const authorization = request.headers.get("authorization");
    const keyed = key === null || authorization === `Bearer ${key}`;
    const limit = authorization ? 1000 : 100;
    used++;
    const rate = (remaining: number) => ({
      "x-ratelimit-limit": String(limit),
      "x-ratelimit-remaining": String(remaining),
      "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 3600),
    });
    const okRate = rate(Math.max(1, limit - used));

    if (request.method !== "GET" || !url.pathname.startsWith(PREFIX)) {
      return jsonAnswer(404, { error: "Not found", code: "not_found" }, okRate);
    }
    if (key !== null && authorization !== null && !keyed) {
      return jsonAnswer(401, { error: "Invalid API key", code: "invalid_api_key" }, okRate);
    }
    switch (options.failWith) {
      case 401:
        return jsonAnswer(401, { error: "Invalid API key", code: "invalid_api_key" }, okRate);
      case 403:
        return jsonAnswer(403, { error: "Forbidden", code: "forbidden" }, okRate);
      case 429:
        return jsonAnswer(
          429,
          { error: "Rate limit exceeded", code: "rate_limit_exceeded" },
          rate(0),
        );
      case 500:
        return jsonAnswer(
          500,
          { error: "Internal server error", code: "internal_error" },
          okRate,
        );
      case "malformed":
        return new Response('{"hash":"', {
          status: 200,
          headers: { "content-type": "application/json", ...okRate },
        });
      case "wrong-shape":
        return jsonAnswer(200, [{ display_name: ["not", "a", "string"] }], okRate);
      case "slow":
        await sleep(options.slowMs ?? 10_000, fake.closing);
        break;
    }
    const hash = url.pathname.slice(PREFIX.length).toLowerCase();
    const profile = byHash.get(hash);
    if (!profile) {
      return jsonAnswer(404, { error: "Profile not found", code: "profile_not_found" }, okRate);
    }
    return jsonAnswer(200, answer(hash, profile, keyed), okRate);
  });

  const port = fake.port;
  return {
    url: `http://127.0.0.1:${port}/v3`,
    requests: fake.requests,
    headers: fake.headers,
    close: fake.close,
  };
}

/** The profile as Gravatar answers it: keyless fields always, the rest only with the key. */
function answer(hash: string, p: FakeGravatarProfile, keyed: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {
    hash,
    display_name: p.display_name ?? "",
    profile_url: p.profile_url ?? `https://gravatar.com/u${hash.slice(0, 10)}`,
    avatar_url: p.avatar_url ?? `https://0.gravatar.com/avatar/${hash}`,
    avatar_alt_text: p.avatar_alt_text ?? "",
    location: p.location ?? "",
    description: p.description ?? "",
    job_title: p.job_title ?? "",
    company: p.company ?? "",
    verified_accounts: (p.verified_accounts ?? []).map((a) => ({
      service_type: a.service_type,
      service_label: a.service_label,
      service_icon: a.service_icon ?? `https://gravatar.com/icons/${a.service_type}-alt.svg`,
      url: a.url,
      is_hidden: a.is_hidden ?? false,
    })),
    pronunciation: p.pronunciation ?? "",
    pronouns: p.pronouns ?? "",
  };
  if (!keyed) return body;
  const accounts = (p.verified_accounts ?? []).filter((a) => !a.is_hidden);
  return {
    ...body,
    timezone: p.timezone ?? "",
    languages: p.languages ?? [],
    first_name: p.first_name ?? "",
    last_name: p.last_name ?? "",
    is_organization: false,
    links: p.links ?? [],
    interests: [],
    payments: { links: [], crypto_wallets: [] },
    contact_info: {
      home_phone: p.contact_info?.home_phone ?? "",
      work_phone: p.contact_info?.work_phone ?? "",
      cell_phone: p.contact_info?.cell_phone ?? "",
      email: p.contact_info?.email ?? "",
      contact_form: p.contact_info?.contact_form ?? "",
      calendar: p.contact_info?.calendar ?? "",
    },
    number_verified_accounts: accounts.length,
    last_profile_edit: "2026-10-01T12:00:00Z",
    registration_date: "2019-04-02T09:30:00Z",
  };
}

async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
