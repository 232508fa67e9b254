/**
 * The web-search adapters (Brave Search API, SerpApi) against fake servers on 127.0.0.1 that
 * speak the real shapes: results, an empty result set, HTML in snippets, every failure mapped to
 * its `why`, the key sent where the provider wants it and never in anything returned. Also the
 * snippet cleaner they share.
 */
import assert from "node:assert/strict";
import { braveQuery, createBraveSearch } from "../domain/providers/web_search/brave.ts";
import type { WebSearchAnswer } from "../domain/providers/web_search/port.ts";
import { createSerpApiSearch } from "../domain/providers/web_search/serpapi.ts";
import { stripHtml } from "../domain/providers/web_search/strip_html.ts";
import {
  companyPageResult,
  type FakeBraveOptions,
  type FakeSearchResult,
  type FakeSearchServer,
  profileResult,
  searchIndex,
  startFakeBrave,
} from "./fakes/brave_server.ts";
import { type FakeSerpApiOptions, startFakeSerpApi } from "./fakes/serpapi_server.ts";

const BRAVE_KEY = "BSAq7Rk2mXw9LfT3vYp8Nd4Hc6Jz1Eb5";
const SERPAPI_KEY = "5f0c9e2ab7d14c6e8a3f9b1d2c4e6a8f0b2d4f6a8c0e2a4b6d8f0a2c4e6b8d0f";
const QUERY = 'site:linkedin.com/in "Odalys Fenwick-Tarrant"';

const ODALYS = profileResult({
  name: "Odalys Fenwick-Tarrant",
  title: "Principal Engineer",
  company: "Brightwater & Sons",
  location: "Leeds, England, United Kingdom",
  slug: "odalys-fenwick-tarrant",
});
const POOL: FakeSearchResult[] = [
  ODALYS,
  companyPageResult({ company: "Brightwater & Sons", slug: "brightwater-sons" }),
  profileResult({
    name: "Odalys Fenwick-Tarrant",
    company: "Quarry Lane Analytics",
    slug: "odalys-fenwick-tarrant-4b1a",
    subdomain: "uk",
    extraSnippets: ["Odalys <strong>leads</strong> the data team &amp; mentors juniors."],
  }),
  {
    title: "Odalys Fenwick-Tarrant – personal site",
    url: "https://fenwick-tarrant.example/",
    description: "Notes by <strong>Odalys</strong> on distributed systems.",
  },
];

async function withBrave(
  options: Partial<FakeBraveOptions>,
  run: (fake: FakeSearchServer) => Promise<void>,
): Promise<void> {
  const fake = startFakeBrave({ key: BRAVE_KEY, results: searchIndex(POOL), ...options });
  try {
    await run(fake);
  } finally {
    await fake.close();
  }
}

async function withSerpApi(
  options: Partial<FakeSerpApiOptions>,
  run: (fake: FakeSearchServer) => Promise<void>,
): Promise<void> {
  const fake = startFakeSerpApi({ key: SERPAPI_KEY, results: searchIndex(POOL), ...options });
  try {
    await run(fake);
  } finally {
    await fake.close();
  }
}

function brave(
  url: string,
  options: { key?: string; timeoutMs?: number; fetch?: typeof fetch } = {},
) {
  return createBraveSearch({ url, key: options.key ?? BRAVE_KEY, ...options });
}

function serpapi(
  url: string,
  options: { key?: string; timeoutMs?: number; fetch?: typeof fetch } = {},
) {
  return createSerpApiSearch({ url, key: options.key ?? SERPAPI_KEY, ...options });
}

function assertNoKey(answer: WebSearchAnswer, ...keys: string[]) {
  const text = JSON.stringify(answer);
  for (const key of keys) assert.ok(!text.includes(key), `the key leaked into ${text}`);
}

function unavailable(answer: WebSearchAnswer): string {
  assert.equal(answer.kind, "unavailable", JSON.stringify(answer));
  return answer.kind === "unavailable" ? answer.why : "";
}

