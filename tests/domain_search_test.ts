/**
 * `POST /api/v1/domain-search` and `GET /api/v1/domain-search/count` through the app: the pattern
 * learned from what find verified (the real DNS + SMTP engine against the fakes), two formats,
 * an unseen domain, the verification window, the do-not-contact list, paging and the billing
 * rule (a page with a verified address is billed once; everything else is free).
 */
import assert from "node:assert/strict";
import { importPeople } from "../domain/directory/import_people.ts";
import { addDoNotContact } from "../domain/do_not_contact/add_do_not_contact.ts";
import { learnPattern, wilsonLowerBound } from "../domain/domain_search/read_mail_pattern.ts";
import { DEPARTMENTS } from "../domain/directory/person_vocabulary.ts";
import { demoPeople } from "../domain/directory/demo_people.ts";
import {
  bearer,
  countCharges,
  createTestEnv,
  createTestWorkspace,
  DB_TEST,
  lookupCaller,
  type TestEnv,
} from "./harness.ts";
import { finder, recordOf, startWorld } from "./find_world.ts";

const PRICE = 10;
const DAY = 86_400_000;

function searcher(env: TestEnv, apiKey: string) {
  return lookupCaller(env, apiKey, "/api/v1/domain-search");
}

async function count(env: TestEnv, apiKey: string, domain: string) {
  const res = await env.app.request(
    `/api/v1/domain-search/count?domain=${encodeURIComponent(domain)}`,
    { headers: bearer(apiKey) },
  );
  const json = await res.json();
  return { status: res.status, data: json.data, error: json.error };
}

Deno.test(
  "domain search: the pattern find verified, the mail, an unseen domain",
  DB_TEST,
  async (t) => {
    const world = await startWorld({
      accept: ["ada.lovelace@acme.test", "alan.turing@acme.test"],
    });
    const { env } = world;
    try {
      const ws = await createTestWorkspace(env, 1000);
      const search = searcher(env, ws.apiKey);

      await t.step("before any find: the domain is unseen, pattern null, free", async () => {
        const { status, data } = await search({ domain: "acme.test" });
        assert.equal(status, 200);
        assert.equal(data.pattern, null);
        assert.equal(data.patternReason, "no-verified-addresses");
        assert.deepEqual(data.people, []);
        assert.equal(data.total, 0);
        assert.equal(data.reason, "not-found");
        assert.equal(data.charged, false);
        assert.equal(data.pointsCharged, 0);
        assert.deepEqual(data.organization, {
          name: null,
          nameSource: null,
          domain: "acme.test",
          domainSource: "request",
        });
        // The engine asked DNS for the MX; no probe yet, so no catch-all verdict.
        assert.deepEqual(data.mail.mxRecords, ["mx1.example.test"]);
        assert.equal(data.mail.acceptsMail, true);
        assert.equal(data.mail.catchAll, null);
      });

      const find = finder(env, ws.apiKey);
      for (const name of ["Grace Hopper", "Ada Lovelace", "Alan Turing"]) {
        const { data } = await find({ name, company: "acme.test" });
        assert.equal(data.found, true, name);
      }
      const spent = await countCharges(env, ws.workspaceId);

      await t.step(
        "after three finds of one format: that pattern, 3 supporting addresses",
        async () => {
          const { data } = await search({ domain: "https://www.acme.test/about" });
          assert.equal(data.reason, null);
          assert.equal(data.pattern.format, "{first}.{last}");
          assert.equal(data.pattern.name, "first.last");
          assert.equal(data.pattern.supportingAddresses, 3);
          assert.equal(data.pattern.share, 1);
          assert.equal(data.pattern.confidence, 0.44);
          assert.ok(data.pattern.lastConfirmedAt);
          assert.equal(data.patternReason, null);
          assert.equal(data.total, 3);
          assert.deepEqual(
            data.people.map((p: { email: { address: string } }) => p.email.address).sort(),
            ["ada.lovelace@acme.test", "alan.turing@acme.test", "grace.hopper@acme.test"],
          );
          assert.equal(data.people[0].email.method, "find");
          // The probe of the finds said the domain is not catch-all; when, too.
          assert.equal(data.mail.catchAll, false);
          assert.ok(data.mail.catchAllCheckedAt);
          assert.equal(data.charged, true);
          assert.equal(data.pointsCharged, PRICE);
          assert.equal(await countCharges(env, ws.workspaceId), spent + 1);
        },
      );

      await t.step("the count: free, the same people", async () => {
        const before = await countCharges(env, ws.workspaceId);
        const { status, data } = await count(env, ws.apiKey, "acme.test");
        assert.equal(status, 200);
        assert.equal(data.people, 3);
        assert.equal(data.verifiedEmails, 3);
        assert.equal(await countCharges(env, ws.workspaceId), before);
      });

      await t.step("an unseen domain that receives mail: pattern null with a reason", async () => {
        const { data } = await search({ domain: "initech.test" });
        assert.equal(data.pattern, null);
        assert.equal(data.patternReason, "no-verified-addresses");
        assert.equal(data.reason, "not-found");
        assert.equal(data.charged, false);
      });

      await t.step(
        "refusals are free: no mail host, free mail, a company nobody knows",
        async () => {
          const before = await countCharges(env, ws.workspaceId);
          assert.equal((await search({ domain: "nomail.test" })).data.reason, "unusable-domain");
          assert.equal((await search({ domain: "gmail.com" })).data.reason, "free-mail-domain");
          assert.equal((await search({ domain: "localhost" })).data.reason, "unusable-domain");
          assert.equal(
            (await search({ company: "No Such Company Anywhere" })).data.reason,
            "company-not-found",
          );
          assert.equal(await countCharges(env, ws.workspaceId), before);
        },
      );

      await t.step("a company name resolved as find resolves it", async () => {
        const { data } = await search({ company: "Initech" });
        assert.equal(data.organization.domain, "initech.test");
        assert.equal(data.organization.domainSource, "wikidata:Q100");
        assert.equal(data.organization.name, "Initech");
      });
    } finally {
      await world.close();
    }
  },
);

