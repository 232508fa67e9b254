/**
 * The Wikidata company resolver against a fake Wikidata API on 127.0.0.1 that speaks the real
 * shapes (search, entities, MediaWiki errors, edge 429/500), and the `none` resolver.
 */
import assert from "node:assert/strict";
import { noCompanyResolver } from "../domain/providers/company_resolver/none.ts";
import type { CompanyResolution } from "../domain/providers/company_resolver/port.ts";
import { createWikidataResolver } from "../domain/providers/company_resolver/wikidata.ts";
import {
  type FakeCompany,
  type FakeWikidataOptions,
  startFakeWikidata,
} from "./fakes/wikidata_server.ts";

const USER_AGENT =
  "contact-svc-tests/0.1 (https://example.invalid/contact-svc; ops@example.invalid)";

const COMPANIES: FakeCompany[] = [
  {
    id: "Q9531",
    label: "BBC",
    description: "British public broadcaster",
    website: "https://www.bbc.co.uk/",
  },
  { id: "Q2001", label: "Acme", description: "fictional corporation in cartoons" },
  {
    id: "Q2002",
    label: "Acme Widgets",
    description: "maker of widgets",
    aliases: ["AWX"],
    website: "https://WWW.Acme-Widgets.example/about",
  },
  {
    id: "Q2003",
    label: "Nowebsite Trading Company",
    description: "a company with no website",
    website: null,
  },
  {
    id: "Q2004",
    label: "Renamed Tools",
    website: [
      { url: "http://old-renamed.example/", rank: "deprecated" },
      { url: "https://www.renamed-tools.example/", rank: "normal" },
    ],
  },
  {
    id: "Q2005",
    label: "Twosite Labs",
    website: [
      { url: "https://twosite.example/", rank: "normal" },
      { url: "https://en.twosite-labs.example/", rank: "preferred" },
    ],
  },
  {
    id: "Q2006",
    label: "Gone Systems",
    website: [{ url: "https://gone-systems.example/", rank: "deprecated" }],
  },
  { id: "Q2007", label: "Pagesite", website: "https://pagesite.github.io/" },
  { id: "Q2008", label: "Ipsite", website: "http://192.0.2.10/" },
];

async function withFake(
  options: FakeWikidataOptions,
  run: (fake: ReturnType<typeof startFakeWikidata>) => Promise<void>,
): Promise<void> {
  const fake = startFakeWikidata({ companies: COMPANIES, ...options });
  try {
    await run(fake);
  } finally {
    await fake.close();
  }
}

function resolverFor(url: string, timeoutMs = 2000) {
  return createWikidataResolver({ apiUrl: url, userAgent: USER_AGENT, timeoutMs });
}

Deno.test("wikidata: a company resolves to its registrable domain", async () => {
  await withFake({}, async (fake) => {
    const answer = await resolverFor(fake.url).resolve("BBC");
    assert.deepEqual(answer, {
      kind: "resolved",
      name: "BBC",
      domain: "bbc.co.uk",
      source: "wikidata:Q9531",
    });
    assert.equal(fake.requests.length, 2);
    const [search, get] = fake.requests.map((u) => Object.fromEntries(u.searchParams));
    assert.deepEqual(search, {
      action: "wbsearchentities",
      search: "BBC",
      language: "en",
      type: "item",
      format: "json",
      limit: "5",
    });
    assert.deepEqual(get, {
      action: "wbgetentities",
      ids: "Q9531",
      props: "claims|labels",
      languages: "en",
      format: "json",
    });
  });
});

Deno.test("wikidata: the first hit in search order with a website wins", async () => {
  await withFake({}, async (fake) => {
    // "acme" finds Acme (exact, no website) and Acme Widgets; one wbgetentities reads both.
    const answer = await resolverFor(fake.url).resolve("acme");
    assert.deepEqual(answer, {
      kind: "resolved",
      name: "Acme Widgets",
      domain: "acme-widgets.example",
      source: "wikidata:Q2002",
    });
    assert.equal(fake.requests[1].searchParams.get("ids"), "Q2001|Q2002");
    // An alias matches too.
    const alias = await resolverFor(fake.url).resolve("awx");
    assert.equal(alias.kind === "resolved" && alias.domain, "acme-widgets.example");
  });
});

