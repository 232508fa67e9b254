/**
 * `POST /api/v1/enrich/email` through the app, with the real adapters (Gravatar, GitHub, Brave)
 * built from configuration and pointed at fake servers on 127.0.0.1: sources in order, phones
 * dropped, the do-not-contact list checked before anything reaches a provider, failures
 * delivering and billing nothing, the cache, and find's network fallback through the same provider.
 */
import assert from "node:assert/strict";
import { addDoNotContact } from "../domain/do_not_contact/add_do_not_contact.ts";
import { importPeople, parseImportRecord } from "../domain/directory/import_people.ts";
import {
  bearer,
  createConfiguredTestEnv,
  createTestWorkspace,
  DB_TEST,
  lookupCaller,
  type TestEnv,
} from "./harness.ts";
import { profileResult, startFakeBrave } from "./fakes/brave_server.ts";
import { startFakeGravatar } from "./fakes/gravatar_server.ts";
import { startFakeGithub } from "./fakes/github_server.ts";

const PRICE = 10;
const PHONE = "+1 415 555 0134";

async function startWorld(options: { gravatarFail?: 429 | 500 | "slow" } = {}) {
  const gravatar = startFakeGravatar({
    profiles: {
      "grace@acme.test": {
        display_name: "Grace Hopper",
        job_title: "Rear Admiral",
        company: "Acme",
        location: "Arlington, VA",
        description: "Computer pioneer",
        profile_url: "https://gravatar.com/gracehopper",
        verified_accounts: [
          {
            service_type: "twitter",
            service_label: "X",
            url: "https://x.com/gracehopper",
            is_hidden: false,
          },
        ],
        contact_info: { cell_phone: PHONE, email: "grace@navy.test" },
      },
    },
    ...(options.gravatarFail ? { failWith: options.gravatarFail, slowMs: 5000 } : {}),
  });
  const github = startFakeGithub({
    users: [{
      login: "ghopper",
      name: "Grace B. Hopper",
      company: "@acme",
      blog: "https://acme.test",
      location: "Virginia",
      email: "grace@acme.test",
      bio: `Call me at ${PHONE}`,
      twitter_username: "gracehopper_other",
      emails: ["grace@acme.test"],
    }],
  });
  const brave = startFakeBrave({
    key: "k",
    results: () => [
      profileResult({
        name: "Grace Hopper",
        title: "Rear Admiral",
        company: "Acme",
        location: "Arlington, Virginia",
        slug: "grace-hopper",
      }),
    ],
  });
  const env = await createConfiguredTestEnv({
    COMPANY_RESOLVER: "none",
    PROVIDER_TIMEOUT_SECONDS: "1",
    GRAVATAR_API_URL: gravatar.url,
    GITHUB_API_URL: github.url,
    BRAVE_SEARCH_URL: brave.url,
    BRAVE_SEARCH_KEY: "k",
  });
  const requests = () => gravatar.requests.length + github.requests.length + brave.requests.length;
  return {
    env,
    gravatar,
    github,
    brave,
    requests,
    close: async () => {
      await env.close();
      await gravatar.close();
      await github.close();
      await brave.close();
    },
  };
}

function enricher(env: TestEnv, apiKey: string) {
  return lookupCaller(env, apiKey, "/api/v1/enrich/email");
}

