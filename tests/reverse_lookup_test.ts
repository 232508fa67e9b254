/**
 * The reverse-lookup adapters (Gravatar REST API v3, GitHub REST) against fake servers on
 * 127.0.0.1 that speak the real shapes: every mapped field, keyless and keyed Gravatar, hidden
 * accounts ignored, phone numbers never returned, GitHub's account choice, and every failure as
 * the right `why`, with messages that never hold the address.
 */
import assert from "node:assert/strict";
import { createGithubLookup } from "../domain/providers/reverse_lookup/github.ts";
import {
  createGravatarLookup,
  isNetworkProfileUrl,
} from "../domain/providers/reverse_lookup/gravatar.ts";
import { EXAMPLE_NETWORK } from "./fakes/brave_server.ts";
import { DEFAULT_PROFILE_NETWORK } from "../domain/shared/profile_network.ts";
import { looksLikePhone } from "../domain/providers/reverse_lookup/drop_phones.ts";
import type {
  ReverseLookupAnswer,
  ReverseLookupUnavailable,
} from "../domain/providers/reverse_lookup/port.ts";
import {
  type FakeGravatar,
  type FakeGravatarOptions,
  type FakeGravatarProfile,
  startFakeGravatar,
} from "./fakes/gravatar_server.ts";
import {
  type FakeGithub,
  type FakeGithubOptions,
  type FakeGithubUser,
  startFakeGithub,
} from "./fakes/github_server.ts";

const USER_AGENT = "contact-svc-tests/0.1 (https://example.invalid/contact-svc)";
const EMAIL = "ada@acme.test";
const PHONE = "+1 415 555 0134";
const PHONE_2 = "+44 20 7946 0958";
const PHONE_3 = "(212) 555-0188";
const GRAVATAR_KEY = "gk_test_key";
const GITHUB_TOKEN = "ghp_testtoken";

async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** No phone number anywhere in the answer: not its digits, not a string that looks like one. */
function assertNoPhone(answer: ReverseLookupAnswer) {
  const json = JSON.stringify(answer);
  const digits = json.replace(/\D/g, "");
  for (const phone of [PHONE, PHONE_2, PHONE_3]) {
    const tail = phone.replace(/\D/g, "").slice(-7);
    assert.ok(!digits.includes(tail), `${tail} in ${json}`);
  }
  const strings = (value: unknown): string[] =>
    typeof value === "string"
      ? [value]
      : Array.isArray(value)
      ? value.flatMap(strings)
      : value && typeof value === "object"
      ? Object.values(value).flatMap(strings)
      : [];
  for (const s of strings(answer)) assert.ok(!looksLikePhone(s), s);
}

/** A failure message names what went wrong, never the address, its parts, its hash or a URL. */
async function assertSafeMessage(message: string | undefined, email = EMAIL) {
  assert.ok(message, "a message");
  const lower = message!.toLowerCase();
  for (const secret of [email, email.split("@")[0], email.split("@")[1], await sha256Hex(email)]) {
    assert.ok(!lower.includes(secret.toLowerCase()), message);
  }
  assert.ok(!message!.includes("127.0.0.1"), message);
  assert.ok(!/https?:/.test(message!), message);
}

// ---------------------------------------------------------------------------------------------
// Gravatar

