/**
 * Enrich consults every source, also when the directory knows the address: each field comes from
 * the first source, in the order directory → Gravatar → GitHub → the network cross-reference, that
 * stated it; `sources` says which. What they stated is written back to the directory's record with
 * its source and time, and that record answers alone (no provider asked) until
 * `ENRICH_MAX_AGE_DAYS` has passed. Real adapters against fakes on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { findPersonByEmail } from "../domain/directory/find_person_by_email.ts";
import { importPeople, parseImportRecord } from "../domain/directory/import_people.ts";
import { FakeClock } from "../domain/shared/clock.ts";
import { profileResult, searchIndex, startFakeBrave } from "./fakes/brave_server.ts";
import { startFakeGithub } from "./fakes/github_server.ts";
import { startFakeGravatar } from "./fakes/gravatar_server.ts";
import { createConfiguredTestEnv, createTestWorkspace, DB_TEST, lookupCaller } from "./harness.ts";

const EMAIL = "ada@engines.test";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function startWorld(options: { gravatarFail?: 500 } = {}) {
  const gravatar = startFakeGravatar({
    profiles: {
      [EMAIL]: { display_name: "Ada Lovelace", job_title: "Analyst", location: "London, UK" },
    },
    ...(options.gravatarFail ? { failWith: options.gravatarFail } : {}),
  });
  const github = startFakeGithub({
    users: [{
      login: "adaking",
      name: "Ada King",
      company: "@Analytical Engines",
      location: "Marylebone",
      bio: "Poet of science",
      twitter_username: "ada_l",
      emails: [EMAIL],
    }],
  });
  const brave = startFakeBrave({
    key: "k",
    results: searchIndex([
      profileResult({
        name: "Ada Byron",
        title: "Enchantress of Numbers",
        company: "Analytical Engines",
        location: "London, England, United Kingdom",
        slug: "ada-byron",
      }),
    ]),
  });
  const clock = new FakeClock(Date.now());
  const env = await createConfiguredTestEnv({
    COMPANY_RESOLVER: "none",
    PROVIDER_TIMEOUT_SECONDS: "1",
    GRAVATAR_API_URL: gravatar.url,
    GITHUB_API_URL: github.url,
    BRAVE_SEARCH_URL: brave.url,
    BRAVE_SEARCH_KEY: "k",
  }, { clock, config: { searchCacheSeconds: 3600 } });
  // The directory's record, as an import (or find) leaves it: a name, a title, an address, and a
  // company known only by its domain.
  const parsed = parseImportRecord({
    name: "Ada Byron",
    given: "Ada",
    surname: "Byron",
    title: "Countess",
    companyDomain: "engines.test",
    emails: [{ address: EMAIL, status: "valid" }],
  });
  assert.ok(parsed.ok);
  await importPeople(env, [parsed.record]);
  const requests = () => gravatar.requests.length + github.requests.length + brave.requests.length;
  return {
    env,
    clock,
    requests,
    close: async () => {
      await env.close();
      await Promise.all([gravatar.close(), github.close(), brave.close()]);
    },
  };
}

type Source = { source: string; fields: string[]; url: string | null; retrievedAt: string };

function bySource(sources: Source[]): Record<string, string[]> {
  return Object.fromEntries(sources.map((s) => [s.source, [...s.fields].sort()]));
}

Deno.test(
  "enrich: every source consulted, each field from the first that stated it",
  DB_TEST,
  async (t) => {
    const world = await startWorld();
    const { env, clock } = world;
    try {
      const ws = await createTestWorkspace(env, 100);
      const enrich = lookupCaller(env, ws.apiKey, "/api/v1/enrich/email");
      const first = await enrich({ email: EMAIL });

      await t.step("per field, the first source in order wins", () => {
        const { data } = first;
        assert.equal(data.found, true);
        assert.deepEqual(data.person, {
          name: "Ada Byron", // directory (Gravatar's "Ada Lovelace", GitHub's "Ada King" lose)
          given: "Ada",
          surname: "Byron",
          title: "Countess", // directory, over Gravatar's "Analyst" and the profile's title
          location: "London, UK", // Gravatar, over GitHub's "Marylebone" and the profile's
          companyName: "Analytical Engines", // GitHub (no earlier source named the employer)
          headline: "Poet of science", // GitHub, over the profile's headline
          networkUrl: "https://linkedin.com/in/ada-byron", // the cross-reference alone
        });
        assert.equal(data.channels.x, "ada_l");
        assert.deepEqual(bySource(data.sources), {
          directory: ["person.given", "person.name", "person.surname", "person.title"],
          gravatar: ["person.location"],
          github: ["channels.x", "person.companyName", "person.headline"],
          brave: ["person.networkUrl"],
        });
        assert.deepEqual(
          data.sources.map((s: Source) => s.source),
          ["directory", "gravatar", "github", "brave"],
          "in the order consulted",
        );
        assert.equal(data.pointsCharged, 10);
      });

      await t.step("the record got the missing fields, with their source and time", async () => {
        const person = await findPersonByEmail(env, EMAIL);
        assert.equal(person?.title, "Countess", "its own field is kept");
        assert.equal(person?.location, "London, UK");
        assert.equal(person?.headline, "Poet of science");
        assert.equal(person?.networkUrl, "https://linkedin.com/in/ada-byron");
        assert.equal(person?.company?.name, "Analytical Engines");
        assert.equal(person?.channels.x, "ada_l");
        assert.equal(person?.fieldSources.location.source, "gravatar");
        assert.equal(person?.fieldSources.networkUrl.source, "brave");
        assert.equal(person?.fieldSources.networkUrl.url, "https://linkedin.com/in/ada-byron");
        assert.equal(person?.fieldSources.companyName.source, "github");
        assert.equal(person?.fieldSources.title, undefined);
        assert.equal(person?.fieldSources.location.at, new Date(clock.now()).toISOString());
        assert.equal(person?.enrichedAt, new Date(clock.now()).toISOString());
      });

      await t.step(
        "past the cache, the record answers alone: same fields, same sources",
        async () => {
          clock.advance(2 * HOUR);
          const before = world.requests();
          const { data } = await enrich({ email: EMAIL });
          assert.equal(world.requests(), before, "no provider asked");
          assert.equal(data.cached, false);
          assert.deepEqual(data.person, first.data.person);
          assert.deepEqual(data.channels, first.data.channels);
          assert.deepEqual(bySource(data.sources), bySource(first.data.sources));
          const gravatar = data.sources.find((s: Source) => s.source === "gravatar");
          assert.equal(gravatar.retrievedAt, first.data.sources[1].retrievedAt, "when it was read");
          assert.equal(data.pointsCharged, 10, "answered from our own records: billed");
        },
      );

      await t.step("after ENRICH_MAX_AGE_DAYS every source is asked again", async () => {
        clock.advance(31 * DAY);
        const before = world.requests();
        const { data } = await enrich({ email: EMAIL });
        assert.ok(world.requests() > before);
        assert.deepEqual(data.person, first.data.person);
        // The cross-reference now finds the profile in our own records (written back last time).
        const { brave: _, ...others } = bySource(first.data.sources);
        assert.deepEqual(bySource(data.sources), {
          ...others,
          directory: [...others.directory, "person.networkUrl"].sort(),
        });
      });
    } finally {
      await world.close();
    }
  },
);

Deno.test(
  "enrich: a known address whose source fails gets nothing, and nothing is written",
  DB_TEST,
  async () => {
    const world = await startWorld({ gravatarFail: 500 });
    try {
      const ws = await createTestWorkspace(world.env, 100);
      const { data } = await lookupCaller(world.env, ws.apiKey, "/api/v1/enrich/email")({
        email: EMAIL,
      });
      assert.equal(data.found, false);
      assert.equal(data.reason, "source-error");
      assert.equal(data.person, null);
      assert.equal(data.pointsCharged, 0);
      const person = await findPersonByEmail(world.env, EMAIL);
      assert.equal(person?.enrichedAt, null);
      assert.equal(person?.location, null);
    } finally {
      await world.close();
    }
  },
);

/**
 * Kari's address enriched with every source up, then again with every source down: the record
 * the first wrote answers alone, or (when it could not take everything) nothing is answered.
 */
