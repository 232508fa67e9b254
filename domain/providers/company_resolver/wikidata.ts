/**
 * Company name → official web domain, from Wikidata's public API (free, no key).
 *
 * Two requests: `wbsearchentities` finds up to five items whose English label or alias starts with
 * the name (case-insensitive, as Wikidata matches), then one `wbgetentities` reads their official
 * websites (property P856). The first hit, in search order, with a usable website wins: a claim of
 * rank `preferred` before `normal` ones, `deprecated` claims never. Its URL is reduced to the
 * registrable domain with tldts (`https://www.bbc.co.uk/` → `bbc.co.uk`; private suffixes count,
 * so a site on a hosting platform is never read as the platform's domain). When the name as given
 * finds nothing, the name without its legal suffix ("Acme Widgets, Inc." → "Acme Widgets") is
 * searched once more.
 *
 * Wikimedia requires a descriptive `User-Agent`; every request sends it with
 * `Accept: application/json`. Answers are parsed with zod here. Every failure is a value
 * (`unavailable`): HTTP 429 (its `Retry-After` reported in the message; the resolver never waits),
 * other non-2xx statuses, a timeout on the whole lookup, a network error, an answer that is not
 * the JSON shape expected, and Wikidata's own `{ error: { code, info } }`. The message names what
 * went wrong and never the company (nor a URL or a fetch error text, which would carry it).
 */
import { getDomain } from "tldts";
import { z } from "zod";
import type { CompanyResolution, CompanyResolver } from "./port.ts";

export interface WikidataResolverOptions {
  /** The MediaWiki API endpoint, e.g. `https://www.wikidata.org/w/api.php`. */
  apiUrl: string;
  /** Sent on every request: `name/version (contact URL or address)`, as Wikimedia asks. */
  userAgent: string;
  fetch?: typeof fetch;
  /** The whole lookup (every request together) gives up after this long; default 8000 ms. */
  timeoutMs?: number;
}

export const DEFAULT_WIKIDATA_TIMEOUT_MS = 8000;

/** How many search hits are read (Wikidata's default page is 7; the API allows up to 50). */
const SEARCH_LIMIT = 5;

const ErrorAnswer = z.object({
  error: z.object({ code: z.string(), info: z.string().optional() }),
});

const SearchAnswer = z.object({
  search: z.array(z.object({
    id: z.string(),
    label: z.string().optional(),
  })),
});

const Claim = z.object({
  rank: z.string().optional(),
  mainsnak: z.object({
    snaktype: z.string().optional(),
    datavalue: z.object({ value: z.unknown() }).optional(),
  }),
});

/** MediaWiki writes an empty object as `[]` in some versions: accept both. */
const emptyList = z.array(z.never()).max(0);

const EntitiesAnswer = z.object({
  entities: z.record(
    z.string(),
    z.object({
      missing: z.string().optional(),
      labels: z.union([z.record(z.string(), z.object({ value: z.string() })), emptyList])
        .optional(),
      claims: z.union([z.object({ P856: z.array(Claim).optional() }), emptyList]).optional(),
    }),
  ),
});

type Entity = z.infer<typeof EntitiesAnswer>["entities"][string];

/** A failure whose message is safe to return: it never holds the company name. */
class LookupFailure extends Error {}

const ITEM_ID = /^Q[1-9][0-9]*$/;
const ERROR_CODE = /^[A-Za-z0-9_.-]{1,80}$/;