const ADA: FakeGravatarProfile = {
  display_name: "Ada Lovelace",
  first_name: "Ada",
  last_name: "Lovelace",
  job_title: "Chief Analyst",
  company: "Acme Engines",
  location: "London, UK",
  description: "  Writes   the first\nprograms.  ",
  profile_url: "https://gravatar.com/adalovelace",
  pronouns: "she/her",
  verified_accounts: [
    // Hidden accounts come first: they must be skipped, not merely outranked.
    {
      service_type: "twitter",
      service_label: "X",
      url: "https://x.com/ada_hidden",
      is_hidden: true,
    },
    {
      service_type: "network",
      service_label: "Network",
      url: "https://network.example/in/ada-hidden",
      is_hidden: true,
    },
    { service_type: "twitter", service_label: "X", url: "https://x.com/ada_l", is_hidden: false },
    {
      service_type: "network",
      service_label: "Network",
      url: "https://network.example/in/ada-lovelace",
      is_hidden: false,
    },
    { service_type: "github", service_label: "GitHub", url: "https://github.com/adal" },
  ],
  links: [
    { label: "Blog", url: "https://ada.github.io" },
    { label: "Company", url: "https://acme-engines.test" },
    { label: "Telegram", url: "https://t.me/ada_lovelace" },
    { label: "WhatsApp", url: "https://wa.me/14155550134" },
    { label: "Call me", url: "tel:+14155550134" },
  ],
  contact_info: {
    cell_phone: PHONE,
    home_phone: PHONE_2,
    work_phone: PHONE_3,
    email: "Ada@Analytical.test",
    contact_form: "",
    calendar: "",
  },
  languages: [{ code: "en", name: "English", is_primary: true, order: 1 }],
  timezone: "Europe/London",
};

const PHONEY: FakeGravatarProfile = {
  display_name: "Phoebe Phone",
  job_title: "Operations",
  company: PHONE_3,
  location: PHONE_2,
  description: `Reach me on ${PHONE} any time`,
  verified_accounts: [
    { service_type: "twitter", service_label: "X", url: "https://x.com/4155550134" },
    { service_type: "telegram", service_label: "Telegram", url: "https://t.me/+14155550134" },
  ],
  links: [
    { label: "Website", url: "https://wa.me/14155550134" },
    { label: "Phone", url: `tel:${PHONE}` },
  ],
  contact_info: { cell_phone: PHONE, home_phone: PHONE_2, email: "14155550134@sms.test" },
};

const GRAVATAR_PROFILES: Record<string, FakeGravatarProfile> = {
  [EMAIL]: ADA,
  "phoebe@acme.test": PHONEY,
  "noname@acme.test": { first_name: "Grace", last_name: "Hopper", display_name: "" },
  "hidden@acme.test": {
    display_name: "Hidden Harry",
    verified_accounts: [
      { service_type: "x", service_label: "X", url: "https://x.com/harry", is_hidden: true },
      {
        service_type: "network",
        service_label: "Network",
        url: "https://network.example/in/harry",
        is_hidden: true,
      },
      {
        service_type: "telegram",
        service_label: "Telegram",
        url: "https://t.me/harry_h",
        is_hidden: true,
      },
    ],
  },
  "long@acme.test": { display_name: "Long Bio", description: "word ".repeat(100) },
};

async function withGravatar(
  options: FakeGravatarOptions,
  run: (fake: FakeGravatar) => Promise<void>,
): Promise<void> {
  const fake = startFakeGravatar({ profiles: GRAVATAR_PROFILES, ...options });
  try {
    await run(fake);
  } finally {
    await fake.close();
  }
}

function gravatar(url: string, key: string | null = GRAVATAR_KEY, timeoutMs = 2000) {
  return createGravatarLookup({ url, key, timeoutMs, network: EXAMPLE_NETWORK });
}

Deno.test("gravatar: a keyed lookup states every mapped field", async () => {
  await withGravatar({ key: GRAVATAR_KEY }, async (fake) => {
    const lookup = gravatar(fake.url);
    assert.equal(lookup.source, "gravatar");
    const answer = await lookup.lookup(EMAIL);
    assert.deepEqual(answer, {
      kind: "found",
      fields: {
        name: "Ada Lovelace",
        given: "Ada",
        surname: "Lovelace",
        title: "Chief Analyst",
        companyName: "Acme Engines",
        location: "London, UK",
        headline: "Writes the first programs.",
        profileUrl: "https://gravatar.com/adalovelace",
        networkUrl: "https://network.example/in/ada-lovelace",
        x: "ada_l",
        telegram: "ada_lovelace",
        companyWebsite: "https://acme-engines.test",
        associatedEmails: ["ada@analytical.test"],
      },
    });
    assertNoPhone(answer);
    assert.equal(fake.requests.length, 1);
    assert.equal(fake.requests[0].pathname, `/v3/profiles/${await sha256Hex(EMAIL)}`);
    assert.equal(fake.requests[0].search, "");
    assert.equal(fake.headers[0].get("authorization"), `Bearer ${GRAVATAR_KEY}`);
    assert.equal(fake.headers[0].get("accept"), "application/json");
  });
});

