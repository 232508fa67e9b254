/**
 * With the stand-in network `network.example` (configured the way an operator would): reading a
 * web-search result into a profile candidate: every title shape, cut titles, location
 * against company, pages that are no profile, URL normalisation, and the `site:` query.
 */
import assert from "node:assert/strict";
import {
  companyPageResult,
  EXAMPLE_NETWORK,
  type FakeSearchResult,
  profileResult,
} from "../../tests/fakes/brave_server.ts";
import { normalizeNetworkUrl } from "../directory/normalize.ts";
import type { WebSearchResult } from "../providers/web_search/port.ts";
import { profileSearchQuery } from "./network.ts";
import {
  looksLikeLocation,
  type ProfileCandidate,
  readProfileResult,
} from "./read_profile_result.ts";

const URL_A = "https://www.network.example/in/mirela-okonkwo-hart";

function read(title: string, snippet = "", url = URL_A, extraSnippets?: string[]) {
  return readProfileResult(
    { title, url, snippet, ...(extraSnippets ? { extraSnippets } : {}) },
    EXAMPLE_NETWORK,
  );
}

/** A fake's result as the provider sends it (HTML description), unread by an adapter. */
function raw(result: FakeSearchResult): WebSearchResult {
  return { title: result.title, url: result.url, snippet: result.description };
}

function candidate(fields: Partial<ProfileCandidate> & { name: string }): ProfileCandidate {
  return {
    headline: null,
    title: null,
    companyName: null,
    location: null,
    networkUrl: URL_A.replace("www.", ""),
    ...fields,
  };
}

// --- title shapes ------------------------------------------------------------------------------

Deno.test("readProfileResult: Name - Title - Company | Network", () => {
  assert.deepEqual(
    read(
      "Mirela Okonkwo-Hart - Staff Engineer - Tallis Robotics | Network",
      "Staff Engineer at Tallis Robotics · Experience: Tallis Robotics · Location: Porto, " +
        "Portugal · 500+ connections on Network. View Mirela Okonkwo-Hart's profile on Network.",
    ),
    candidate({
      name: "Mirela Okonkwo-Hart",
      headline: "Staff Engineer - Tallis Robotics",
      title: "Staff Engineer",
      companyName: "Tallis Robotics",
      location: "Porto, Portugal",
    }),
  );
  // Without the suffix, and with en dashes throughout.
  assert.deepEqual(
    read("Mirela Okonkwo-Hart – Staff Engineer – Tallis Robotics"),
    candidate({
      name: "Mirela Okonkwo-Hart",
      headline: "Staff Engineer - Tallis Robotics",
      title: "Staff Engineer",
      companyName: "Tallis Robotics",
    }),
  );
  // A longer title with a dash of its own: the last part is the company.
  const vp = read("Mirela Okonkwo-Hart - VP - Platform - Tallis Robotics | Network");
  assert.equal(vp?.title, "VP - Platform");
  assert.equal(vp?.companyName, "Tallis Robotics");
});

Deno.test("readProfileResult: Name – Company | Network (en dash)", () => {
  assert.deepEqual(
    read("Bertrand Villeneuve – Ferrovia Logistique | Network"),
    candidate({ name: "Bertrand Villeneuve", companyName: "Ferrovia Logistique" }),
  );
  // The snippet's headline fills what the title lacks.
  assert.deepEqual(
    read(
      "Bertrand Villeneuve – Ferrovia Logistique | Network",
      "Lyon, Auvergne-Rhône-Alpes, France · Head of Operations at Ferrovia Logistique",
    ),
    candidate({
      name: "Bertrand Villeneuve",
      headline: "Head of Operations at Ferrovia Logistique",
      title: "Head of Operations",
      companyName: "Ferrovia Logistique",
      location: "Lyon, Auvergne-Rhône-Alpes, France",
    }),
  );
});

Deno.test("readProfileResult: Name - Location | Network", () => {
  for (
    const place of [
      "Rotterdam, Netherlands",
      "Austin, TX",
      "Austin, Texas, United States",
      "Greater Manchester Area",
      "Greater Seattle Area",
      "San Francisco Bay Area",
      "Berlin Metropolitan Area",
      "Remote",
      "Singapore",
      "Germany",
    ]
  ) {
    const read1 = read(`Ines Achterberg - ${place} | Network`);
    assert.equal(read1?.location, place, place);
    assert.equal(read1?.companyName, null, place);
    assert.equal(read1?.title, null, place);
  }
  // A location pattern wins even after an en dash.
  assert.equal(read("Ines Achterberg – Toronto, ON | Network")?.location, "Toronto, ON");
  assert.equal(read("Ines Achterberg – Toronto, ON | Network")?.companyName, null);
});

