/**
 * A fake Wikidata action API on 127.0.0.1 for the company resolver's tests, speaking the real wire
 * shapes (`../shared/notes/providers.md`):
 *
 * - `action=wbsearchentities&search=…&language=en&type=item&format=json&limit=N` →
 *   `{ searchinfo, search: [ { id, title, pageid, concepturi, repository, url, display, label,
 *   description, match: { type, language, text } } ], success: 1 }`; a hit is an item whose label
 *   or an alias starts with the search text, case-insensitively (exact matches first, then in the
 *   order given), as Wikidata's prefix search does.
 * - `action=wbgetentities&ids=Q1|Q2&props=…&languages=en&format=json` →
 *   `{ entities: { Q1: { type, id, labels: { en: { language, value } }, claims: { P856: [ {
 *   mainsnak: { snaktype, property, datavalue: { value, type: "string" }, datatype: "url" }, type:
 *   "statement", id, rank } ] } } }, success: 1 }`; an unknown id is `{ id, missing: "" }`.
 * - Errors: MediaWiki's `{ error: { code, info, "*" }, servedby }` (HTTP 200 with a
 *   `MediaWiki-API-Error` header) for bad parameters; 403 without a User-Agent (Wikimedia's
 *   policy); and on demand 429 (HTML, `Retry-After`), 500 (HTML), a truncated JSON body, a slow
 *   answer, `maxlag` and `ratelimited` API errors, and an internal error whose `info` echoes the
 *   search text (so tests can show the resolver never repeats it).
 */
import { serveFake, sleep } from "./fake_http.ts";

export type FakeRank = "preferred" | "normal" | "deprecated";

export interface FakeCompany {
  /** Item id, e.g. `Q1001`. */
  id: string;
  /** English label; searches match a prefix of it. */
  label: string;
  description?: string;
  /** English aliases; searches match a prefix of them too. */
  aliases?: string[];
  /** Official website (P856): one URL, none (absent or null), or claims with ranks. */
  website?: string | null | { url: string; rank?: FakeRank }[];
}

export type FakeWikidataFailure =
  | 429
  | 500
  | "malformed"
  | "slow"
  | "maxlag"
  | "ratelimited"
  | "internal-error";

export interface FakeWikidataOptions {
  companies?: FakeCompany[];
  failWith?: FakeWikidataFailure;
  /** Fail only this action (default: every request). */
  failOn?: "wbsearchentities" | "wbgetentities";
  /** How long a `slow` answer waits (default 10 s); closing the fake ends the wait. */
  slowMs?: number;
  /** `Retry-After` on 429 and `maxlag` (default `7`). */
  retryAfter?: string;
}

export interface FakeWikidata {
  /** The API endpoint, like `https://www.wikidata.org/w/api.php`. */
  url: string;
  /** Every request, in arrival order. */
  requests: URL[];
  /** The headers of every request, in the same order. */
  headers: Headers[];
  close(): Promise<void>;
}

const SEARCH_MAX = 50;

export function startFakeWikidata(options: FakeWikidataOptions = {}): FakeWikidata {
  const companies = options.companies ?? [];

  const fake = serveFake(async (request, url) => {
    if (url.pathname !== "/w/api.php") return new Response("Not Found", { status: 404 });
    if (!request.headers.get("user-agent")) {
      return new Response(
        "Please set a user-agent and respect our robot policy https://w.wiki/4wJS",
        { status: 403, headers: { "content-type": "text/plain" } },
      );
    }
    const action = url.searchParams.get("action") ?? "";
    if (options.failWith !== undefined && (!options.failOn || options.failOn === action)) {
      const failure = await fail(options, url, fake.closing);
      if (failure) return failure;
    }
    if (url.searchParams.get("format") !== "json") {
      return apiError("badvalue", 'Unrecognized value for parameter "format".');
    }
    if (action === "wbsearchentities") return search(companies, url);
    if (action === "wbgetentities") return getEntities(companies, url);
    return apiError("badvalue", 'Unrecognized value for parameter "action".');
  });
  const port = fake.port;
  return {
    url: `http://127.0.0.1:${port}/w/api.php`,
    requests: fake.requests,
    headers: fake.headers,
    close: fake.close,
  };
}

async function fail(
  options: FakeWikidataOptions,
  url: URL,
  closing: AbortSignal,
): Promise<Response | null> {
  const retryAfter = options.retryAfter ?? "7";
  switch (options.failWith) {
    case 429:
      return new Response(
        "<!DOCTYPE html><html><head><title>Wikimedia Error</title></head><body>" +
          "<p>Too many requests. Please respect our robot policy.</p></body></html>",
        { status: 429, headers: { "content-type": "text/html", "retry-after": retryAfter } },
      );
    case 500:
      return new Response(
        "<!DOCTYPE html><html><head><title>Wikimedia Error</title></head><body>" +
          "<p>Our servers are currently under maintenance or experiencing a technical issue.</p>" +
          "</body></html>",
        { status: 500, headers: { "content-type": "text/html" } },
      );
    case "malformed":
      return new Response('{"searchinfo":{"search":"', {
        status: 200,
        headers: { "content-type": "application/json; charset=utf-8" },
      });
    case "slow":
      await sleep(options.slowMs ?? 10_000, closing);
      return null;
    case "maxlag":
      return apiError(
        "maxlag",
        "Waiting for 10.64.48.23: 7 seconds lagged.",
        { "retry-after": retryAfter, "x-database-lag": "7" },
      );
    case "ratelimited":
      return apiError(
        "ratelimited",
        "As an anti-abuse measure, you are limited from performing this action too many times " +
          "in a short space of time, and you have exceeded this limit. Please try again in a few " +
          "minutes.",
      );
    case "internal-error":
      return apiError(
        "internal_api_error_DBQueryError",
        `[Zq1x] Database query error while searching for "${url.searchParams.get("search") ?? ""}"`,
      );
    default:
      return null;
  }
}