Deno.test("gravatar: the hash is SHA-256 of the trimmed, lower-cased address (not MD5)", async () => {
  await withGravatar({}, async (fake) => {
    const answer = await gravatar(fake.url, null).lookup("  Ada@ACME.test ");
    assert.equal(answer.kind, "found");
    const hash = fake.requests[0].pathname.split("/").pop()!;
    assert.match(hash, /^[0-9a-f]{64}$/);
    assert.equal(hash, await sha256Hex(EMAIL));
  });
});

Deno.test("gravatar: without a key, no Authorization header and only the keyless fields", async () => {
  await withGravatar({ key: GRAVATAR_KEY }, async (fake) => {
    const answer = await gravatar(fake.url, null).lookup(EMAIL);
    assert.deepEqual(answer, {
      kind: "found",
      fields: {
        name: "Ada Lovelace",
        title: "Chief Analyst",
        companyName: "Acme Engines",
        location: "London, UK",
        headline: "Writes the first programs.",
        profileUrl: "https://gravatar.com/adalovelace",
        networkUrl: "https://network.example/in/ada-lovelace",
        x: "ada_l",
      },
    });
    assert.equal(fake.headers[0].get("authorization"), null);
    // A blank key counts as none.
    await gravatar(fake.url, "  ").lookup(EMAIL);
    assert.equal(fake.headers[1].get("authorization"), null);
  });
});

Deno.test("gravatar: a blank display name gives first + last name", async () => {
  await withGravatar({}, async (fake) => {
    const answer = await gravatar(fake.url).lookup("noname@acme.test");
    assert.equal(answer.kind, "found");
    if (answer.kind !== "found") return;
    assert.equal(answer.fields.name, "Grace Hopper");
    assert.equal(answer.fields.given, "Grace");
    assert.equal(answer.fields.surname, "Hopper");
    assert.equal(answer.fields.headline, undefined);
    assert.equal(answer.fields.title, undefined);
  });
});

Deno.test("gravatar: no profile is not-found", async () => {
  await withGravatar({}, async (fake) => {
    assert.deepEqual(await gravatar(fake.url).lookup("nobody@acme.test"), { kind: "not-found" });
    assert.equal(fake.requests.length, 1);
  });
});

Deno.test("gravatar: phone numbers are never returned, wherever the profile puts them", async () => {
  await withGravatar({}, async (fake) => {
    const answer = await gravatar(fake.url).lookup("phoebe@acme.test");
    assert.deepEqual(answer, {
      kind: "found",
      fields: { name: "Phoebe Phone", title: "Operations", profileUrl: answerProfileUrl(answer) },
    });
    assertNoPhone(answer);
    // The fake did send them: the adapter dropped them.
    const raw = await (await fetch(`${fake.url}/profiles/${await sha256Hex("phoebe@acme.test")}`))
      .json();
    assert.equal(raw.contact_info.cell_phone, PHONE);
  });
  // The full keyed profile of Ada holds three phone numbers in contact_info, and links to two.
  await withGravatar({ key: GRAVATAR_KEY }, async (fake) => {
    assertNoPhone(await gravatar(fake.url).lookup(EMAIL));
  });
});

function answerProfileUrl(answer: ReverseLookupAnswer): string | undefined {
  return answer.kind === "found" ? answer.fields.profileUrl : undefined;
}

Deno.test("gravatar: hidden verified accounts are not used", async () => {
  await withGravatar({}, async (fake) => {
    const answer = await gravatar(fake.url).lookup("hidden@acme.test");
    assert.equal(answer.kind, "found");
    if (answer.kind !== "found") return;
    assert.equal(answer.fields.name, "Hidden Harry");
    assert.equal(answer.fields.x, undefined);
    assert.equal(answer.fields.networkUrl, undefined);
    assert.equal(answer.fields.telegram, undefined);
    assert.ok(!JSON.stringify(answer).includes("harry"));
  });
});