// --- strip_html ----------------------------------------------------------------------------------

Deno.test("stripHtml: tags off, entities decoded once, whitespace collapsed", () => {
  assert.equal(
    stripHtml("View <strong>Ada</strong> <strong>Quill</strong>&#x27;s profile &amp; more"),
    "View Ada Quill's profile & more",
  );
  assert.equal(stripHtml("Lo<b>rem</b><br/>ipsum<p>dolor</p>"), "Lorem ipsum dolor");
  assert.equal(
    stripHtml("&lt;b&gt; is a tag; &amp;lt; stays &amp;lt;"),
    "<b> is a tag; &lt; stays &lt;",
  );
  assert.equal(
    stripHtml("a&nbsp;&nbsp;b\n\t c &#39;d&#39; &quot;e&quot; &apos;f&apos;"),
    "a b c 'd' \"e\" 'f'",
  );
  assert.equal(
    stripHtml("&#233;t&#xE9; &#x1F600; &#0; &#xD800; &bogus; &AMP;"),
    "été 😀 \uFFFD \uFFFD &bogus; &",
  );
  assert.equal(stripHtml("1 < 2 and 3 > 2 <!-- hidden -->"), "1 < 2 and 3 > 2");
  assert.equal(
    stripHtml("Berlin &middot; Engineer &ndash; Acme&hellip;"),
    "Berlin · Engineer – Acme…",
  );
});

// --- Brave -----------------------------------------------------------------------------------

Deno.test("brave: results with titles and snippets as plain text, the request as Brave wants it", async () => {
  await withBrave({}, async (fake) => {
    const answer = await brave(fake.url).search(QUERY, { count: 5 });
    assert.equal(answer.kind, "results");
    if (answer.kind !== "results") return;
    assert.deepEqual(answer.results.map((r) => r.url), [
      "https://www.linkedin.com/in/odalys-fenwick-tarrant",
      "https://uk.linkedin.com/in/odalys-fenwick-tarrant-4b1a",
    ]);
    const [first, second] = answer.results;
    assert.equal(
      first.title,
      "Odalys Fenwick-Tarrant - Principal Engineer - Brightwater & Sons | LinkedIn",
    );
    assert.equal(
      first.snippet,
      "Principal Engineer at Brightwater & Sons · Experience: Brightwater & Sons · Location: " +
        "Leeds, England, United Kingdom · 500+ connections on LinkedIn. View Odalys " +
        "Fenwick-Tarrant's profile on LinkedIn, a professional community of 1 billion members.",
    );
    assert.equal(first.extraSnippets, undefined);
    assert.deepEqual(second.extraSnippets, ["Odalys leads the data team & mentors juniors."]);

    assert.equal(fake.requests.length, 1);
    const [request] = fake.requests;
    assert.deepEqual(Object.fromEntries(request.searchParams), { q: QUERY, count: "5" });
    assert.equal(fake.headers[0].get("x-subscription-token"), BRAVE_KEY);
    assert.equal(fake.headers[0].get("accept"), "application/json");
    assert.ok(!request.href.includes(BRAVE_KEY), "the token travels in a header only");
    assertNoKey(answer, BRAVE_KEY);
  });
});