async function enrichTwice(record: { companyDomain?: string }) {
  {
    const email = "kari@fjord.test";
    const gravatar = startFakeGravatar({
      profiles: {
        [email]: {
          display_name: "Kari N.",
          job_title: "Harbour master",
          company: "Fjordline",
          location: "Bergen",
        },
      },
    });
    const github = startFakeGithub({
      users: [{
        login: "karin",
        name: "Kari Nordmann",
        location: "Oslo",
        bio: "Ships and tides",
        twitter_username: "kari_tides",
        emails: [email],
      }],
    });
    const brave = startFakeBrave({
      key: "k",
      results: searchIndex([
        profileResult({
          name: "Kari Nordmann",
          title: "Harbour master",
          company: "Fjordline",
          location: "Bergen, Vestland, Norway",
          slug: "kari-nordmann",
        }),
      ]),
    });
    const clock = new FakeClock(Date.now());
    const env = await createConfiguredTestEnv({
      COMPANY_RESOLVER: "none",
      PROVIDER_TIMEOUT_SECONDS: "1",
      GRAVATAR_API_URL: gravatar.url,
      GITHUB_API_URL: github.url,
      BRAVE_SEARCH_URL: brave.url,
      BRAVE_SEARCH_KEY: "k",
    }, { clock, config: { searchCacheSeconds: 3600 } });
    let closed = false;
    const closeSources = async () => {
      if (closed) return;
      closed = true;
      await Promise.all([gravatar.close(), github.close(), brave.close()]);
    };
    try {
      // The directory knows the person and the address, and no company.
      const parsed = parseImportRecord({
        name: "Kari Nordmann",
        given: "Kari",
        surname: "Nordmann",
        emails: [{ address: email, status: "valid" }],
        ...record,
      });
      assert.ok(parsed.ok);
      await importPeople(env, [parsed.record]);
      const ws = await createTestWorkspace(env, 100);
      const enrich = lookupCaller(env, ws.apiKey, "/api/v1/enrich/email");
      const first = (await enrich({ email })).data;
      assert.equal(first.person.companyName, "Fjordline");
      assert.deepEqual(bySource(first.sources), {
        directory: ["person.given", "person.name", "person.surname"],
        gravatar: ["person.companyName", "person.location", "person.title"],
        github: ["channels.x", "person.headline"],
        brave: ["person.networkUrl"],
      });

      // Every outside source down, the cache past.
      await closeSources();
      clock.advance(2 * HOUR);
      const second = (await enrich({ email })).data;
      return { first, second, person: await findPersonByEmail(env, email) };
    } finally {
      await env.close();
      await closeSources();
    }
  }
}

Deno.test(
  "enrich: what it stated and wrote back comes back whole from the record alone, every field " +
    "with its source, also a company the record had none of",
  DB_TEST,
  async () => {
    const { first, second, person } = await enrichTwice({});
    assert.equal(second.found, true);
    assert.equal(second.cached, false);
    assert.deepEqual(second.person, first.person);
    assert.deepEqual(second.channels, first.channels);
    assert.deepEqual(bySource(second.sources), bySource(first.sources));
    assert.equal(person?.company?.name, "Fjordline");
    assert.equal(person?.fieldSources.companyName.source, "gravatar");
  },
);

Deno.test(
  "enrich: a record that could not take a stated field does not answer alone with less",
  DB_TEST,
  async () => {
    // The record's company is known only by another domain: Gravatar's employer is not its name.
    const { second, person } = await enrichTwice({ companyDomain: "fjordline.test" });
    assert.equal(person?.company?.name, "fjordline.test");
    assert.equal(person?.enrichedAt, null, "the record does not answer alone");
    // The sources are asked again and are down: nothing is answered, rather than less.
    assert.equal(second.found, false);
    assert.match(second.reason, /^source-/);
    assert.equal(second.person, null);
  },
);