Deno.test("wikidata: case-insensitive search, then again without the legal suffix", async () => {
  await withFake({}, async (fake) => {
    const answer = await resolverFor(fake.url).resolve("  ACME WIDGETS,   Inc. ");
    assert.equal(answer.kind, "resolved");
    assert.equal(answer.kind === "resolved" && answer.domain, "acme-widgets.example");
    assert.deepEqual(
      fake.requests.map((u) => [u.searchParams.get("action"), u.searchParams.get("search")]),
      [
        ["wbsearchentities", "ACME WIDGETS, Inc."],
        ["wbsearchentities", "ACME WIDGETS"],
        ["wbgetentities", null],
      ],
    );
  });
  await withFake({}, async (fake) => {
    const answer = await resolverFor(fake.url).resolve("renamed tools GmbH & Co. KG");
    assert.equal(answer.kind === "resolved" && answer.domain, "renamed-tools.example");
    assert.equal(fake.requests[1].searchParams.get("search"), "renamed tools");
  });
});

Deno.test("wikidata: no hit is not-found, after one search (two with a legal suffix)", async () => {
  await withFake({}, async (fake) => {
    assert.deepEqual(await resolverFor(fake.url).resolve("Zyxwv Dynamics"), { kind: "not-found" });
    assert.equal(fake.requests.length, 1);
    assert.deepEqual(await resolverFor(fake.url).resolve("Zyxwv Dynamics Ltd"), {
      kind: "not-found",
    });
    assert.equal(fake.requests.length, 3);
  });
});

Deno.test("wikidata: hits without an official website are not-found", async () => {
  await withFake({}, async (fake) => {
    assert.deepEqual(await resolverFor(fake.url).resolve("Nowebsite Trading"), {
      kind: "not-found",
    });
    assert.deepEqual(fake.requests.map((u) => u.searchParams.get("action")), [
      "wbsearchentities",
      "wbgetentities",
    ]);
    // A second search without the suffix does not read the same item again.
    assert.deepEqual(await resolverFor(fake.url).resolve("Nowebsite Trading Co"), {
      kind: "not-found",
    });
    assert.deepEqual(fake.requests.slice(2).map((u) => u.searchParams.get("action")), [
      "wbsearchentities",
      "wbgetentities",
      "wbsearchentities",
    ]);
    assert.equal(fake.requests[4].searchParams.get("search"), "Nowebsite Trading");
  });
});

Deno.test("wikidata: deprecated websites are skipped, preferred ones win", async () => {
  await withFake({}, async (fake) => {
    const resolver = resolverFor(fake.url);
    const renamed = await resolver.resolve("Renamed Tools");
    assert.equal(renamed.kind === "resolved" && renamed.domain, "renamed-tools.example");
    const twosite = await resolver.resolve("Twosite Labs");
    assert.equal(twosite.kind === "resolved" && twosite.domain, "twosite-labs.example");
    assert.deepEqual(await resolver.resolve("Gone Systems"), { kind: "not-found" });
  });
});

Deno.test("wikidata: a site on a hosting platform keeps its own name; an IP is no domain", async () => {
  await withFake({}, async (fake) => {
    const resolver = resolverFor(fake.url);
    const page = await resolver.resolve("Pagesite");
    assert.equal(page.kind === "resolved" && page.domain, "pagesite.github.io");
    assert.deepEqual(await resolver.resolve("Ipsite"), { kind: "not-found" });
  });
});

Deno.test("wikidata: a descriptive User-Agent and Accept: application/json on every request", async () => {
  await withFake({}, async (fake) => {
    await resolverFor(fake.url).resolve("Acme Widgets Inc");
    assert.equal(fake.headers.length, 3);
    for (const headers of fake.headers) {
      assert.equal(headers.get("user-agent"), USER_AGENT);
      assert.equal(headers.get("accept"), "application/json");
    }
  });
  assert.throws(
    () => createWikidataResolver({ apiUrl: "http://127.0.0.1:9/w/api.php", userAgent: " " }),
    /userAgent/,
  );
});

const SECRET_NAME = "Quillfeather Biosciences";

async function unavailable(
  options: FakeWikidataOptions,
  timeoutMs = 2000,
): Promise<{ message: string; requests: number }> {
  let result: { message: string; requests: number } | undefined;
  await withFake({
    companies: [{ id: "Q3001", label: SECRET_NAME, website: "https://quillfeather.example/" }],
    ...options,
  }, async (fake) => {
    const answer: CompanyResolution = await resolverFor(fake.url, timeoutMs).resolve(SECRET_NAME);
    assert.equal(answer.kind, "unavailable", JSON.stringify(answer));
    if (answer.kind !== "unavailable") return;
    assertNameAbsent(answer.message);
    result = { message: answer.message, requests: fake.requests.length };
  });
  return result!;
}