Deno.test("readProfileResult: Name - Title at Company | Network", () => {
  assert.deepEqual(
    read("Tomasz Wróbel - Product Manager at Kestrel Data | Network"),
    candidate({
      name: "Tomasz Wróbel",
      headline: "Product Manager at Kestrel Data",
      title: "Product Manager",
      companyName: "Kestrel Data",
    }),
  );
  assert.equal(read("Tomasz Wróbel - Ingenieur bei Kestrel Data")?.companyName, "Kestrel Data");
  assert.equal(read("Tomasz Wróbel - Founder @ Kestrel Data")?.title, "Founder");
  // With a location part after it.
  const withPlace = read("Tomasz Wróbel - Product Manager at Kestrel Data - Warsaw, Poland");
  assert.equal(withPlace?.location, "Warsaw, Poland");
  assert.equal(withPlace?.companyName, "Kestrel Data");
  // Title, company and location as three parts.
  const three = read("Tomasz Wróbel - Product Manager - Kestrel Data - Kraków, Poland | Network");
  assert.equal(three?.title, "Product Manager");
  assert.equal(three?.companyName, "Kestrel Data");
  assert.equal(three?.location, "Kraków, Poland");
});

Deno.test("readProfileResult: a name alone; the snippet gives the rest", () => {
  assert.deepEqual(
    read("Saoirse Delacroix | Network", "Berlin, Germany · Senior Engineer at Umbra Systems"),
    candidate({
      name: "Saoirse Delacroix",
      headline: "Senior Engineer at Umbra Systems",
      title: "Senior Engineer",
      companyName: "Umbra Systems",
      location: "Berlin, Germany",
    }),
  );
  assert.deepEqual(read("Saoirse Delacroix"), candidate({ name: "Saoirse Delacroix" }));
  // The snippet's "Name - headline" lead and a labelled form; prose and counts are skipped.
  const labelled = read(
    "Saoirse Delacroix | Network",
    "Saoirse Delacroix - Data Lead · Experience: Umbra Systems · Education: Trinity College " +
      "Dublin · Location: Cork · 312 connections on Network. View Saoirse's profile.",
  );
  assert.equal(labelled?.headline, "Data Lead");
  assert.equal(labelled?.companyName, "Umbra Systems");
  assert.equal(labelled?.location, "Cork");
  assert.equal(labelled?.title, null);
});

Deno.test("readProfileResult: HTML left in a title or snippet is read as text", () => {
  const result = read(
    "<b>Mirela</b> Okonkwo-Hart - Research &amp; Development Lead - Tallis &amp; Co | Network",
    "<strong>Mirela</strong> &middot; Location: S&atilde;o Paulo &middot; Experience: Tallis &amp; Co",
  );
  assert.equal(result?.name, "Mirela Okonkwo-Hart");
  assert.equal(result?.title, "Research & Development Lead");
  assert.equal(result?.companyName, "Tallis & Co");
  assert.equal(result?.location, "S&atilde;o Paulo");
});

Deno.test("readProfileResult: the network's name is configurable", () => {
  const network = { host: "people.example", pathPrefix: "/p/", displayName: "People" };
  const result = readProfileResult({
    title: "Odile Marchetti - Archivist - Casa Verde - People",
    url: "https://people.example/p/odile-m",
    snippet: "",
  }, network);
  assert.equal(result?.companyName, "Casa Verde");
  assert.equal(result?.networkUrl, "https://people.example/p/odile-m");
  assert.equal(
    read("Odile Marchetti - Archivist - Casa Verde - Network")?.companyName,
    "Casa Verde",
  );
});

// --- cut titles --------------------------------------------------------------------------------

Deno.test("readProfileResult: a part cut short is never the company", () => {
  const cut = read("Mirela Okonkwo-Hart - Senior Engineer - Tallis Robot…");
  assert.equal(cut?.companyName, null);
  assert.equal(cut?.title, "Senior Engineer");
  assert.equal(cut?.headline, "Senior Engineer");
  // "..." too, and the snippet's employer is used instead.
  const dots = read(
    "Mirela Okonkwo-Hart - Senior Engineer - Tallis Robot...",
    "Experience: Tallis Robotics GmbH · Location: Munich",
  );
  assert.equal(dots?.companyName, "Tallis Robotics GmbH");
  assert.equal(dots?.location, "Munich");
  const at = read("Mirela Okonkwo-Hart - Senior Software Engineer at Tallis Rob...");
  assert.equal(at?.title, "Senior Software Engineer");
  assert.equal(at?.companyName, null);
  assert.equal(at?.headline, "Senior Software Engineer");
  // One part, cut: neither company nor title nor location.
  const single = read("Mirela Okonkwo-Hart – Ferrovia Logis…");
  assert.equal(single?.companyName, null);
  assert.equal(single?.title, null);
  assert.equal(single?.location, null);
  const cutPlace = read("Mirela Okonkwo-Hart - San Francisco Bay…");
  assert.equal(cutPlace?.location, null);
  // A cut title part: no title, the company unknown.
  assert.equal(read("Mirela Okonkwo-Hart - Principal Softw…")?.title, null);
});