/** People at `two.test`: six first.last addresses, three flast, one too old, two without. */
function twoFormats(now: number) {
  const person = (name: string, address: string | null, ageDays = 1, title = "Engineer") =>
    recordOf({
      name,
      given: name.split(" ")[0],
      surname: name.split(" ")[1],
      title,
      seniority: "senior",
      companyName: "Two Formats Ltd",
      companyDomain: "two.test",
      emails: address
        ? [{
          address,
          status: "valid",
          verifiedAt: new Date(now - ageDays * DAY).toISOString(),
        }]
        : [],
    });
  return [
    person("Anna Berg", "anna.berg@two.test"),
    person("Bruno Costa", "bruno.costa@two.test"),
    person("Carla Dias", "carla.dias@two.test"),
    person("Dario Esposito", "dario.esposito@two.test"),
    person("Elena Fabbri", "elena.fabbri@two.test"),
    person("Fabio Gallo", "fabio.gallo@two.test", 200),
    person("Gina Hahn", "ghahn@two.test"),
    person("Hugo Ivanov", "hivanov@two.test"),
    person("Ida Jansen", "ijansen@two.test"),
    person("Jon Kraus", null, 1, "Account Executive"),
    person("Kim Lund", null, 1, "Account Executive"),
  ];
}

Deno.test(
  "domain search: two formats, the window, do-not-contact, paging, billing",
  DB_TEST,
  async (t) => {
    const env = await createTestEnv({
      config: {
        prices: {
          ...(await import("../domain/config/config.ts")).DEFAULT_PRICES,
          domainSearch: PRICE,
        },
      },
      verifiedEmailMaxAgeDays: 90,
    });
    try {
      await importPeople(env, twoFormats(env.clock.now()));
      const ws = await createTestWorkspace(env, 1000);
      const search = searcher(env, ws.apiKey);

      await t.step("two formats: the larger share, with its confidence", async () => {
        const { data } = await search({ domain: "two.test" });
        assert.equal(data.pattern.name, "first.last");
        assert.equal(data.pattern.supportingAddresses, 6);
        assert.equal(data.pattern.share, 0.67);
        assert.equal(data.pattern.confidence, Math.round(wilsonLowerBound(6, 9) * 100) / 100);
        assert.equal(data.organization.name, "Two Formats Ltd");
        assert.equal(data.organization.nameSource, "directory");
        // No engine in this process (offline ports): the mail is not known.
        assert.equal(data.mail.acceptsMail, null);
      });

      await t.step("an address older than the window is not shown, nor counted", async () => {
        const { data } = await search({ domain: "two.test", limit: 100 });
        const fabio = data.people.find((p: { name: string }) => p.name === "Fabio Gallo");
        assert.equal(fabio.email, null);
        assert.equal(data.total, 11);
        assert.equal(data.people.filter((p: { email: unknown }) => p.email).length, 8);
        const counted = await count(env, ws.apiKey, "two.test");
        assert.equal(counted.data.people, 11);
        assert.equal(counted.data.verifiedEmails, 8);
      });

      await t.step("paging: limit and cursor, each person once", async () => {
        const names: string[] = [];
        let cursor: string | undefined;
        for (let i = 0; i < 10; i++) {
          const { data } = await search({
            domain: "two.test",
            limit: 4,
            ...(cursor ? { cursor } : {}),
          });
          assert.ok(data.people.length <= 4);
          names.push(...data.people.map((p: { name: string }) => p.name));
          if (!data.nextCursor) break;
          cursor = data.nextCursor;
        }
        assert.equal(names.length, 11);
        assert.equal(new Set(names).size, 11);
        const { status, error } = await search({ domain: "two.test", limit: 101 });
        assert.equal(status, 400);
        assert.equal(error.code, "validation_error");
      });

      await t.step("billing: a page with an address once; without one free", async () => {
        const before = await countCharges(env, ws.workspaceId);
        // Four people: at least one has a fresh address whatever the order (three have none).
        const paid = await search({ domain: "two.test", limit: 4 });
        assert.equal(paid.data.pointsCharged, PRICE);
        assert.equal(await countCharges(env, ws.workspaceId), before + 1);
        // The sales people have no address: a page of them is free, the pattern too.
        const free = await search({ domain: "two.test", department: ["sales"] });
        assert.equal(free.data.total, 2);
        assert.ok(free.data.people.every((p: { department: string }) => p.department === "sales"));
        assert.equal(free.data.charged, false);
        assert.equal(free.data.pattern.name, "first.last");
        assert.equal(await countCharges(env, ws.workspaceId), before + 1);
        // A replay under a key: the same page, free.
        const first = await search({ domain: "two.test" }, "ds-key-1");
        const again = await search({ domain: "two.test" }, "ds-key-1");
        assert.equal(first.data.pointsCharged, PRICE);
        assert.equal(again.data.replay, true);
        assert.equal(again.data.pointsCharged, 0);
        assert.deepEqual(again.data.people, first.data.people);
        assert.equal(await countCharges(env, ws.workspaceId), before + 2);
      });

      await t.step(
        "a workspace that cannot pay: the page without its addresses, free",
        async () => {
          const poor = await createTestWorkspace(env, PRICE - 1);
          const { data } = await searcher(env, poor.apiKey)({ domain: "two.test" });
          assert.equal(data.reason, "insufficient-credits");
          assert.equal(data.charged, false);
          assert.equal(data.total, 11);
          assert.ok(data.people.every((p: { email: unknown }) => p.email === null));
          assert.equal(data.pattern.name, "first.last");
          assert.equal(await countCharges(env, poor.workspaceId), 0);
        },
      );

      await t.step(
        "do-not-contact: a listed address's person is neither shown nor counted",
        async () => {
          const other = await createTestWorkspace(env, 1000);
          await addDoNotContact(env, {
            workspaceId: other.workspaceId,
            email: "anna.berg@two.test",
          });
          await addDoNotContact(env, { workspaceId: other.workspaceId, email: "ghahn@two.test" });
          const { data } = await searcher(env, other.apiKey)({ domain: "two.test", limit: 100 });
          const names = data.people.map((p: { name: string }) => p.name);
          assert.ok(!names.includes("Anna Berg") && !names.includes("Gina Hahn"));
          assert.equal(data.total, 9);
          assert.equal(data.pattern.supportingAddresses, 5, "not learned from either");
          const counted = await count(env, other.apiKey, "two.test");
          assert.equal(counted.data.people, 9);
          assert.equal(counted.data.verifiedEmails, 6);
          // Another workspace's list is its own.
          assert.equal((await count(env, ws.apiKey, "two.test")).data.people, 11);

          const paid = await countCharges(env, other.workspaceId);
          await addDoNotContact(env, { workspaceId: other.workspaceId, domain: "two.test" });
          const refused = await searcher(env, other.apiKey)({ domain: "two.test" });
          assert.equal(refused.data.reason, "do-not-contact");
          assert.deepEqual(refused.data.people, []);
          assert.equal(refused.data.charged, false);
          const none = await count(env, other.apiKey, "two.test");
          assert.equal(none.data.people, 0);
          assert.equal(none.data.reason, "do-not-contact");
          assert.equal(await countCharges(env, other.workspaceId), paid);
        },
      );

      await t.step("a replay leaves out a person listed since", async () => {
        const third = await createTestWorkspace(env, 1000);
        const s = searcher(env, third.apiKey);
        const first = await s({ domain: "two.test", limit: 100 }, "ds-key-2");
        await addDoNotContact(env, {
          workspaceId: third.workspaceId,
          email: "bruno.costa@two.test",
        });
        const again = await s({ domain: "two.test", limit: 100 }, "ds-key-2");
        assert.equal(again.data.replay, true);
        assert.equal(again.data.people.length, first.data.people.length - 1);
        assert.ok(!again.data.people.some((p: { name: string }) => p.name === "Bruno Costa"));
      });
    } finally {
      await env.close();
    }
  },
);