Deno.test("gravatar: a long description is cut to a short headline", async () => {
  await withGravatar({}, async (fake) => {
    const answer = await gravatar(fake.url).lookup("long@acme.test");
    const headline = answer.kind === "found" ? answer.fields.headline! : "";
    assert.ok(headline.length <= 200, String(headline.length));
    assert.ok(headline.endsWith("word…"), headline);
  });
});

Deno.test("isNetworkProfileUrl: profile pages of the configured network only", () => {
  for (
    const url of [
      "https://network.example/in/ada-lovelace",
      "http://www.network.example/in/ada-lovelace/",
      "https://uk.network.example/in/ada-lovelace?trk=x",
      " https://NETWORK.example/IN/Ada ",
    ]
  ) {
    assert.ok(isNetworkProfileUrl(url, EXAMPLE_NETWORK), url);
  }
  for (
    const url of [
      "https://network.example/company/acme",
      "https://network.example/in/",
      "https://network.example/in/ada/details",
      "https://notnetwork.example/in/ada",
      "https://network.example.evil.test/in/ada",
      "ftp://network.example/in/ada",
      "network.example/in/ada",
    ]
  ) {
    assert.ok(!isNetworkProfileUrl(url, EXAMPLE_NETWORK), url);
  }
  // The default network is the real one: its pages count, the stand-in's do not.
  assert.ok(isNetworkProfileUrl("https://de.linkedin.com/in/ada-l/en", DEFAULT_PROFILE_NETWORK));
  assert.ok(!isNetworkProfileUrl("https://network.example/in/ada", DEFAULT_PROFILE_NETWORK));
});

Deno.test("gravatar: the default network's profile links are stated", async () => {
  await withGravatar({
    key: GRAVATAR_KEY,
    profiles: {
      [EMAIL]: {
        display_name: "Ada Lovelace",
        links: [{ label: "LinkedIn", url: "https://uk.linkedin.com/in/ada-lovelace" }],
      },
    },
  }, async (fake) => {
    const answer = await createGravatarLookup({ url: fake.url, key: GRAVATAR_KEY }).lookup(EMAIL);
    assert.equal(
      answer.kind === "found" && answer.fields.networkUrl,
      "https://uk.linkedin.com/in/ada-lovelace",
    );
  });
});

Deno.test("gravatar: the network profile test can be passed in", async () => {
  await withGravatar({}, async (fake) => {
    const lookup = createGravatarLookup({
      url: fake.url,
      key: GRAVATAR_KEY,
      isNetworkProfile: (url) => url.startsWith("https://github.com/"),
    });
    const answer = await lookup.lookup(EMAIL);
    assert.equal(answer.kind === "found" && answer.fields.networkUrl, "https://github.com/adal");
  });
});

async function gravatarFailure(
  options: FakeGravatarOptions,
  key: string | null = GRAVATAR_KEY,
  timeoutMs = 2000,
): Promise<{ why: ReverseLookupUnavailable; message: string }> {
  let result: { why: ReverseLookupUnavailable; message: string } | undefined;
  await withGravatar(options, async (fake) => {
    const answer = await gravatar(fake.url, key, timeoutMs).lookup(EMAIL);
    assert.equal(answer.kind, "unavailable", JSON.stringify(answer));
    if (answer.kind !== "unavailable") return;
    await assertSafeMessage(answer.message);
    result = { why: answer.why, message: answer.message! };
  });
  return result!;
}

Deno.test("gravatar: 429 is rate-limited and says when the limit resets", async () => {
  const r = await gravatarFailure({ failWith: 429 });
  assert.equal(r.why, "rate-limited");
  assert.match(r.message, /HTTP 429, resets in (3599|3600) s/);
});