export function createWikidataResolver(options: WikidataResolverOptions): CompanyResolver {
  const userAgent = options.userAgent.trim();
  if (userAgent === "") {
    throw new Error("createWikidataResolver: userAgent must not be empty (Wikimedia requires one)");
  }
  const apiUrl = new URL(options.apiUrl);
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_WIKIDATA_TIMEOUT_MS;

  async function call(params: Record<string, string>, signal: AbortSignal): Promise<unknown> {
    const url = new URL(apiUrl);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    const response = await doFetch(url, {
      headers: { "User-Agent": userAgent, "Accept": "application/json" },
      signal,
    });
    if (!response.ok) {
      await response.body?.cancel();
      if (response.status === 429) {
        throw new LookupFailure(
          `Wikidata is rate limiting lookups (HTTP 429${retryAfterText(response.headers)})`,
        );
      }
      throw new LookupFailure(`Wikidata answered HTTP ${response.status} to ${params.action}`);
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new LookupFailure(`Wikidata's answer to ${params.action} was not valid JSON`);
    }
    const error = ErrorAnswer.safeParse(body);
    if (error.success) {
      const code = ERROR_CODE.test(error.data.error.code) ? error.data.error.code : "unknown";
      throw new LookupFailure(
        `Wikidata refused ${params.action} (error ${code}${retryAfterText(response.headers)})`,
      );
    }
    return body;
  }

  function parse<T>(schema: z.ZodType<T>, body: unknown, action: string): T {
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      throw new LookupFailure(`Wikidata's answer to ${action} did not have the expected shape`);
    }
    return parsed.data;
  }

  async function search(name: string, signal: AbortSignal) {
    const body = await call({
      action: "wbsearchentities",
      search: name,
      language: "en",
      type: "item",
      format: "json",
      limit: String(SEARCH_LIMIT),
    }, signal);
    return parse(SearchAnswer, body, "wbsearchentities").search
      .filter((hit) => ITEM_ID.test(hit.id));
  }

  async function entities(ids: string[], signal: AbortSignal) {
    const body = await call({
      action: "wbgetentities",
      ids: ids.join("|"),
      props: "claims|labels",
      languages: "en",
      format: "json",
    }, signal);
    return parse(EntitiesAnswer, body, "wbgetentities").entities;
  }

  async function lookUp(name: string, signal: AbortSignal): Promise<CompanyResolution> {
    const read = new Set<string>();
    for (const query of searchTerms(name)) {
      const hits = (await search(query, signal)).filter((hit) => !read.has(hit.id));
      const ids = [...new Set(hits.map((hit) => hit.id))];
      if (ids.length === 0) continue;
      const found = await entities(ids, signal);
      for (const hit of hits) {
        read.add(hit.id);
        const entity = found[hit.id];
        if (!entity || entity.missing !== undefined) continue;
        const domain = officialDomain(entity);
        if (domain === null) continue;
        return {
          kind: "resolved",
          name: englishLabel(entity) ?? hit.label ?? name,
          domain,
          source: `wikidata:${hit.id}`,
        };
      }
    }
    return { kind: "not-found" };
  }

  return {
    async resolve(companyName: string): Promise<CompanyResolution> {
      const name = companyName.normalize("NFC").replace(/\s+/gu, " ").trim();
      if (name === "") return { kind: "not-found" };
      const deadline = new AbortController();
      const timer = setTimeout(
        () => deadline.abort(new DOMException("lookup timed out", "TimeoutError")),
        timeoutMs,
      );
      try {
        return await lookUp(name, deadline.signal);
      } catch (error) {
        return { kind: "unavailable", message: failureMessage(error, deadline.signal, timeoutMs) };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

function failureMessage(error: unknown, signal: AbortSignal, timeoutMs: number): string {
  if (error instanceof LookupFailure) return error.message;
  if (signal.aborted || (error instanceof DOMException && error.name === "TimeoutError")) {
    return `Wikidata did not answer within ${timeoutMs} ms`;
  }
  // A fetch error's text holds the request URL, and so the company name: name its kind only.
  if (error instanceof TypeError) return "Wikidata could not be reached (network error)";
  const kind = error instanceof Error ? error.name : typeof error;
  return `Wikidata lookup failed (${kind})`;
}

/** `, retry after N s` from a `Retry-After` header (seconds or an HTTP date), or "". */
function retryAfterText(headers: Headers): string {
  const value = headers.get("retry-after")?.trim();
  if (!value) return "";
  let seconds: number;
  if (/^[0-9]+$/.test(value)) seconds = Number(value);
  else {
    const at = Date.parse(value);
    if (Number.isNaN(at)) return "";
    seconds = Math.max(0, Math.ceil((at - Date.now()) / 1000));
  }
  return `, retry after ${seconds} s`;
}

const RANK_ORDER: Record<string, number> = { preferred: 0, normal: 1 };

/** The registrable domain of the entity's official website (P856), or null. */
function officialDomain(entity: Entity): string | null {
  const claims = Array.isArray(entity.claims) ? [] : entity.claims?.P856 ?? [];
  const usable = claims
    .map((claim, index) => ({ claim, index, order: RANK_ORDER[claim.rank ?? "normal"] }))
    .filter((c) => c.order !== undefined && c.claim.mainsnak.snaktype !== "novalue")
    .sort((a, b) => a.order - b.order || a.index - b.index);
  for (const { claim } of usable) {
    const domain = websiteDomain(claim.mainsnak.datavalue?.value);
    if (domain !== null) return domain;
  }
  return null;
}

function websiteDomain(value: unknown): string | null {
  if (typeof value !== "string") return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  const domain = getDomain(url.hostname, { allowPrivateDomains: true });
  return domain ? domain.toLowerCase() : null;
}

function englishLabel(entity: Entity): string | null {
  if (!entity.labels || Array.isArray(entity.labels)) return null;
  return entity.labels.en?.value ?? null;
}

/** Legal-form words dropped from the end of a name for the second search (dots ignored). */
const LEGAL_SUFFIXES = new Set([
  "inc",
  "incorporated",
  "corp",
  "corporation",
  "co",
  "company",
  "llc",
  "llp",
  "lp",
  "ltd",
  "limited",
  "plc",
  "pty",
  "pte",
  "pvt",
  "private",
  "gmbh",
  "mbh",
  "ag",
  "kg",
  "kgaa",
  "se",
  "sa",
  "sas",
  "sarl",
  "srl",
  "spa",
  "sl",
  "bv",
  "nv",
  "oy",
  "oyj",
  "ab",
  "as",
  "asa",
  "a/s",
  "aps",
  "kk",
]);
const JOINERS = new Set(["&", "and", "+", "und"]);

/** The name as given, then without its legal suffix when it has one. */
function searchTerms(name: string): string[] {
  const words = name.split(" ");
  let end = words.length;
  const bare = (w: string) => w.toLowerCase().replace(/[.,]/g, "");
  while (end > 1 && LEGAL_SUFFIXES.has(bare(words[end - 1]))) {
    end--;
    while (end > 1 && JOINERS.has(bare(words[end - 1]))) end--;
  }
  const stripped = words.slice(0, end).join(" ").replace(/[\s,;&-]+$/u, "");
  return stripped !== "" && stripped !== name ? [name, stripped] : [name];
}