function json(body: unknown, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: { "content-type": "application/json; charset=utf-8", ...extra },
  });
}

function apiError(code: string, info: string, extra: Record<string, string> = {}): Response {
  return json({
    error: {
      code,
      info,
      "*": "See https://www.wikidata.org/w/api.php for API usage. Subscribe to the mediawiki-api-" +
        "announce mailing list at &lt;https://lists.wikimedia.org/postorius/lists/mediawiki-api-" +
        "announce.lists.wikimedia.org/&gt; for notice of API deprecations and breaking changes.",
    },
    servedby: "mw-api-ext.fake.1",
  }, { "mediawiki-api-error": code, ...extra });
}

function fold(s: string): string {
  return s.normalize("NFC").toLowerCase().replace(/\s+/gu, " ").trim();
}

function search(companies: FakeCompany[], url: URL): Response {
  const text = url.searchParams.get("search");
  if (text === null || text === "") {
    return apiError("missingparam", 'The "search" parameter must be set.');
  }
  if (url.searchParams.get("language") === null) {
    return apiError("missingparam", 'The "language" parameter must be set.');
  }
  const limitParam = url.searchParams.get("limit") ?? "7";
  const limit = Math.min(Number.parseInt(limitParam, 10) || 7, SEARCH_MAX);
  const q = fold(text);
  const hits: { company: FakeCompany; type: "label" | "alias"; text: string; exact: boolean }[] =
    [];
  for (const company of companies) {
    const names = [
      { type: "label" as const, text: company.label },
      ...(company.aliases ?? []).map((a) => ({ type: "alias" as const, text: a })),
    ];
    const match = names.find((n) => fold(n.text).startsWith(q));
    if (match) hits.push({ company, ...match, exact: fold(match.text) === q });
  }
  hits.sort((a, b) => Number(b.exact) - Number(a.exact));
  const page = hits.slice(0, limit);
  return json({
    searchinfo: { search: text },
    search: page.map(({ company, type, text }, i) => ({
      id: company.id,
      title: company.id,
      pageid: 1000 + i,
      concepturi: `http://www.wikidata.org/entity/${company.id}`,
      repository: "wikidata",
      url: `//www.wikidata.org/wiki/${company.id}`,
      display: {
        label: { value: company.label, language: "en" },
        ...(company.description
          ? { description: { value: company.description, language: "en" } }
          : {}),
      },
      label: company.label,
      ...(company.description ? { description: company.description } : {}),
      match: { type, language: "en", text },
      ...(type === "alias" ? { aliases: [text] } : {}),
    })),
    ...(hits.length > limit ? { "search-continue": limit } : {}),
    success: 1,
  });
}

function getEntities(companies: FakeCompany[], url: URL): Response {
  const ids = (url.searchParams.get("ids") ?? "").split("|").filter((id) => id !== "");
  if (ids.length === 0) {
    return apiError(
      "param-missing",
      'Either provide the item "ids" or pairs of "sites" and "titles" for corresponding pages.',
    );
  }
  if (ids.length > 50) {
    return apiError(
      "toomanyvalues",
      'Too many values supplied for parameter "ids". The limit is 50.',
    );
  }
  const bad = ids.find((id) => !/^[QPL][1-9][0-9]*$/.test(id));
  if (bad) {
    return json({
      error: {
        code: "no-such-entity",
        info: `Could not find an entity with the ID "${bad}".`,
        id: bad,
        "*": "See https://www.wikidata.org/w/api.php for API usage.",
      },
      servedby: "mw-api-ext.fake.1",
    }, { "mediawiki-api-error": "no-such-entity" });
  }
  const props =
    (url.searchParams.get("props") ?? "info|sitelinks|aliases|labels|descriptions|claims|datatype")
      .split("|");
  const entities: Record<string, unknown> = {};
  for (const id of ids) {
    const company = companies.find((c) => c.id === id);
    if (!company) {
      entities[id] = { id, missing: "" };
      continue;
    }
    const entity: Record<string, unknown> = { type: "item", id };
    if (props.includes("labels")) {
      entity.labels = { en: { language: "en", value: company.label } };
    }
    if (props.includes("claims")) {
      const claims = websiteClaims(company);
      entity.claims = claims.length > 0 ? { P856: claims } : {};
    }
    entities[id] = entity;
  }
  return json({ entities, success: 1 });
}

function websiteClaims(company: FakeCompany): unknown[] {
  const site = company.website;
  const list = site === undefined || site === null
    ? []
    : typeof site === "string"
    ? [{ url: site, rank: "normal" as FakeRank }]
    : site;
  return list.map((claim, i) => ({
    mainsnak: {
      snaktype: "value",
      property: "P856",
      hash: `fakehash${i}`,
      datavalue: { value: claim.url, type: "string" },
      datatype: "url",
    },
    type: "statement",
    id: `${company.id}$00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    rank: claim.rank ?? "normal",
  }));
}
