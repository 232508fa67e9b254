/**
 * `POST /api/v1/find` through the app, with the real ports (DNS + SMTP engine, Wikidata resolver)
 * pointed at fake servers on 127.0.0.1 that speak the real protocols: every mode, every reason,
 * the billing of each part, replays, the directory answering without SMTP and learning from
 * what SMTP verified. The engine's reply reading (greylisting, policy blocks, STARTTLS, host
 * fallover, timeouts) has its own suite in verification_engine_test.ts.
 */
import assert from "node:assert/strict";
import { importPeople } from "../domain/directory/import_people.ts";
import { recordVerifiedEmail } from "../domain/directory/record_verified_email.ts";
import { countCharges, createTestWorkspace, DB_TEST } from "./harness.ts";
import {
  finder,
  pointsSpent,
  PRICE_COMPANY,
  PRICE_EMAIL,
  recordOf,
  startWorld,
} from "./find_world.ts";

Deno.test("find, email mode: SMTP verdicts, billing, write-back, replay", DB_TEST, async (t) => {
  const world = await startWorld();
  const { env, smtp } = world;
  try {
    const ws = await createTestWorkspace(env, 1000);
    const find = finder(env, ws.apiKey);

    await t.step(
      "a mailbox accepted on a domain that is not catch-all: found, billed",
      async () => {
        const { status, data } = await find({
          name: "Grace Hopper",
          company: "https://www.acme.test/about",
        });
        assert.equal(status, 200);
        assert.equal(data.found, true);
        assert.equal(data.email, "grace.hopper@acme.test");
        assert.equal(data.status, "valid");
        assert.equal(data.confidence, 0.95);
        assert.equal(data.reason, null);
        assert.deepEqual(
          {
            charged: data.charged,
            pointsCharged: data.pointsCharged,
            creditsCharged: data.creditsCharged,
          },
          { charged: true, pointsCharged: PRICE_EMAIL, creditsCharged: PRICE_EMAIL },
        );
        assert.equal(data.balance.available, 1000 - PRICE_EMAIL);
        assert.equal(data.verification.method, "smtp");
        assert.equal(data.verification.mxHost, "mx1.example.test");
        assert.equal(data.verification.smtpCode, 250);
        assert.equal(data.company.domain, "acme.test");
        assert.equal(data.person.given, "Grace");
        assert.equal(data.person.surname, "Hopper");
        assert.equal(smtp.connections("127.0.0.1"), 1, "one SMTP session for the lookup");
        assert.ok(smtp.sessions[0].secure, "STARTTLS with the test CA");
      },
    );

    await t.step(
      "the verified address was written back: the next lookup needs no SMTP",
      async () => {
        const sessions = smtp.connections();
        const { data } = await find({ name: "Grace Hopper", company: "acme.test" });
        assert.equal(data.found, true);
        assert.equal(data.email, "grace.hopper@acme.test");
        assert.equal(data.verification.method, "directory");
        assert.equal(data.confidence, 0.9);
        assert.equal(data.pointsCharged, PRICE_EMAIL);
        assert.equal(smtp.connections(), sessions);
      },
    );

    await t.step(
      "the domain's pattern is learned from verified addresses: flast asked first",
      async () => {
        for (const [given, surname] of [["John", "Doe"], ["Mary", "Major"]]) {
          await recordVerifiedEmail(env, {
            fullName: `${given} ${surname}`,
            given,
            surname,
            domain: "acme.test",
            companyName: null,
            address: `${given[0]}${surname}@acme.test`.toLowerCase(),
            status: "valid",
            verifiedAt: new Date(env.clock.now()),
          });
        }
        smtp.reset();
        const { data } = await find({ name: "Linus Torvalds", company: "acme.test" });
        assert.equal(data.email, "ltorvalds@acme.test");
        const asked = smtp.rcpts.map((r) => r.address);
        // the first candidate, accepted (the domain is known not to be catch-all: no probe)
        assert.deepEqual(asked, ["ltorvalds@acme.test"]);
      },
    );

    await t.step("every candidate rejected: not-found, billed, no address", async () => {
      const before = await pointsSpent(env, ws.workspaceId);
      const { data } = await find({ name: "Nobody Here", company: "acme.test" });
      assert.equal(data.found, false);
      assert.equal(data.email, null);
      assert.equal(data.status, "invalid");
      assert.equal(data.reason, "not-found");
      assert.equal(data.pointsCharged, PRICE_EMAIL);
      assert.equal(data.verification.smtpCode, 550);
      assert.equal(await pointsSpent(env, ws.workspaceId), before + PRICE_EMAIL);
    });

    await t.step("a catch-all domain: no guess, billed", async () => {
      const { data } = await find({ name: "Ada Lovelace", company: "catchall.test" });
      assert.equal(data.found, false);
      assert.equal(data.email, null);
      assert.equal(data.status, "catch-all");
      assert.equal(data.reason, "catch-all");
      assert.equal(data.pointsCharged, PRICE_EMAIL);
    });

    await t.step("a null MX: unusable-domain, not billed", async () => {
      const before = await pointsSpent(env, ws.workspaceId);
      const { data } = await find({ name: "Ada Lovelace", company: "nomail.test" });
      assert.equal(data.reason, "unusable-domain");
      assert.equal(data.status, "invalid");
      assert.equal(data.charged, false);
      assert.equal(data.pointsCharged, 0);
      assert.equal(await pointsSpent(env, ws.workspaceId), before);
    });

    await t.step("NXDOMAIN: unusable-domain, not billed", async () => {
      const { data } = await find({ name: "Ada Lovelace", company: "no-such-domain.test" });
      assert.equal(data.reason, "unusable-domain");
      assert.equal(data.pointsCharged, 0);
    });

    await t.step(
      "greylisted after the retry: verification-unavailable, not billed, the key free again",
      async () => {
        const before = await pointsSpent(env, ws.workspaceId);
        const first = await find({ name: "Ada Lovelace", company: "grey.test" }, "grey-1");
        assert.equal(first.data.found, false);
        assert.equal(first.data.status, "unknown");
        assert.equal(first.data.reason, "verification-unavailable");
        assert.equal(first.data.pointsCharged, 0);
        assert.equal(first.data.verification.smtpCode, 451);
        // The key was given back: the same request runs again (and asks SMTP again).
        const sessions = smtp.connections("127.0.0.3");
        const again = await find({ name: "Ada Lovelace", company: "grey.test" }, "grey-1");
        assert.equal(again.data.replay, false);
        // A first pass (the probe and 16 candidates, 9 a session), then one retry session that
        // stops at the probe, still deferred.
        assert.equal(smtp.connections("127.0.0.3"), sessions + 3);
        assert.equal(await pointsSpent(env, ws.workspaceId), before);
      },
    );

    await t.step("a name that does not split: invalid-input, not billed", async () => {
      const before = await pointsSpent(env, ws.workspaceId);
      const sessions = smtp.connections();
      const { status, data } = await find({ name: "Madonna", company: "acme.test" });
      assert.equal(status, 200);
      assert.equal(data.reason, "invalid-input");
      assert.equal(data.pointsCharged, 0);
      assert.equal(smtp.connections(), sessions);
      assert.equal(await pointsSpent(env, ws.workspaceId), before);
    });

    await t.step("replay: the stored answer, free", async () => {
      const first = await find({ name: "Nobody Here", company: "acme.test" }, "replay-1");
      const sessions = smtp.connections();
      const again = await find({ name: "Nobody Here", company: "acme.test" }, "replay-1");
      assert.equal(again.data.replay, true);
      assert.equal(again.data.charged, false);
      assert.equal(again.data.pointsCharged, 0);
      assert.equal(again.data.creditsCharged, 0);
      assert.equal(again.data.reason, "not-found");
      assert.deepEqual(again.data.verification, first.data.verification);
      assert.equal(smtp.connections(), sessions, "a replay asks no server");
      const conflict = await find({ name: "Somebody Else", company: "acme.test" }, "replay-1");
      assert.equal(conflict.status, 409);
      assert.equal(conflict.error.code, "idempotency_conflict");
    });
  } finally {
    await world.close();
  }
});

