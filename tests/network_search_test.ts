/**
 * `POST /api/v1/network-search` and find's `network`-mode fallback through the app, with the real
 * web-search adapters (Brave, SerpApi) built from configuration and pointed at fake servers on
 * 127.0.0.1 that answer the providers' documented shapes, errors included.
 */
import assert from "node:assert/strict";
import { findPersonByNetworkUrl } from "../domain/directory/find_person_by_network_url.ts";
import {
  createConfiguredTestEnv,
  createTestWorkspace,
  DB_TEST,
  lookupCaller,
  type TestEnv,
} from "./harness.ts";
import {
  EXAMPLE_NETWORK,
  profileResult,
  searchIndex,
  startFakeBrave,
} from "./fakes/brave_server.ts";
import { startFakeSerpApi } from "./fakes/serpapi_server.ts";

const PRICE = 5;

const PROFILES = [
  profileResult({
    name: "Grace Hopper",
    title: "Rear Admiral",
    company: "Acme",
    location: "Arlington, Virginia",
    slug: "grace-hopper-1906",
  }),
  profileResult({ name: "Grace Hopkins", title: "Nurse", company: "Other", slug: "grace-hopkins" }),
  profileResult({ name: "László Nagy", company: "Initech", slug: "laszlo-nagy" }),
];

async function appWith(env: Record<string, string>) {
  const test = await createConfiguredTestEnv({
    COMPANY_RESOLVER: "none",
    PROVIDER_TIMEOUT_SECONDS: "1",
    ...env,
  });
  return { test, close: () => test.close() };
}

/** A fresh app configured by `env` and a workspace, searching for Grace Hopper. */
async function searchGraceWith(env: Record<string, string>) {
  const world = await appWith(env);
  const ws = await createTestWorkspace(world.test, 100);
  const { data } = await searcher(world.test, ws.apiKey)({
    firstName: "Grace",
    lastName: "Hopper",
  });
  return { world, ws, data };
}

function searcher(env: TestEnv, apiKey: string) {
  return lookupCaller(env, apiKey, "/api/v1/network-search");
}