Deno.test("brave: the description's <strong> and entities are in the wire answer, not in ours", async () => {
  await withBrave({}, async (fake) => {
    const raw = await fetch(`${fake.url}?q=${encodeURIComponent(QUERY)}`, {
      headers: { "X-Subscription-Token": BRAVE_KEY, Accept: "application/json" },
    });
    const body = await raw.json();
    assert.equal(body.type, "search");
    assert.match(body.web.results[0].description, /<strong>Odalys<\/strong>/);
    assert.match(body.web.results[0].description, /&#x27;s profile/);
    assert.match(body.web.results[0].description, /Brightwater &amp; Sons/);
    for (const header of ["limit", "policy", "remaining", "reset"]) {
      assert.ok(raw.headers.get(`x-ratelimit-${header}`), `X-RateLimit-${header}`);
    }
  });
});

Deno.test("brave: nothing matched (no `web` in the answer) is a completed search with no results", async () => {
  await withBrave({}, async (fake) => {
    const q = 'site:linkedin.com/in "Zebulon Marchetti-Oyelaran"';
    const raw = await fetch(`${fake.url}?q=${encodeURIComponent(q)}`, {
      headers: { "X-Subscription-Token": BRAVE_KEY },
    });
    const body = await raw.json();
    assert.equal(body.type, "search");
    assert.equal("web" in body, false);
    assert.deepEqual(await brave(fake.url).search(q), { kind: "results", results: [] });
  });
  // A map from query to results: an unknown query matches nothing too.
  await withBrave({ results: { [QUERY]: [ODALYS] } }, async (fake) => {
    const answer = await brave(fake.url).search(QUERY);
    assert.equal(answer.kind === "results" && answer.results.length, 1);
    assert.deepEqual(await brave(fake.url).search("other"), { kind: "results", results: [] });
  });
});

Deno.test("brave: count is 1–20 (default 10); a blank query sends nothing", async () => {
  await withBrave({}, async (fake) => {
    const search = brave(fake.url);
    await search.search(QUERY);
    await search.search(QUERY, { count: 50 });
    await search.search(QUERY, { count: 0 });
    await search.search(QUERY, { count: 3.7 });
    assert.deepEqual(fake.requests.map((u) => u.searchParams.get("count")), ["10", "20", "1", "3"]);
    assert.deepEqual(await search.search("  \n "), { kind: "results", results: [] });
    assert.equal(fake.requests.length, 4);
  });
});

Deno.test("brave: a long query is cut to 400 characters and 50 words, no phrase left open", async () => {
  const long = `site:linkedin.com/in "${"Wilhelmina ".repeat(30).trim()}" "${"x".repeat(200)}"`;
  const cut = braveQuery(long);
  assert.ok(Array.from(cut).length <= 400, `${Array.from(cut).length}`);
  assert.equal((cut.match(/"/g) ?? []).length % 2, 0);
  assert.ok(cut.startsWith('site:linkedin.com/in "Wilhelmina Wilhelmina'));
  const wordy = Array.from({ length: 60 }, (_, i) => `w${i}`).join(" ");
  assert.equal(braveQuery(wordy).split(" ").length, 50);
  assert.equal(braveQuery(`  a \n  b  `), "a b");
  // A cut inside a phrase drops its opening quote rather than leave it open.
  const phrase = braveQuery(`site:linkedin.com/in "${"Marguerite ".repeat(45).trim()}"`);
  assert.equal(phrase.includes('"'), false);
  assert.ok(phrase.startsWith("site:linkedin.com/in Marguerite Marguerite"));
  assert.ok(Array.from(phrase).length <= 400);
  assert.equal(braveQuery(QUERY), QUERY);
  // Surrogate pairs are never split: 400 code points of emoji stay whole.
  assert.equal(Array.from(braveQuery("😀".repeat(450))).length, 400);
  await withBrave({}, async (fake) => {
    // The fake refuses (422) a query over Brave's limits: the adapter's cut gets through.
    const answer = await brave(fake.url).search(long);
    assert.deepEqual(answer, { kind: "results", results: [] });
    assert.equal(fake.requests[0].searchParams.get("q"), cut);
  });
});

Deno.test("brave: a wrong, missing or refused token is bad-key (401, 403, 422)", async () => {
  await withBrave({}, async (fake) => {
    const answer = await brave(fake.url, { key: "wrong-token" }).search(QUERY);
    assert.equal(unavailable(answer), "bad-key");
    assert.equal(fake.headers[0].get("x-subscription-token"), "wrong-token");
    assertNoKey(answer, "wrong-token");
    // No header at all: Brave's VALIDATION error names the header.
    const withoutHeader: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      headers.delete("x-subscription-token");
      return fetch(input, { ...init, headers });
    };
    assert.equal(
      unavailable(await brave(fake.url, { fetch: withoutHeader }).search(QUERY)),
      "bad-key",
    );
  });
  for (const failWith of [401, 403, 422] as const) {
    for (const errorShape of ["live", "documented"] as const) {
      await withBrave({ failWith, errorShape }, async (fake) => {
        const answer = await brave(fake.url).search(QUERY);
        assert.equal(unavailable(answer), "bad-key", `${failWith} ${errorShape}`);
        assertNoKey(answer, BRAVE_KEY);
      });
    }
  }
});

Deno.test("brave: 429 (per-second limit or monthly quota) is rate-limited, with the reset", async () => {
  for (const errorShape of ["live", "documented"] as const) {
    await withBrave({ failWith: 429, errorShape }, async (fake) => {
      const answer = await brave(fake.url).search(QUERY);
      assert.deepEqual(answer, { kind: "unavailable", why: "rate-limited", retryAfterSeconds: 1 });
      assert.equal(fake.requests.length, 1, "no retry");
    });
    await withBrave({ failWith: "quota", errorShape }, async (fake) => {
      const answer = await brave(fake.url).search(QUERY);
      assert.deepEqual(answer, {
        kind: "unavailable",
        why: "rate-limited",
        retryAfterSeconds: 1_419_704,
      });
    });
  }
  // Without rate-limit headers, a 429 is still rate-limited.
  const bare: typeof fetch = () =>
    Promise.resolve(Response.json({ type: "ErrorResponse", error: { code: "RATE_LIMITED" } }, {
      status: 429,
    }));
  assert.deepEqual(
    await brave("http://127.0.0.1:9/res/v1/web/search", { fetch: bare }).search("q"),
    {
      kind: "unavailable",
      why: "rate-limited",
    },
  );
});

Deno.test("brave: 5xx, malformed JSON and an answer of the wrong shape are provider-error", async () => {
  for (const failWith of [500, 503, "malformed", "wrong-shape"] as const) {
    await withBrave({ failWith }, async (fake) => {
      const answer = await brave(fake.url).search(QUERY);
      assert.equal(unavailable(answer), "provider-error", String(failWith));
      assertNoKey(answer, BRAVE_KEY);
    });
  }
  // A 422 that is a validation error of our query parameters is ours, not the key's.
  const validation: typeof fetch = () =>
    Promise.resolve(Response.json({
      type: "ErrorResponse",
      error: {
        status: 422,
        code: "VALIDATION",
        detail: "Unable to validate request parameter(s)",
        meta: { errors: [{ loc: ["query", "count"], msg: "Input should be ≤ 20", input: "99" }] },
      },
    }, { status: 422 }));
  assert.equal(
    unavailable(await brave("http://127.0.0.1:9/x", { fetch: validation }).search("q")),
    "provider-error",
  );
  // 200 with Brave's error body, or some other 4xx.
  const errorBody: typeof fetch = () =>
    Promise.resolve(Response.json({ type: "ErrorResponse", error: { code: "X" } }));
  assert.equal(
    unavailable(await brave("http://127.0.0.1:9/x", { fetch: errorBody }).search("q")),
    "provider-error",
  );
  const notFound: typeof fetch = () => Promise.resolve(new Response("nope", { status: 404 }));
  assert.equal(
    unavailable(await brave("http://127.0.0.1:9/x", { fetch: notFound }).search("q")),
    "provider-error",
  );
});

Deno.test("brave: no answer in time, a refused connection or a network error is timeout", async () => {
  await withBrave({ failWith: "slow", slowMs: 5000 }, async (fake) => {
    const started = Date.now();
    const answer = await brave(fake.url, { timeoutMs: 150 }).search(QUERY);
    assert.deepEqual(answer, { kind: "unavailable", why: "timeout" });
    assert.ok(Date.now() - started < 2000);
  });
  const fake = startFakeBrave({ key: BRAVE_KEY });
  const url = fake.url;
  await fake.close();
  assert.deepEqual(await brave(url).search(QUERY), { kind: "unavailable", why: "timeout" });
  // A fetch error names the URL (and the query): none of it comes back.
  const failing: typeof fetch = (input) =>
    Promise.reject(new TypeError(`error sending request for url (${String(input)}) ${BRAVE_KEY}`));
  const answer = await brave(url, { fetch: failing }).search(QUERY);
  assert.deepEqual(answer, { kind: "unavailable", why: "timeout" });
});

// --- SerpApi ---------------------------------------------------------------------------------

Deno.test("serpapi: results with plain snippets, the key in api_key and nowhere returned", async () => {
  await withSerpApi({}, async (fake) => {
    const answer = await serpapi(fake.url).search(QUERY, { count: 5 });
    assert.equal(answer.kind, "results");
    if (answer.kind !== "results") return;
    assert.deepEqual(answer.results.map((r) => r.url), [
      "https://www.linkedin.com/in/odalys-fenwick-tarrant",
      "https://uk.linkedin.com/in/odalys-fenwick-tarrant-4b1a",
    ]);
    assert.equal(
      answer.results[0].title,
      "Odalys Fenwick-Tarrant - Principal Engineer - Brightwater & Sons | LinkedIn",
    );
    assert.match(answer.results[0].snippet, /^Principal Engineer at Brightwater & Sons · /);
    assert.match(answer.results[0].snippet, /View Odalys Fenwick-Tarrant's profile on LinkedIn/);
    assert.equal(answer.results[0].extraSnippets, undefined);

    const [request] = fake.requests;
    assert.deepEqual(Object.fromEntries(request.searchParams), {
      engine: "google",
      q: QUERY,
      api_key: SERPAPI_KEY,
      num: "5",
    });
    assert.equal(fake.headers[0].get("accept"), "application/json");
    for (const [, value] of fake.headers[0]) assert.ok(!value.includes(SERPAPI_KEY));
    assertNoKey(answer, SERPAPI_KEY);
  });
});

Deno.test("serpapi: the wire answer has highlighted words and a plain snippet", async () => {
  await withSerpApi({}, async (fake) => {
    const raw = await fetch(
      `${fake.url}?engine=google&q=${encodeURIComponent(QUERY)}&api_key=${SERPAPI_KEY}`,
    );
    const body = await raw.json();
    assert.equal(body.search_metadata.status, "Success");
    const [first] = body.organic_results;
    assert.equal(first.position, 1);
    assert.deepEqual(first.snippet_highlighted_words, ["Odalys", "Fenwick-Tarrant"]);
    assert.ok(!first.snippet.includes("<strong>"));
    assert.equal(first.link, ODALYS.url);
  });
});

Deno.test("serpapi: zero results (200, Success, an error text, no organic_results) is an empty search", async () => {
  await withSerpApi({}, async (fake) => {
    const q = 'site:linkedin.com/in "Zebulon Marchetti-Oyelaran"';
    const raw = await fetch(
      `${fake.url}?engine=google&q=${encodeURIComponent(q)}&api_key=${SERPAPI_KEY}`,
    );
    assert.equal(raw.status, 200);
    const body = await raw.json();
    assert.equal(body.search_metadata.status, "Success");
    assert.equal("organic_results" in body, false);
    assert.match(body.error, /hasn't returned any results/);
    assert.deepEqual(await serpapi(fake.url).search(q), { kind: "results", results: [] });
  });
});

Deno.test("serpapi: num is 1–100 (default 10); a blank query sends nothing", async () => {
  await withSerpApi({}, async (fake) => {
    const search = serpapi(fake.url);
    await search.search(QUERY);
    await search.search(QUERY, { count: 500 });
    await search.search(QUERY, { count: -2 });
    assert.deepEqual(fake.requests.map((u) => u.searchParams.get("num")), ["10", "100", "1"]);
    assert.deepEqual(await search.search(""), { kind: "results", results: [] });
    assert.equal(fake.requests.length, 3);
  });
});

Deno.test("serpapi: a wrong key (401) or a disabled account (403) is bad-key", async () => {
  await withSerpApi({}, async (fake) => {
    const answer = await serpapi(fake.url, { key: "not-the-key" }).search(QUERY);
    assert.equal(unavailable(answer), "bad-key");
    assertNoKey(answer, "not-the-key");
  });
  for (const failWith of [401, 403] as const) {
    await withSerpApi({ failWith }, async (fake) => {
      assert.equal(unavailable(await serpapi(fake.url).search(QUERY)), "bad-key");
    });
  }
});

Deno.test("serpapi: out of searches or the hourly limit (429) is rate-limited", async () => {
  for (const failWith of [429, "hourly"] as const) {
    await withSerpApi({ failWith }, async (fake) => {
      const answer = await serpapi(fake.url).search(QUERY);
      assert.deepEqual(answer, { kind: "unavailable", why: "rate-limited" });
      assert.equal(fake.requests.length, 1);
    });
  }
  const withRetryAfter: typeof fetch = () =>
    Promise.resolve(Response.json({ error: "slow down" }, {
      status: 429,
      headers: { "retry-after": "30" },
    }));
  assert.deepEqual(
    await serpapi("http://127.0.0.1:9/search.json", { fetch: withRetryAfter })
      .search("q"),
    { kind: "unavailable", why: "rate-limited", retryAfterSeconds: 30 },
  );
});

Deno.test("serpapi: 400, 5xx, status Error and malformed JSON are provider-error", async () => {
  for (const failWith of [400, 500, 503, "status-error", "malformed"] as const) {
    await withSerpApi({ failWith }, async (fake) => {
      const answer = await serpapi(fake.url).search(QUERY);
      assert.equal(unavailable(answer), "provider-error", String(failWith));
      assertNoKey(answer, SERPAPI_KEY);
    });
  }
  const wrongShape: typeof fetch = () =>
    Promise.resolve(Response.json({
      search_metadata: { status: "Success" },
      organic_results: [{ position: 1, title: null }],
    }));
  assert.equal(
    unavailable(await serpapi("http://127.0.0.1:9/search.json", { fetch: wrongShape }).search("q")),
    "provider-error",
  );
  // 200 with only SerpApi's error text (no metadata) is no search either.
  const onlyError: typeof fetch = () => Promise.resolve(Response.json({ error: "Something" }));
  assert.equal(
    unavailable(await serpapi("http://127.0.0.1:9/search.json", { fetch: onlyError }).search("q")),
    "provider-error",
  );
});

Deno.test("serpapi: no answer in time or a network error is timeout, the URL's key never returned", async () => {
  await withSerpApi({ failWith: "slow", slowMs: 5000 }, async (fake) => {
    const answer = await serpapi(fake.url, { timeoutMs: 150 }).search(QUERY);
    assert.deepEqual(answer, { kind: "unavailable", why: "timeout" });
  });
  const fake = startFakeSerpApi({ key: SERPAPI_KEY });
  const url = fake.url;
  await fake.close();
  assert.deepEqual(await serpapi(url).search(QUERY), { kind: "unavailable", why: "timeout" });
  // The real fetch error text holds the URL, and so the api_key.
  let seen = "";
  const failing: typeof fetch = (input) => {
    seen = String(input);
    return Promise.reject(new TypeError(`error sending request for url (${seen})`));
  };
  const answer = await serpapi(url, { fetch: failing }).search(QUERY);
  assert.ok(seen.includes(SERPAPI_KEY));
  assert.deepEqual(answer, { kind: "unavailable", why: "timeout" });
});