function assertNameAbsent(message: string) {
  for (const word of [SECRET_NAME, ...SECRET_NAME.split(" ")]) {
    assert.ok(!message.toLowerCase().includes(word.toLowerCase()), message);
  }
  assert.ok(!message.includes("127.0.0.1"), message);
}

Deno.test("wikidata: 429 is unavailable, reports Retry-After and does not retry", async () => {
  const r = await unavailable({ failWith: 429, retryAfter: "120" });
  assert.match(r.message, /HTTP 429/);
  assert.match(r.message, /retry after 120 s/);
  assert.equal(r.requests, 1);
  const dated = await unavailable({
    failWith: 429,
    retryAfter: new Date(Date.now() + 60_000).toUTCString(),
  });
  assert.match(dated.message, /retry after (59|60) s/);
});

Deno.test("wikidata: 5xx on either request is unavailable", async () => {
  assert.match((await unavailable({ failWith: 500 })).message, /HTTP 500/);
  const second = await unavailable({ failWith: 500, failOn: "wbgetentities" });
  assert.match(second.message, /HTTP 500/);
  assert.equal(second.requests, 2);
});

Deno.test("wikidata: malformed JSON is unavailable", async () => {
  assert.match((await unavailable({ failWith: "malformed" })).message, /not valid JSON/);
});

Deno.test("wikidata: a slow answer is unavailable at the timeout", async () => {
  const r = await unavailable({ failWith: "slow", slowMs: 5000 }, 150);
  assert.match(r.message, /did not answer within 150 ms/);
});

Deno.test("wikidata: MediaWiki error answers are unavailable, their info never repeated", async () => {
  const lag = await unavailable({ failWith: "maxlag", retryAfter: "5" });
  assert.match(lag.message, /maxlag/);
  assert.match(lag.message, /retry after 5 s/);
  assert.match((await unavailable({ failWith: "ratelimited" })).message, /ratelimited/);
  // The fake's internal error echoes the search text in `info`: the message must not.
  const internal = await unavailable({ failWith: "internal-error", failOn: "wbsearchentities" });
  assert.match(internal.message, /internal_api_error_DBQueryError/);
});

Deno.test("wikidata: an answer of the wrong shape is unavailable", async () => {
  const fetchWrongShape: typeof fetch = () =>
    Promise.resolve(Response.json({ search: [{ label: "no id" }] }));
  const answer = await createWikidataResolver({
    apiUrl: "http://127.0.0.1:9/w/api.php",
    userAgent: USER_AGENT,
    fetch: fetchWrongShape,
  }).resolve(SECRET_NAME);
  assert.equal(answer.kind, "unavailable");
  assert.match(answer.kind === "unavailable" ? answer.message : "", /expected shape/);
});

Deno.test("wikidata: a network error is unavailable, without the fetch error's text", async () => {
  // The real fetch error names the URL, which carries the company name.
  const failing: typeof fetch = (input) =>
    Promise.reject(new TypeError(`error sending request for url (${String(input)})`));
  const answer = await createWikidataResolver({
    apiUrl: "http://127.0.0.1:9/w/api.php",
    userAgent: USER_AGENT,
    fetch: failing,
  }).resolve(SECRET_NAME);
  assert.equal(answer.kind, "unavailable");
  if (answer.kind === "unavailable") {
    assertNameAbsent(answer.message);
    assert.match(answer.message, /could not be reached/);
  }
  // And a real refused connection: a fake that was closed.
  const fake = startFakeWikidata({ companies: COMPANIES });
  const url = fake.url;
  await fake.close();
  const refused = await resolverFor(url).resolve(SECRET_NAME);
  assert.equal(refused.kind, "unavailable");
  if (refused.kind === "unavailable") assertNameAbsent(refused.message);
});

Deno.test("wikidata: a blank name is not-found without a request", async () => {
  await withFake({}, async (fake) => {
    assert.deepEqual(await resolverFor(fake.url).resolve("   "), { kind: "not-found" });
    assert.equal(fake.requests.length, 0);
  });
});

Deno.test("company resolver none: every name is not-found", async () => {
  assert.deepEqual(await noCompanyResolver.resolve("BBC"), { kind: "not-found" });
  assert.deepEqual(await noCompanyResolver.resolve(""), { kind: "not-found" });
});