for (const provider of ["brave", "serpapi"] as const) {
  Deno.test(`network search with ${provider}: match, none, cache, errors`, DB_TEST, async (t) => {
    const fake = provider === "brave"
      ? startFakeBrave({ key: "test-key", results: () => PROFILES })
      : startFakeSerpApi({ key: "test-key", results: () => PROFILES });
    const prefix = provider === "brave" ? "BRAVE_SEARCH" : "SERPAPI";
    // Only the provider's key (and the fake's address): the provider and the real network's
    // shapes (linkedin.com/in/…, "… | LinkedIn") are the defaults.
    const world = await appWith({
      [`${prefix}_URL`]: fake.url,
      [`${prefix}_KEY`]: "test-key",
    });
    const env = world.test;
    try {
      const ws = await createTestWorkspace(env, 100);
      const search = searcher(env, ws.apiKey);

      await t.step("the best candidate, read from title and snippet; billed", async () => {
        const { status, data } = await search({ firstName: "Grace", lastName: "Hopper" });
        assert.equal(status, 200);
        assert.equal(data.matches.length, 1);
        const [match] = data.matches;
        assert.equal(match.name, "Grace Hopper");
        assert.equal(match.companyName, "Acme");
        assert.equal(match.title, "Rear Admiral");
        assert.equal(match.networkUrl, "https://linkedin.com/in/grace-hopper-1906");
        assert.equal(data.reason, null);
        assert.equal(data.cached, false);
        assert.equal(data.pointsCharged, PRICE);
        assert.equal(data.creditsCharged, PRICE);
        assert.ok(fake.requests.length >= 1);
        const query = fake.requests.at(-1)!.searchParams.get("q")!;
        assert.match(query, /^site:linkedin\.com\/in /);
        assert.match(query, /"Grace Hopper"/);
      });

      await t.step("the profile was learned into the directory", async () => {
        const person = await findPersonByNetworkUrl(
          env,
          "https://linkedin.com/in/grace-hopper-1906",
        );
        assert.equal(person?.fullName, "Grace Hopper");
      });

      await t.step("find's network mode reads the profile under any of its URLs", async () => {
        const asked = fake.requests.length;
        const { data } = await lookupCaller(env, ws.apiKey, "/api/v1/find")({
          mode: "network",
          networkUrl: "http://uk.linkedin.com/in/Grace-Hopper-1906/en/?originalSubdomain=uk",
        });
        assert.equal(data.resolvedProfile.networkUrl, "https://linkedin.com/in/grace-hopper-1906");
        assert.equal(data.resolvedProfile.companyName, "Acme");
        assert.equal(fake.requests.length, asked, "answered from the directory");
      });

      await t.step("diacritics and order folded: Nagy Laszlo finds László Nagy", async () => {
        const { data } = await search({
          firstName: "Laszlo",
          lastName: "Nagy",
          company: "Initech",
        });
        assert.equal(data.matches[0]?.networkUrl, "https://linkedin.com/in/laszlo-nagy");
      });

      await t.step("an employer that does not match is no match; billed (completed)", async () => {
        const { data } = await search({ firstName: "Grace", lastName: "Hopkins", company: "Acme" });
        assert.deepEqual(data.matches, []);
        assert.equal(data.reason, null);
        assert.equal(data.pointsCharged, PRICE);
      });

      await t.step("zero results: empty matches, no reason, billed", async () => {
        const { data } = await search({ firstName: "Nobody", lastName: "Known" });
        assert.deepEqual(data.matches, []);
        assert.equal(data.reason, null);
        assert.equal(data.pointsCharged, PRICE);
      });

      await t.step("the same search again comes from the cache: cached, billed", async () => {
        const asked = fake.requests.length;
        const { data } = await search({ firstName: "Nobody", lastName: "Known" });
        assert.equal(data.cached, true);
        assert.equal(data.pointsCharged, PRICE);
        assert.equal(fake.requests.length, asked);
      });

      await t.step("replay under an Idempotency-Key: free, identical", async () => {
        const first = await search({ firstName: "Ada", lastName: "Lovelace" }, "ns-1");
        const again = await search({ firstName: "Ada", lastName: "Lovelace" }, "ns-1");
        assert.equal(again.data.replay, true);
        assert.equal(again.data.pointsCharged, 0);
        assert.deepEqual(again.data.matches, first.data.matches);
      });

      await t.step("blank or missing names are 400 validation_error", async () => {
        for (
          const [body, message] of [
            [{ lastName: "Hopper" }, "firstName is required"],
            [{ firstName: " ", lastName: "Hopper" }, "firstName must not be blank"],
            [{ firstName: "Grace", lastName: 3 }, "lastName must be a string"],
            // NUL cannot be stored: a clear refusal, not a 500
            [
              { firstName: "Gr\u0000ace", lastName: "Hopper" },
              "firstName must not contain control characters",
            ],
            [
              { firstName: "Grace", lastName: "Hopper", company: "Acme\u0001" },
              "company must not contain control characters",
            ],
          ] as const
        ) {
          const { status, error } = await search(body);
          assert.equal(status, 400);
          assert.deepEqual(error, { code: "validation_error", message });
        }
      });
    } finally {
      await world.close();
      await fake.close();
    }
  });
}

for (const failWith of [429, 500, 401, "slow"] as const) {
  Deno.test(
    `network search: a provider ${failWith} is search-unavailable, not billed`,
    DB_TEST,
    async () => {
      const fake = startFakeBrave({
        key: "test-key",
        results: () => PROFILES,
        failWith,
        slowMs: 3000,
      });
      const world = await appWith({
        NETWORK_SEARCH_PROVIDER: "brave",
        BRAVE_SEARCH_URL: fake.url,
        BRAVE_SEARCH_KEY: failWith === 401 ? "wrong-key" : "test-key",
      });
      try {
        const ws = await createTestWorkspace(world.test, 100);
        const { data } = await searcher(world.test, ws.apiKey)(
          { firstName: "Grace", lastName: "Hopper" },
          "fail-1",
        );
        assert.deepEqual(data.matches, []);
        assert.equal(data.reason, "search-unavailable");
        assert.equal(data.charged, false);
        assert.equal(data.pointsCharged, 0);
        assert.equal(data.balance.available, 100);
      } finally {
        await world.close();
        await fake.close();
      }
    },
  );
}