Deno.test("find, company and network modes: two parts, directory, resolver", DB_TEST, async (t) => {
  const world = await startWorld();
  const { env, smtp, wikidata } = world;
  try {
    const ws = await createTestWorkspace(env, 1000);
    const find = finder(env, ws.apiKey);
    await importPeople(
      env,
      [
        {
          name: "Michael Bolton",
          title: "Engineer",
          companyName: "Initrode Inc.",
          companyAliases: ["Initrode"],
          companyDomain: "initech.test",
          networkUrl: "https://network.example/in/michael-bolton",
          emails: [{
            address: "michael.bolton@initech.test",
            status: "valid",
            verifiedAt: new Date(env.clock.now() - 86_400_000).toISOString(),
          }],
        },
        {
          name: "Samir Nagheenanajar",
          companyName: "Initrode Inc.",
          companyDomain: "initech.test",
          networkUrl: "https://network.example/in/samir-n",
        },
        {
          name: "Bill Lumbergh",
          companyName: "Nowhere Co",
          networkUrl: "https://network.example/in/bill",
        },
      ].map(recordOf),
    );

    await t.step(
      "company resolved by the outside resolver, address found: both parts billed",
      async () => {
        const { data } = await find({ mode: "company", name: "Peter Gibbons", company: "Initech" });
        assert.equal(data.found, true);
        assert.equal(data.email, "peter.gibbons@initech.test");
        assert.deepEqual(data.company, {
          name: "Initech",
          domain: "initech.test",
          source: "wikidata:Q100",
        });
        assert.equal(data.pointsCharged, PRICE_COMPANY + PRICE_EMAIL);
        assert.equal(data.creditsCharged, PRICE_COMPANY + PRICE_EMAIL);
        const postings = await env.db.sql<{ operation: string; amount: number }[]>`
        SELECT operation, amount::int FROM ledger_entries
         WHERE workspace_id = ${ws.workspaceId} AND kind = 'charge' ORDER BY id`;
        assert.deepEqual(postings.map((p) => p.operation), ["findCompany", "findEmail"]);
      },
    );

    await t.step(
      "company resolved by the directory (alias, legal suffix and case ignored): no outside call",
      async () => {
        const asked = wikidata.requests.length;
        const { data } = await find({
          mode: "company",
          name: "Michael Bolton",
          company: "INITRODE",
        });
        assert.equal(data.found, true);
        assert.equal(data.email, "michael.bolton@initech.test");
        assert.equal(data.verification.method, "directory");
        assert.equal(data.company.source, "directory");
        assert.equal(wikidata.requests.length, asked);
      },
    );

    await t.step(
      "company not resolved: company-not-found, only the company part billed",
      async () => {
        const sessions = smtp.connections();
        for (const company of ["Nowebsite Corp", "Unheard Of Ltd"]) {
          const { data } = await find({ mode: "company", name: "Peter Gibbons", company });
          assert.equal(data.found, false);
          assert.equal(data.reason, "company-not-found");
          assert.equal(data.pointsCharged, PRICE_COMPANY);
        }
        assert.equal(smtp.connections(), sessions);
      },
    );

    await t.step(
      "company resolves to a domain that cannot receive mail: only the company part",
      async () => {
        const { data } = await find({ mode: "company", name: "Gavin Belson", company: "Hooli" });
        assert.equal(data.reason, "unusable-domain");
        assert.equal(data.company.domain, "hooli.test");
        assert.equal(data.pointsCharged, PRICE_COMPANY);
      },
    );

    await t.step(
      "network mode: the profile from the directory, its address verified by SMTP",
      async () => {
        smtp.setBehaviour(
          { mailboxes: { "samir.nagheenanajar@initech.test": "accept" } },
          "127.0.0.1",
        );
        const { data } = await find({
          mode: "network",
          networkUrl: "https://www.network.example/in/samir-n/?trk=x",
        });
        assert.equal(data.found, true);
        assert.equal(data.email, "samir.nagheenanajar@initech.test");
        assert.equal(data.resolvedProfile.name, "Samir Nagheenanajar");
        assert.equal(data.resolvedProfile.companyDomain, "initech.test");
        assert.equal(data.pointsCharged, PRICE_EMAIL);
      },
    );

    await t.step("network mode: an unknown profile is profile-not-found, not billed", async () => {
      const { data } = await find({
        mode: "network",
        networkUrl: "https://network.example/in/nobody",
      });
      assert.equal(data.reason, "profile-not-found");
      assert.equal(data.pointsCharged, 0);
    });

    await t.step(
      "network mode: a profile whose employer has no domain and resolves to none",
      async () => {
        const { data } = await find({
          mode: "network",
          networkUrl: "https://network.example/in/bill",
        });
        assert.equal(data.reason, "company-not-found");
        assert.equal(data.resolvedProfile.name, "Bill Lumbergh");
        assert.equal(data.pointsCharged, 0);
      },
    );

    await t.step(
      "the outside resolver failing: verification-unavailable, nothing billed",
      async () => {
        await wikidata.close();
        const before = await pointsSpent(env, ws.workspaceId);
        const { data } = await find({
          mode: "company",
          name: "Peter Gibbons",
          company: "Brand New Co",
        });
        assert.equal(data.reason, "verification-unavailable");
        assert.equal(data.pointsCharged, 0);
        assert.equal(await pointsSpent(env, ws.workspaceId), before);
      },
    );
  } finally {
    await world.close().catch(() => {});
  }
});