Deno.test(
  "domain search: departments read from titles, in the directory's vocabulary",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      await importPeople(env, demoPeople(400, { now: env.clock.now() }).map(recordOf));
      const titled: [string, string][] = [
        ["Chief Revenue Officer", "sales"],
        ["Senior Product Designer", "design"],
        ["Senior Product Manager", "product"],
        ["Chief Customer Officer", "customer-success"],
        ["Senior Financial Analyst", "finance"],
        ["Founder & CEO", "executive"],
        ["Co-Founder", "executive"],
        ["General Counsel", "legal"],
        ["Chief Technology Officer", "engineering"],
        ["Chief Operating Officer", "operations"],
        ["Chief People Officer", "people"],
        ["Data Associate", "data"],
        ["Vice President, Marketing", "marketing"],
      ];
      await importPeople(
        env,
        titled.map(([title], i) =>
          recordOf({ name: `Titled Person${i}`, title, companyName: "T" })
        ),
      );
      const rows = await env.db.sql<{ title: string; department: string | null }[]>`
      SELECT DISTINCT title, department FROM people ORDER BY title`;
      for (const row of rows) {
        assert.ok(row.department !== null, `${row.title} has a department`);
        assert.ok((DEPARTMENTS as readonly string[]).includes(row.department), row.department);
      }
      const of = (title: string) => rows.find((r) => r.title === title)?.department;
      for (const [title, department] of titled) assert.equal(of(title), department, title);
    } finally {
      await env.close();
    }
  },
);