Deno.test("readProfileResult: a cut in the site's name loses nothing", () => {
  for (
    const title of [
      "Mirela Okonkwo-Hart - Staff Engineer - Tallis Robotics | Netw…",
      "Mirela Okonkwo-Hart - Staff Engineer - Tallis Robotics |…",
      "Mirela Okonkwo-Hart - Staff Engineer - Tallis Robotics | ...",
      "Mirela Okonkwo-Hart - Staff Engineer - Tallis Robotics - Netw…",
    ]
  ) {
    const result = read(title);
    assert.equal(result?.companyName, "Tallis Robotics", title);
    assert.equal(result?.title, "Staff Engineer", title);
  }
});

Deno.test("readProfileResult: a cut name, or a title that names no one, is no candidate", () => {
  assert.equal(read("Alexandrina Papadimitriou-Vasilak…"), null);
  assert.equal(read("Network"), null);
  assert.equal(read("Network | Network"), null);
  assert.equal(read(""), null);
  assert.equal(read("Log in: 2 new notifications | Network"), null);
});

// --- location or company ------------------------------------------------------------------------

Deno.test("readProfileResult: a part that could be a place or an employer follows the snippet", () => {
  // No evidence: neither (never guessed).
  const unknown = read("Leontyne Abara - Halvorsen | Network");
  assert.equal(unknown?.companyName, null);
  assert.equal(unknown?.location, null);
  // The snippet says it is where she lives.
  const place = read(
    "Leontyne Abara - Halvorsen | Network",
    "Location: Halvorsen · 80 connections",
  );
  assert.equal(place?.location, "Halvorsen");
  assert.equal(place?.companyName, null);
  // The snippet says it is her employer.
  const employer = read("Leontyne Abara - Halvorsen | Network", "Experience: Halvorsen");
  assert.equal(employer?.companyName, "Halvorsen");
  assert.equal(employer?.location, null);
  // The snippet's headline names it as the employer.
  const headline = read("Leontyne Abara - Halvorsen | Network", "Buyer at Halvorsen · Oslo");
  assert.equal(headline?.companyName, "Halvorsen");
  // A job word makes it the title.
  const job = read("Leontyne Abara - Freelance Translator | Network");
  assert.equal(job?.title, "Freelance Translator");
  assert.equal(job?.companyName, null);
  // "Acme, Inc." is no "City, Region".
  assert.equal(read("Leontyne Abara - Pellucid, Inc. | Network")?.location, null);
  assert.equal(read("Leontyne Abara – Pellucid, Inc. | Network")?.companyName, "Pellucid, Inc.");
  // A place in the title's company position is the location.
  const placeLast = read("Leontyne Abara - Buyer - Lagos, Nigeria | Network");
  assert.equal(placeLast?.location, "Lagos, Nigeria");
  assert.equal(placeLast?.companyName, null);
  assert.equal(placeLast?.title, "Buyer");
});

Deno.test("looksLikeLocation: the small list, never a guess", () => {
  for (
    const yes of [
      "London",
      "São Paulo",
      "Leeds, England, United Kingdom",
      "Portland, OR",
      "Portland, Oregon",
      "Pune, Maharashtra, India",
      "Greater Boston Area",
      "Paris Metropolitan Region",
      "Remote",
      "Remote (EU)",
      "UK",
    ]
  ) assert.ok(looksLikeLocation(yes), yes);
  for (
    const no of [
      "Acme, Inc.",
      "Smith, Co",
      "Remote Sensing Engineer",
      "Boston Consulting Group",
      "Halvorsen",
      "Area 51 Labs",
      "Greater Good Ventures",
      "",
    ]
  ) assert.ok(!looksLikeLocation(no), no);
});

// --- the URL -------------------------------------------------------------------------------------