Deno.test(
  "find: validation, modes, and insufficient credits before any SMTP",
  DB_TEST,
  async (t) => {
    const world = await startWorld();
    const { env, smtp } = world;
    try {
      const poor = await createTestWorkspace(env, PRICE_EMAIL - 1);
      const find = finder(env, poor.apiKey);

      await t.step("missing fields of the mode are 400 validation_error", async () => {
        const cases: [unknown, string][] = [
          [{ company: "acme.test" }, "name is required in email mode"],
          [{ name: "Ada Lovelace" }, "company is required in email mode"],
          [
            { mode: "company", name: "Ada Lovelace", company: "  " },
            "company is required in company mode",
          ],
          [{ mode: "network" }, "networkUrl is required in network mode"],
          [
            { mode: "network", networkUrl: "ftp://x.example/in/a" },
            "networkUrl must be an http(s) URL",
          ],
          [{ name: 42, company: "acme.test" }, "name must be a string"],
          [
            { name: "Ada\u0000 Lovelace", company: "acme.test" },
            "name must not contain control characters",
          ],
          [
            { name: "Ada Lovelace", company: "Acme Inc" },
            "company must be a domain or website URL in email mode (send a company name with mode company)",
          ],
        ];
        for (const [body, message] of cases) {
          const { status, error } = await find(body);
          assert.equal(status, 400, JSON.stringify(body));
          assert.deepEqual(error, { code: "validation_error", message });
        }
      });

      await t.step("an unrecognised mode is email mode", async () => {
        const { status, data } = await find({
          mode: "linkedin",
          name: "Ada Lovelace",
          company: "acme.test",
        });
        assert.equal(status, 200);
        assert.equal(data.reason, "insufficient-credits");
      });

      await t.step(
        "insufficient-credits: refused before any SMTP or resolver traffic",
        async () => {
          smtp.reset();
          const queries = world.dns.queries.length;
          for (
            const body of [
              { name: "Grace Hopper", company: "acme.test" },
              { mode: "company", name: "Grace Hopper", company: "Initech" },
            ]
          ) {
            const { status, data } = await find(body, `poor-${JSON.stringify(body).length}`);
            assert.equal(status, 200);
            assert.equal(data.found, false);
            assert.equal(data.reason, "insufficient-credits");
            assert.equal(data.charged, false);
            assert.equal(data.pointsCharged, 0);
            assert.equal(data.balance.available, PRICE_EMAIL - 1);
          }
          assert.equal(smtp.connections(), 0);
          assert.equal(world.dns.queries.length, queries);
          assert.equal(world.wikidata.requests.length, 0);
          assert.equal(await countCharges(env, poor.workspaceId), 0);
        },
      );

      await t.step("company mode needs both parts' points", async () => {
        const enough = await createTestWorkspace(env, PRICE_EMAIL + PRICE_COMPANY - 1);
        const { data } = await finder(env, enough.apiKey)({
          mode: "company",
          name: "Grace Hopper",
          company: "Initech",
        });
        assert.equal(data.reason, "insufficient-credits");
      });
    } finally {
      await world.close();
    }
  },
);