Deno.test("enrich: sources in order, fields stated, phones dropped, cache", DB_TEST, async (t) => {
  const world = await startWorld();
  const { env } = world;
  try {
    const ws = await createTestWorkspace(env, 100);
    const enrich = enricher(env, ws.apiKey);

    await t.step("Gravatar, then GitHub, then the network cross-reference", async () => {
      const { status, data, text } = await enrich({ email: "  Grace@ACME.test " });
      assert.equal(status, 200);
      assert.equal(data.email, "grace@acme.test");
      assert.equal(data.found, true);
      assert.equal(data.reason, null);
      // Gravatar wins the fields it states; GitHub adds none it already has.
      assert.equal(data.person.name, "Grace Hopper");
      assert.equal(data.person.title, "Rear Admiral");
      assert.equal(data.person.companyName, "Acme");
      assert.equal(data.person.location, "Arlington, VA");
      // The cross-reference found the profile by name and employer.
      assert.equal(data.person.networkUrl, "https://linkedin.com/in/grace-hopper");
      assert.equal(data.channels.x, "gracehopper");
      assert.ok(data.channels.emails.includes("grace@navy.test"));
      assert.ok(!data.channels.emails.includes("grace@acme.test"));
      const sources = data.sources.map((s: { source: string }) => s.source);
      assert.deepEqual(sources.slice(0, 1), ["gravatar"]);
      assert.ok(sources.includes("brave"));
      for (const source of data.sources) {
        assert.ok(source.fields.length > 0);
        assert.ok(!Number.isNaN(Date.parse(source.retrievedAt)));
      }
      assert.equal(data.address.kind, "work");
      // Never a phone number, from any source.
      assert.ok(!text.includes("555"), "no phone digits anywhere in the answer");
      assert.equal(data.pointsCharged, PRICE);
      assert.equal(data.cached, false);
    });

    await t.step("the same address again: from the cache, billed, no provider asked", async () => {
      const before = world.requests();
      const { data } = await enrich({ email: "grace@acme.test" });
      assert.equal(data.cached, true);
      assert.equal(data.found, true);
      assert.equal(data.pointsCharged, PRICE);
      assert.equal(world.requests(), before);
    });

    await t.step(
      "nobody known: found false, not-found, billed (a completed enrichment)",
      async () => {
        const { data } = await enrich({ email: "nobody@gmail.com" });
        assert.equal(data.found, false);
        assert.equal(data.reason, "not-found");
        assert.equal(data.person, null);
        assert.equal(data.address.kind, "free");
        assert.equal(data.pointsCharged, PRICE);
      },
    );

    await t.step("a malformed address: invalid-input, not billed; blank is 400", async () => {
      const bad = await enrich({ email: "not-an-address" });
      assert.equal(bad.status, 200);
      assert.equal(bad.data.reason, "invalid-input");
      assert.equal(bad.data.pointsCharged, 0);
      const blank = await enrich({ email: "   " });
      assert.equal(blank.status, 400);
      assert.equal(blank.error.code, "validation_error");
      const missing = await enrich({});
      assert.deepEqual(missing.error, {
        code: "validation_error",
        message: "email is required",
      });
    });

    await t.step("our own record is the first source; the others are still asked", async () => {
      const parsed = parseImportRecord({
        name: "Alan Turing",
        title: "Mathematician",
        companyName: "Bletchley",
        companyDomain: "bletchley.test",
        emails: [{ address: "alan@bletchley.test", status: "valid" }],
        channels: { telegram: "alanturing" },
      });
      assert.ok(parsed.ok);
      await importPeople(env, [parsed.record]);
      const before = {
        gravatar: world.gravatar.requests.length,
        github: world.github.requests.length,
      };
      const { data } = await enrich({ email: "alan@bletchley.test" });
      assert.equal(data.found, true);
      assert.equal(data.person.name, "Alan Turing");
      assert.equal(data.channels.telegram, "alanturing");
      // Nobody else knows him: every field is the directory's.
      assert.deepEqual(data.sources.map((s: { source: string }) => s.source), ["directory"]);
      assert.equal(data.pointsCharged, PRICE);
      assert.ok(world.gravatar.requests.length > before.gravatar, "Gravatar was asked");
      assert.ok(world.github.requests.length > before.github, "GitHub was asked");
    });

    await t.step("do-not-contact: refused before any work, nothing sent anywhere", async () => {
      await addDoNotContact(env, { workspaceId: ws.workspaceId, email: "dnc@acme.test" });
      await addDoNotContact(env, { workspaceId: ws.workspaceId, domain: "blocked.test" });
      const before = world.requests();
      for (const email of ["dnc@acme.test", "someone@blocked.test", "x@mail.blocked.test"]) {
        const { data } = await enrich({ email });
        assert.equal(data.found, false);
        assert.equal(data.reason, "do-not-contact");
        assert.equal(data.pointsCharged, 0);
      }
      // Even a cached answer is refused for a listed address.
      await addDoNotContact(env, { workspaceId: ws.workspaceId, email: "grace@acme.test" });
      const { data } = await enrich({ email: "grace@acme.test" });
      assert.equal(data.reason, "do-not-contact");
      assert.equal(world.requests(), before);
      // The list is the workspace's own.
      const other = await createTestWorkspace(env, 100);
      const theirs = await enricher(env, other.apiKey)({ email: "grace@acme.test" });
      assert.equal(theirs.data.found, true);
    });
  } finally {
    await world.close();
  }
});