Deno.test("readProfileResult: only profile pages on the network", () => {
  const title = "Mirela Okonkwo-Hart - Staff Engineer - Tallis Robotics | Network";
  for (
    const url of [
      "https://www.network.example/company/tallis-robotics",
      "https://www.network.example/posts/mirela-okonkwo-hart_activity-7123",
      "https://www.network.example/pub/dir/Mirela/Okonkwo-Hart",
      "https://www.network.example/in/",
      "https://www.network.example/in",
      "https://www.network.example/in/mirela-okonkwo-hart/details/experience",
      "https://www.network.example/in/mirela-okonkwo-hart/recent-activity",
      "https://network.example.evil.test/in/mirela-okonkwo-hart",
      "https://evilnetwork.example/in/mirela-okonkwo-hart",
      "https://www.network.example:8443/in/mirela-okonkwo-hart",
      "https://user:pw@www.network.example/in/mirela-okonkwo-hart",
      "ftp://www.network.example/in/mirela-okonkwo-hart",
      "javascript:alert(1)//network.example/in/x",
      "https://tallis-robotics.example/team/mirela",
      "not a url",
      "https://www.network.example/in/%E0%A4%A/",
    ]
  ) assert.equal(read(title, "", url), null, url);
  // A company page from a fake, read whole.
  assert.equal(
    readProfileResult(
      raw(
        companyPageResult({ company: "Tallis Robotics", slug: "tallis", network: EXAMPLE_NETWORK }),
      ),
      EXAMPLE_NETWORK,
    ),
    null,
  );
});

Deno.test("readProfileResult: the profile URL is normalised", () => {
  const cases: [string, string][] = [
    [URL_A, "https://network.example/in/mirela-okonkwo-hart"],
    [
      "http://uk.network.example/in/Mirela-Okonkwo-Hart/?trk=public_profile#about",
      "https://network.example/in/mirela-okonkwo-hart",
    ],
    [
      "https://de.network.example/in/mirela-okonkwo-hart/de",
      "https://network.example/in/mirela-okonkwo-hart",
    ],
    [
      "https://WWW.Network.Example./IN/mirela-okonkwo-hart//",
      "https://network.example/in/mirela-okonkwo-hart",
    ],
    [
      "https://network.example/in/j%C3%BCrgen-wei%C3%9F",
      "https://network.example/in/j%c3%bcrgen-wei%c3%9f",
    ],
    [
      "https://www.network.example/in/jürgen-weiß",
      "https://network.example/in/j%c3%bcrgen-wei%c3%9f",
    ],
  ];
  for (const [url, expected] of cases) {
    const result = read("Mirela Okonkwo-Hart - Tallis Robotics | Network", "", url);
    assert.equal(result?.networkUrl, expected, url);
    // The same form the directory keys profiles by.
    assert.equal(normalizeNetworkUrl(url, EXAMPLE_NETWORK), expected, url);
  }
});

// --- with the fakes' results ----------------------------------------------------------------------

Deno.test("readProfileResult: every shape the fakes build reads back", () => {
  const person = {
    name: "Kwabena Oduro-Lindqvist",
    title: "Staff Data Engineer",
    company: "Fjordline Analytics",
    location: "Gothenburg, Sweden",
    slug: "kwabena-oduro-lindqvist",
  };
  const url = "https://network.example/in/kwabena-oduro-lindqvist";
  const full = (shape: "title-company" | "title-at-company" | "company" | "location" | "name") =>
    readProfileResult(
      raw(profileResult({ ...person, network: EXAMPLE_NETWORK, shape })),
      EXAMPLE_NETWORK,
    );
  const expected: ProfileCandidate = {
    name: person.name,
    headline: "Staff Data Engineer - Fjordline Analytics",
    title: "Staff Data Engineer",
    companyName: "Fjordline Analytics",
    location: "Gothenburg, Sweden",
    networkUrl: url,
  };
  assert.deepEqual(full("title-company"), expected);
  assert.deepEqual(full("title-at-company"), {
    ...expected,
    headline: "Staff Data Engineer at Fjordline Analytics",
  });
  // The company and location shapes take the headline from the snippet.
  assert.deepEqual(full("company"), {
    ...expected,
    headline: "Staff Data Engineer at Fjordline Analytics",
  });
  assert.deepEqual(full("location"), {
    ...expected,
    headline: "Staff Data Engineer at Fjordline Analytics",
  });
  assert.deepEqual(full("name"), {
    ...expected,
    headline: "Staff Data Engineer at Fjordline Analytics",
  });
  // Without a snippet, only what the title says.
  const bare = readProfileResult(
    raw(
      profileResult({
        ...person,
        network: EXAMPLE_NETWORK,
        shape: "location",
        snippet: "none",
        subdomain: "se",
      }),
    ),
    EXAMPLE_NETWORK,
  );
  assert.deepEqual(bare, {
    name: person.name,
    headline: null,
    title: null,
    companyName: null,
    location: "Gothenburg, Sweden",
    networkUrl: url,
  });
  // Cut by the engine: the company part is not used.
  const cut = readProfileResult(
    raw(
      profileResult({
        ...person,
        network: EXAMPLE_NETWORK,
        truncateAt: 60,
        ellipsis: "...",
        snippet: "none",
      }),
    ),
    EXAMPLE_NETWORK,
  );
  assert.equal(cut?.title, "Staff Data Engineer");
  assert.equal(cut?.companyName, null);
  // The "dotted" snippet form.
  const dotted = readProfileResult(
    raw(profileResult({ ...person, network: EXAMPLE_NETWORK, shape: "name", snippet: "dotted" })),
    EXAMPLE_NETWORK,
  );
  assert.equal(dotted?.location, "Gothenburg, Sweden");
  assert.equal(dotted?.companyName, "Fjordline Analytics");
});