Deno.test(
  "find: DNS that cannot answer is verification-unavailable, never unusable-domain",
  DB_TEST,
  async (t) => {
    const world = await startWorld({ env: { VERIFY_TIMEOUT_SECONDS: "3" } });
    const { env, smtp } = world;
    try {
      const ws = await createTestWorkspace(env, 1000);
      const find = finder(env, ws.apiKey);

      await t.step("email mode: SERVFAIL and REFUSED → unavailable, not billed", async () => {
        for (const domain of ["servfail.test", "refused.test"]) {
          const { data } = await find({ name: "Grace Hopper", company: domain });
          assert.equal(data.found, false);
          assert.equal(data.reason, "verification-unavailable", domain);
          assert.equal(data.status, "unknown");
          assert.equal(data.pointsCharged, 0);
        }
        assert.equal(await pointsSpent(env, ws.workspaceId), 0);
      });

      await t.step(
        "company mode: SERVFAIL → unavailable, company part only, and a retry runs again",
        async () => {
          const body = { mode: "company", name: "Gavin Belson", company: "Brokendns" };
          const first = await find(body, "servfail-company-1");
          assert.equal(first.data.reason, "verification-unavailable");
          assert.equal(first.data.company.domain, "servfail.test");
          assert.equal(first.data.pointsCharged, PRICE_COMPANY);
          const asked = world.dns.queries.filter((q) => q.name === "servfail.test").length;
          const again = await find(body, "servfail-company-1");
          assert.equal(again.data.reason, "verification-unavailable");
          // The work ran again (the verdict was not stored); the company part is not charged twice.
          assert.equal(again.data.pointsCharged, 0);
          assert.equal(await pointsSpent(env, ws.workspaceId), PRICE_COMPANY);
          assert.ok(
            world.dns.queries.filter((q) => q.name === "servfail.test").length > asked,
            "DNS asked again",
          );
        },
      );

      await t.step("a DNS answer 1.1 s late is waited for (VERIFY_TIMEOUT_SECONDS=3)", async () => {
        smtp.setBehaviour({ mailboxes: { "grace.hopper@slowdns.test": "accept" } }, "127.0.0.1");
        const { data } = await find({ name: "Grace Hopper", company: "slowdns.test" });
        assert.equal(data.reason, null, JSON.stringify(data));
        assert.equal(data.email, "grace.hopper@slowdns.test");
      });

      await t.step("MX host that does not exist → unusable-domain, not billed", async () => {
        const { data } = await find({ name: "Grace Hopper", company: "ghostmx.test" });
        assert.equal(data.reason, "unusable-domain");
        assert.equal(data.status, "invalid");
        assert.equal(data.pointsCharged, 0);
      });

      await t.step("MX host name that cannot be resolved now → unavailable", async () => {
        const { data } = await find({ name: "Grace Hopper", company: "flakymx.test" });
        assert.equal(data.reason, "verification-unavailable");
        assert.equal(data.pointsCharged, 0);
      });
    } finally {
      await world.close();
    }
  },
);

Deno.test(
  "find: a mail host on an internal address is never dialled (unusable-domain)",
  DB_TEST,
  async () => {
    // VERIFY_ALLOW_PRIVATE_ADDRESSES off, as in production: acme.test's MX is 127.0.0.1.
    const world = await startWorld({ env: { VERIFY_ALLOW_PRIVATE_ADDRESSES: "false" } });
    const { env, smtp } = world;
    try {
      const ws = await createTestWorkspace(env, 1000);
      const { data } = await finder(env, ws.apiKey)({ name: "Grace Hopper", company: "acme.test" });
      assert.equal(data.found, false);
      assert.equal(data.reason, "unusable-domain");
      assert.equal(data.verification, null, "no host, address or reply code is disclosed");
      assert.equal(data.pointsCharged, 0);
      assert.equal(smtp.connections(), 0);
    } finally {
      await world.close();
    }
  },
);