Deno.test("gravatar: 401 and 403 are bad-key, and so is a wrong key", async () => {
  assert.equal((await gravatarFailure({ failWith: 401 })).why, "bad-key");
  assert.equal((await gravatarFailure({ failWith: 403 })).why, "bad-key");
  const wrong = await gravatarFailure({ key: "another-key" });
  assert.equal(wrong.why, "bad-key");
  assert.match(wrong.message, /HTTP 401/);
});

Deno.test("gravatar: 5xx, malformed JSON and a body of the wrong shape are provider-error", async () => {
  const server = await gravatarFailure({ failWith: 500 });
  assert.equal(server.why, "provider-error");
  assert.match(server.message, /HTTP 500/);
  const malformed = await gravatarFailure({ failWith: "malformed" });
  assert.equal(malformed.why, "provider-error");
  assert.match(malformed.message, /not valid JSON/);
  const shape = await gravatarFailure({ failWith: "wrong-shape" });
  assert.equal(shape.why, "provider-error");
  assert.match(shape.message, /expected shape/);
});

Deno.test("gravatar: a slow answer or an unreachable server is timeout", async () => {
  const slow = await gravatarFailure({ failWith: "slow", slowMs: 5000 }, GRAVATAR_KEY, 150);
  assert.equal(slow.why, "timeout");
  assert.match(slow.message, /did not answer within 150 ms/);

  const fake = startFakeGravatar({ profiles: GRAVATAR_PROFILES });
  const url = fake.url;
  await fake.close();
  const refused = await gravatar(url).lookup(EMAIL);
  assert.equal(refused.kind, "unavailable");
  if (refused.kind === "unavailable") {
    assert.equal(refused.why, "timeout");
    await assertSafeMessage(refused.message);
  }
  // A fetch error's own text names the URL (and so the hash): it is never repeated.
  const failing: typeof fetch = (input) =>
    Promise.reject(new TypeError(`error sending request for url (${String(input)})`));
  const network = await createGravatarLookup({ url, key: null, fetch: failing }).lookup(EMAIL);
  assert.equal(network.kind === "unavailable" && network.why, "timeout");
  if (network.kind === "unavailable") {
    await assertSafeMessage(network.message);
    assert.match(network.message!, /could not be reached/);
  }
});

// ---------------------------------------------------------------------------------------------
// GitHub

const GITHUB_USERS: FakeGithubUser[] = [
  {
    login: "adal",
    name: "Ada Lovelace",
    company: "@acme",
    blog: "acme-engines.test",
    location: "London",
    email: "Ada@Analytical.test",
    bio: "Poet of science",
    twitter_username: "ada_l",
    emails: [EMAIL, "ada+news@acme.test"],
  },
  {
    login: "gracehopper",
    name: "Grace Hopper",
    company: "Acme Inc",
    blog: "https://network.example/in/grace-hopper",
    location: null,
    email: "grace@acme.test",
    bio: null,
    twitter_username: null,
    emails: ["grace@acme.test"],
  },
  {
    login: "phoebe",
    name: "Phoebe Phone",
    company: PHONE_3,
    blog: "https://wa.me/14155550134",
    location: PHONE_2,
    email: "14155550134@sms.test",
    bio: `Call me at ${PHONE}`,
    emails: ["phoebe@acme.test"],
  },
  // Two accounts share an address: ambiguous.
  { login: "twin-one", name: "Twin One", emails: ["twins@acme.test"] },
  { login: "twin-two", name: "Twin Two", emails: ["twins@acme.test"] },
  // An organisation and one person share an address: the person is taken.
  { login: "acme-org", name: "Acme", type: "Organization", emails: ["hello@acme.test"] },
  { login: "helper", name: "Hal Helper", emails: ["hello@acme.test"] },
  // Only an organisation.
  { login: "widgets", name: "Widgets", type: "Organization", emails: ["info@widgets.test"] },
  {
    login: "xblog",
    name: "Xavier Blog",
    blog: "https://x.com/xavier_b",
    emails: ["xavier@acme.test"],
  },
  { login: "tgblog", blog: "t.me/tg_person", emails: ["tg@acme.test"] },
  { login: "ghblog", blog: "https://github.com/ghblog", emails: ["gh@acme.test"] },
  { login: "ipblog", blog: "http://192.0.2.10/", emails: ["ip@acme.test"] },
  { login: "wordblog", blog: "my homepage", emails: ["word@acme.test"] },
];