Deno.test("readProfileResult: extra snippets are evidence after the snippet", () => {
  const result = read(
    "Leontyne Abara - Halvorsen | Network",
    "Leontyne has worked on supply chains for a decade and writes about it often, " +
      "mostly about shipping.",
    URL_A,
    ["Experience: Halvorsen · Location: Bergen, Norway"],
  );
  assert.equal(result?.companyName, "Halvorsen");
  assert.equal(result?.location, "Bergen, Norway");
});

// --- the query -------------------------------------------------------------------------------------

Deno.test("profileSearchQuery: a site: query with the name and the employer as phrases", () => {
  assert.equal(
    profileSearchQuery({ firstName: "Mirela", lastName: "Okonkwo-Hart" }, EXAMPLE_NETWORK),
    'site:network.example/in "Mirela Okonkwo-Hart"',
  );
  assert.equal(
    profileSearchQuery({
      firstName: " Mirela ",
      lastName: "Okonkwo-Hart",
      company: "Tallis Robotics",
    }, EXAMPLE_NETWORK),
    'site:network.example/in "Mirela Okonkwo-Hart" "Tallis Robotics"',
  );
  // Quotes in the inputs cannot close a phrase; a blank or null company is left out.
  assert.equal(
    profileSearchQuery({
      firstName: 'Mirela "Mimi"',
      lastName: "Okonkwo“Hart”",
      company: '" OR site:evil.example "',
    }, EXAMPLE_NETWORK),
    'site:network.example/in "Mirela Mimi Okonkwo Hart" "OR site:evil.example"',
  );
  assert.equal(
    profileSearchQuery(
      { firstName: "Mirela", lastName: "Okonkwo-Hart", company: "  " },
      EXAMPLE_NETWORK,
    ),
    'site:network.example/in "Mirela Okonkwo-Hart"',
  );
  assert.equal(
    profileSearchQuery(
      { firstName: "Mirela", lastName: "Okonkwo-Hart", company: null },
      EXAMPLE_NETWORK,
    ),
    'site:network.example/in "Mirela Okonkwo-Hart"',
  );
});

Deno.test("readProfileResult: more evidence rules", () => {
  // "Place · Title · Company": the part after the headline names the employer.
  const google = read(
    "Leontyne Abara - Halvorsen | Network",
    "Bergen, Vestland, Norway · Category Buyer · Halvorsen",
  );
  assert.equal(google?.companyName, "Halvorsen");
  assert.equal(google?.location, "Bergen, Vestland, Norway");
  assert.equal(google?.headline, "Category Buyer");
  // A headline that is the title's part is a headline, not (without a job word) a title.
  const slogan = read("Leontyne Abara - Making Ships Move | Network", "Making Ships Move · Oslo");
  assert.equal(slogan?.headline, "Making Ships Move");
  assert.equal(slogan?.title, null);
  assert.equal(slogan?.companyName, null);
  assert.equal(slogan?.location, "Oslo");
  // Pronouns are dropped from the name; other asides stay for the name reader.
  assert.equal(read("Leontyne Abara (she/her) - Buyer at Halvorsen")?.name, "Leontyne Abara");
  assert.equal(read("Leontyne (Lee) Abara - Halvorsen | Network")?.name, "Leontyne (Lee) Abara");
  // A snippet fragment that starts mid-sentence is no headline.
  assert.equal(read("Leontyne Abara | Network", "… Buyer at Halvorsen · Oslo")?.headline, null);
});