Deno.test(
  "network search: the network is configuration; results of another network are not profiles",
  DB_TEST,
  async (t) => {
    const example = [
      profileResult({
        name: "Grace Hopper",
        title: "Rear Admiral",
        company: "Acme",
        slug: "grace-hopper",
        network: EXAMPLE_NETWORK,
      }),
    ];
    const fake = startFakeBrave({ key: "test-key", results: searchIndex(example) });
    const keyOnly = { BRAVE_SEARCH_URL: fake.url, BRAVE_SEARCH_KEY: "test-key" };
    try {
      await t.step("the default network: a stand-in's pages are thrown away", async () => {
        const { world, data } = await searchGraceWith(keyOnly);
        try {
          assert.deepEqual(data.matches, []);
          assert.match(fake.requests.at(-1)!.searchParams.get("q")!, /^site:linkedin\.com\/in "/);
        } finally {
          await world.close();
        }
      });
      await t.step("configured to the stand-in: its query, URLs and titles", async () => {
        const { world, ws, data } = await searchGraceWith({
          ...keyOnly,
          NETWORK_PROFILE_HOST: "network.example",
          NETWORK_PROFILE_PATH: "/in/",
          NETWORK_TITLE_SUFFIX: "Network",
        });
        try {
          assert.equal(data.matches[0]?.networkUrl, "https://network.example/in/grace-hopper");
          assert.equal(data.matches[0]?.companyName, "Acme");
          assert.match(
            fake.requests.at(-1)!.searchParams.get("q")!,
            /^site:network\.example\/in "/,
          );
          const find = await lookupCaller(world.test, ws.apiKey, "/api/v1/find")({
            mode: "network",
            networkUrl: "https://de.network.example/in/grace-hopper/de",
          });
          assert.equal(find.data.resolvedProfile.name, "Grace Hopper");
        } finally {
          await world.close();
        }
      });
      await t.step('another path and suffix: /pub/ pages titled "… | Profiles"', async () => {
        const other = { host: "profiles.test", pathPrefix: "/pub/", displayName: "Profiles" };
        const pub = startFakeBrave({
          key: "test-key",
          results: searchIndex([
            profileResult({
              name: "Grace Hopper",
              company: "Acme",
              slug: "grace-hopper",
              network: other,
            }),
            // The same person's page under /in/ is no profile page of this network.
            profileResult({
              name: "Grace Hopper",
              company: "Acme",
              slug: "grace-hopper-in",
              network: { ...other, pathPrefix: "/in/" },
            }),
          ]),
        });
        const { world, data } = await searchGraceWith({
          BRAVE_SEARCH_URL: pub.url,
          BRAVE_SEARCH_KEY: "test-key",
          NETWORK_PROFILE_HOST: "profiles.test",
          NETWORK_PROFILE_PATH: "pub",
          NETWORK_TITLE_SUFFIX: "Profiles",
        });
        try {
          assert.equal(data.matches.length, 1);
          assert.equal(data.matches[0].networkUrl, "https://profiles.test/pub/grace-hopper");
          assert.equal(
            pub.requests[0].searchParams.get("q"),
            'site:profiles.test/pub "Grace Hopper"',
          );
        } finally {
          await world.close();
          await pub.close();
        }
      });
    } finally {
      await fake.close();
    }
  },
);

Deno.test("network search with no provider: the directory alone answers", DB_TEST, async () => {
  const world = await appWith({});
  try {
    const ws = await createTestWorkspace(world.test, 100);
    const { data } = await searcher(world.test, ws.apiKey)({
      firstName: "Grace",
      lastName: "Hopper",
    });
    assert.deepEqual(data.matches, []);
    assert.equal(data.reason, null);
    const doc = await (await world.test.app.request("/api/v1/openapi.json")).json();
    assert.match(doc.paths["/api/v1/network-search"].post.description, /directory alone answers/);
  } finally {
    await world.close();
  }
});