async function withGithub(
  options: FakeGithubOptions,
  run: (fake: FakeGithub) => Promise<void>,
): Promise<void> {
  const fake = startFakeGithub({ users: GITHUB_USERS, ...options });
  try {
    await run(fake);
  } finally {
    await fake.close();
  }
}

function github(url: string, token: string | null = GITHUB_TOKEN, timeoutMs = 2000) {
  return createGithubLookup({
    url,
    token,
    userAgent: USER_AGENT,
    timeoutMs,
    network: EXAMPLE_NETWORK,
  });
}

async function githubFields(fake: FakeGithub, email: string) {
  const answer = await github(fake.url).lookup(email);
  assert.equal(answer.kind, "found", JSON.stringify(answer));
  return answer.kind === "found" ? answer.fields : {};
}

Deno.test("github: search, then the user: every mapped field", async () => {
  await withGithub({ token: GITHUB_TOKEN }, async (fake) => {
    const lookup = github(fake.url);
    assert.equal(lookup.source, "github");
    const answer = await lookup.lookup(EMAIL);
    assert.deepEqual(answer, {
      kind: "found",
      fields: {
        name: "Ada Lovelace",
        companyName: "acme",
        location: "London",
        headline: "Poet of science",
        profileUrl: "https://github.com/adal",
        x: "ada_l",
        companyWebsite: "acme-engines.test",
        associatedEmails: ["ada@analytical.test"],
      },
    });
    assert.deepEqual(fake.requests.map((u) => u.pathname), ["/search/users", "/users/adal"]);
    assert.equal(fake.requests[0].search, "?q=ada%40acme.test+in%3Aemail");
    assert.equal(fake.requests[0].searchParams.get("q"), `${EMAIL} in:email`);
    for (const headers of fake.headers) {
      assert.equal(headers.get("accept"), "application/vnd.github+json");
      assert.equal(headers.get("user-agent"), USER_AGENT);
      assert.equal(headers.get("x-github-api-version"), "2022-11-28");
      assert.equal(headers.get("authorization"), `Bearer ${GITHUB_TOKEN}`);
    }
  });
});

Deno.test("github: the token is sent only when configured", async () => {
  await withGithub({}, async (fake) => {
    assert.equal((await github(fake.url, null).lookup(EMAIL)).kind, "found");
    assert.equal((await github(fake.url, " ").lookup(EMAIL)).kind, "found");
    assert.equal(fake.headers.length, 4);
    for (const headers of fake.headers) assert.equal(headers.get("authorization"), null);
  });
});

Deno.test("github: a `+` in the address is encoded, not read as a space", async () => {
  await withGithub({}, async (fake) => {
    const fields = await githubFields(fake, "ada+news@acme.test");
    assert.equal(fields.name, "Ada Lovelace");
    assert.equal(fake.requests[0].search, "?q=ada%2Bnews%40acme.test+in%3Aemail");
  });
});

Deno.test("github: company without @ is kept; the asked address is no associated email", async () => {
  await withGithub({}, async (fake) => {
    const fields = await githubFields(fake, "grace@acme.test");
    assert.deepEqual(fields, {
      name: "Grace Hopper",
      companyName: "Acme Inc",
      profileUrl: "https://github.com/gracehopper",
      // A network profile in `blog` is no company website.
      networkUrl: "https://network.example/in/grace-hopper",
    });
  });
});

Deno.test("github: blog is a company website only when it is a site of its own", async () => {
  await withGithub({}, async (fake) => {
    const x = await githubFields(fake, "xavier@acme.test");
    assert.equal(x.x, "xavier_b");
    assert.equal(x.companyWebsite, undefined);
    const tg = await githubFields(fake, "tg@acme.test");
    assert.equal(tg.telegram, "tg_person");
    assert.equal(tg.companyWebsite, undefined);
    for (const email of ["gh@acme.test", "ip@acme.test", "word@acme.test"]) {
      const fields = await githubFields(fake, email);
      assert.equal(fields.companyWebsite, undefined, email);
      assert.deepEqual(Object.keys(fields), ["profileUrl"], email);
    }
  });
});