Deno.test("domain search pattern: too few addresses state none", () => {
  const one = learnPattern([
    { address: "ada.lovelace@x.test", given: "Ada", surname: "Lovelace", verifiedAt: null },
    { address: "aturing@x.test", given: "Alan", surname: "Turing", verifiedAt: null },
  ]);
  assert.equal(one.pattern, null);
  assert.equal(one.patternReason, "too-few-addresses");
});

Deno.test(
  "domain count: free, rate limited on its own budget, domain required",
  DB_TEST,
  async () => {
    const { DEFAULT_RATE_LIMITS } = await import("../domain/config/config.ts");
    const env = await createTestEnv({
      config: {
        rateLimits: { ...DEFAULT_RATE_LIMITS, domain_count: { limit: 2, windowSeconds: 60 } },
      },
    });
    try {
      const ws = await createTestWorkspace(env, 0);
      assert.equal((await count(env, ws.apiKey, "unseen.test")).data.reason, "not-found");
      const missing = await env.app.request("/api/v1/domain-search/count", {
        headers: bearer(ws.apiKey),
      });
      assert.equal(missing.status, 400);
      assert.equal((await missing.json()).error.code, "validation_error");
      const limited = await count(env, ws.apiKey, "unseen.test");
      assert.equal(limited.status, 429);
      assert.equal(limited.error.code, "rate_limited");
      // A workspace with no points may count.
      assert.equal(await countCharges(env, ws.workspaceId), 0);
    } finally {
      await env.close();
    }
  },
);