Deno.test(
  "enrich: a replay under an Idempotency-Key checks the do-not-contact list again",
  DB_TEST,
  async () => {
    const world = await startWorld();
    try {
      const { env } = world;
      const ws = await createTestWorkspace(env, 100);
      const enrich = enricher(env, ws.apiKey);
      const first = await enrich({ email: "grace@acme.test" }, "e-dnc");
      assert.equal(first.data.found, true);
      assert.equal(first.data.pointsCharged, PRICE);
      const replayed = await enrich({ email: "grace@acme.test" }, "e-dnc");
      assert.equal(replayed.data.found, true);
      assert.equal(replayed.data.replay, true);

      for (const entry of [{ email: "grace@acme.test" }, { domain: "acme.test" }]) {
        await addDoNotContact(env, { workspaceId: ws.workspaceId, ...entry });
        const before = world.requests();
        const refused = await enrich({ email: "grace@acme.test" }, "e-dnc");
        assert.equal(refused.status, 200);
        assert.equal(refused.data.found, false, JSON.stringify(entry));
        assert.equal(refused.data.reason, "do-not-contact");
        assert.equal(refused.data.person, null);
        assert.equal(refused.data.channels, null);
        assert.deepEqual(refused.data.sources, []);
        assert.equal(refused.data.charged, false);
        assert.equal(refused.data.pointsCharged, 0);
        assert.equal(refused.data.replay, true, "it answers the earlier call with this key");
        assert.equal(refused.data.balance.available, 100 - PRICE);
        assert.ok(!refused.text.includes("Hopper"), "nothing of the person");
        assert.equal(world.requests(), before, "nothing sent anywhere");
        await env.db.sql`DELETE FROM do_not_contact WHERE workspace_id = ${ws.workspaceId}`;
      }
      // Off the list again: the replay is the stored answer, still free.
      const again = await enrich({ email: "grace@acme.test" }, "e-dnc");
      assert.equal(again.data.found, true);
      assert.equal(again.data.pointsCharged, 0);
    } finally {
      await world.close();
    }
  },
);

for (const failWith of [429, 500, "slow"] as const) {
  Deno.test(
    `enrich: a source ${failWith}: nothing delivered, nothing billed`,
    DB_TEST,
    async () => {
      const world = await startWorld({ gravatarFail: failWith });
      try {
        const ws = await createTestWorkspace(world.env, 100);
        const { data, text } = await enricher(world.env, ws.apiKey)(
          { email: "grace@acme.test" },
          "e-1",
        );
        assert.equal(data.found, false);
        assert.equal(data.person, null);
        assert.deepEqual(data.sources, []);
        assert.equal(
          data.reason,
          failWith === 429
            ? "source-rate-limited"
            : failWith === "slow"
            ? "source-timeout"
            : "source-error",
        );
        assert.equal(data.pointsCharged, 0);
        assert.equal(data.balance.available, 100);
        assert.ok(!text.toLowerCase().includes("gravatar said"), "no provider text");
      } finally {
        await world.close();
      }
    },
  );
}

Deno.test(
  "find, network mode: a profile the directory does not know, through the web search",
  DB_TEST,
  async () => {
    const world = await startWorld();
    try {
      const ws = await createTestWorkspace(world.env, 100);
      const res = await world.env.app.request("/api/v1/find", {
        method: "POST",
        headers: bearer(ws.apiKey, { "Content-Type": "application/json" }),
        body: JSON.stringify({
          mode: "network",
          networkUrl: "https://www.linkedin.com/in/grace-hopper/",
        }),
      });
      const { data } = await res.json();
      // The profile was learned (name, employer); the employer has no domain the resolver knows.
      assert.equal(data.resolvedProfile.name, "Grace Hopper");
      assert.equal(data.resolvedProfile.companyName, "Acme");
      assert.equal(data.reason, "company-not-found");
      assert.equal(data.pointsCharged, 0);
    } finally {
      await world.close();
    }
  },
);