Deno.test("github: no account, only organisations, or several people is not-found", async () => {
  await withGithub({}, async (fake) => {
    assert.deepEqual(await github(fake.url).lookup("nobody@acme.test"), { kind: "not-found" });
    assert.deepEqual(await github(fake.url).lookup("info@widgets.test"), { kind: "not-found" });
    assert.deepEqual(await github(fake.url).lookup("twins@acme.test"), { kind: "not-found" });
    // None of them read a user profile.
    assert.deepEqual(fake.requests.map((u) => u.pathname), Array(3).fill("/search/users"));
    // One person beside an organisation is that person.
    const fields = await githubFields(fake, "hello@acme.test");
    assert.equal(fields.name, "Hal Helper");
    assert.equal(fake.requests.at(-1)!.pathname, "/users/helper");
  });
});

Deno.test("github: a user gone between the two requests is not-found", async () => {
  const fetchGone: typeof fetch = (input) => {
    const url = new URL(String(input));
    if (url.pathname === "/search/users") {
      return Promise.resolve(Response.json({
        total_count: 1,
        incomplete_results: false,
        items: [{
          login: "ghost",
          id: 7,
          html_url: "https://github.com/ghost",
          url: "x",
          type: "User",
        }],
      }));
    }
    return Promise.resolve(Response.json({ message: "Not Found" }, { status: 404 }));
  };
  const lookup = createGithubLookup({
    url: "http://127.0.0.1:9",
    token: null,
    userAgent: USER_AGENT,
    fetch: fetchGone,
  });
  assert.deepEqual(await lookup.lookup(EMAIL), { kind: "not-found" });
});

Deno.test("github: phone numbers are never returned", async () => {
  await withGithub({}, async (fake) => {
    const answer = await github(fake.url).lookup("phoebe@acme.test");
    assert.deepEqual(answer, {
      kind: "found",
      fields: { name: "Phoebe Phone", profileUrl: "https://github.com/phoebe" },
    });
    assertNoPhone(answer);
  });
});

Deno.test("github: a User-Agent is required", () => {
  assert.throws(
    () => createGithubLookup({ url: "http://127.0.0.1:9", token: null, userAgent: " " }),
    /userAgent/,
  );
});

async function githubFailure(
  options: FakeGithubOptions,
  token: string | null = GITHUB_TOKEN,
  timeoutMs = 2000,
): Promise<{ why: ReverseLookupUnavailable; message: string; requests: number }> {
  let result: { why: ReverseLookupUnavailable; message: string; requests: number } | undefined;
  await withGithub(options, async (fake) => {
    const answer = await github(fake.url, token, timeoutMs).lookup(EMAIL);
    assert.equal(answer.kind, "unavailable", JSON.stringify(answer));
    if (answer.kind !== "unavailable") return;
    await assertSafeMessage(answer.message);
    assert.ok(!answer.message!.includes("adal"), answer.message!);
    assert.ok(!/exceeded|Bad credentials|Validation/i.test(answer.message!), answer.message!);
    result = { why: answer.why, message: answer.message!, requests: fake.requests.length };
  });
  return result!;
}

Deno.test("github: 403 or 429 with no requests remaining is rate-limited, not retried", async () => {
  const primary = await githubFailure({ failWith: "403-rate" });
  assert.equal(primary.why, "rate-limited");
  assert.match(primary.message, /HTTP 403 to the user search, resets in (59|60) s/);
  assert.equal(primary.requests, 1);
  const tooMany = await githubFailure({ failWith: 429 });
  assert.equal(tooMany.why, "rate-limited");
  assert.match(tooMany.message, /HTTP 429/);
  const secondary = await githubFailure({ failWith: "403-secondary" });
  assert.equal(secondary.why, "rate-limited");
  assert.match(secondary.message, /retry after 60 s/);
  const onUser = await githubFailure({ failWith: "403-rate", failOn: "user" });
  assert.equal(onUser.why, "rate-limited");
  assert.match(onUser.message, /the user profile, resets in (3599|3600) s/);
  assert.equal(onUser.requests, 2);
});

Deno.test("github: 401, a wrong token, and a plain 403 with a token are bad-key", async () => {
  assert.equal((await githubFailure({ failWith: 401 })).why, "bad-key");
  const wrong = await githubFailure({ token: "ghp_another" });
  assert.equal(wrong.why, "bad-key");
  assert.match(wrong.message, /HTTP 401/);
  assert.equal((await githubFailure({ failWith: 403 })).why, "bad-key");
  // Without a token there is no key to blame.
  assert.equal((await githubFailure({ failWith: 403 }, null)).why, "provider-error");
});

Deno.test("github: 422, 5xx, malformed, wrong shape and incomplete search are provider-error", async () => {
  const invalid = await githubFailure({ failWith: 422 });
  assert.equal(invalid.why, "provider-error");
  assert.match(invalid.message, /HTTP 422/);
  const server = await githubFailure({ failWith: 500 });
  assert.equal(server.why, "provider-error");
  assert.match(server.message, /HTTP 500 to the user search/);
  const onUser = await githubFailure({ failWith: 500, failOn: "user" });
  assert.match(onUser.message, /HTTP 500 to the user profile/);
  assert.equal(onUser.requests, 2);
  const malformed = await githubFailure({ failWith: "malformed" });
  assert.equal(malformed.why, "provider-error");
  assert.match(malformed.message, /not valid JSON/);
  const shape = await githubFailure({ failWith: "wrong-shape" });
  assert.equal(shape.why, "provider-error");
  assert.match(shape.message, /expected shape/);
  const incomplete = await githubFailure({ failWith: "incomplete" });
  assert.equal(incomplete.why, "provider-error");
  assert.match(incomplete.message, /incomplete/);
});

Deno.test("github: a slow answer or an unreachable server is timeout", async () => {
  const slow = await githubFailure({ failWith: "slow", slowMs: 5000 }, GITHUB_TOKEN, 150);
  assert.equal(slow.why, "timeout");
  assert.match(slow.message, /did not answer within 150 ms/);
  const slowUser = await githubFailure(
    { failWith: "slow", failOn: "user", slowMs: 5000 },
    GITHUB_TOKEN,
    150,
  );
  assert.equal(slowUser.why, "timeout");

  const fake = startFakeGithub({ users: GITHUB_USERS });
  const url = fake.url;
  await fake.close();
  const refused = await github(url).lookup(EMAIL);
  assert.equal(refused.kind === "unavailable" && refused.why, "timeout");
  if (refused.kind === "unavailable") await assertSafeMessage(refused.message);

  const failing: typeof fetch = (input) =>
    Promise.reject(new TypeError(`error sending request for url (${String(input)})`));
  const network = await createGithubLookup({
    url,
    token: null,
    userAgent: USER_AGENT,
    fetch: failing,
  }).lookup(EMAIL);
  assert.equal(network.kind === "unavailable" && network.why, "timeout");
  if (network.kind === "unavailable") {
    await assertSafeMessage(network.message);
    assert.match(network.message!, /could not be reached/);
  }
});

Deno.test("github fake: a request without a User-Agent is refused, as GitHub does", async () => {
  await withGithub({}, async (fake) => {
    // Deno's fetch always sends a User-Agent; a raw HTTP/1.1 request can leave it out.
    const { port } = new URL(fake.url);
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(port) });
    await conn.write(
      new TextEncoder().encode(
        "GET /search/users?q=x HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
      ),
    );
    const chunks: Uint8Array[] = [];
    for await (const chunk of conn.readable) chunks.push(chunk);
    const reply = new TextDecoder().decode(
      new Uint8Array(chunks.flatMap((c) => [...c])),
    );
    assert.match(reply, /^HTTP\/1\.1 403/);
    assert.match(reply, /User-Agent header/);
  });
});
