/**
 * The directory (migration 005, domain/directory/): normal forms, the import's upserts and
 * idempotency, company and person lookups, find's write-back, the demo generator, and the plans
 * of the lookups on a new database (no statistics). Runs on embedded PGlite, or on the Postgres
 * named by TEST_DATABASE_URL.
 */
import assert from "node:assert/strict";
import type { Sql } from "../domain/stores/database.ts";
import type { DbContext } from "../domain/context.ts";
import { migrate } from "../domain/stores/migrate.ts";
import {
  companyDomainOf,
  foldName,
  normalizeCompanyName,
  normalizeNetworkUrl,
} from "../domain/directory/normalize.ts";
import {
  importPeople,
  type ImportPeopleOptions,
  type ImportRecordInput,
  parseImportLine,
  parseImportRecord,
} from "../domain/directory/import_people.ts";
import { findPersonByNetworkUrl } from "../domain/directory/find_person_by_network_url.ts";
import { findPersonAtDomain } from "../domain/directory/find_person_at_domain.ts";
import { findCompanyByName } from "../domain/directory/find_company_by_name.ts";
import { findPersonByEmail } from "../domain/directory/find_person_by_email.ts";
import { verifiedAddressesAtDomain } from "../domain/directory/verified_addresses_at_domain.ts";
import { recordVerifiedEmail } from "../domain/directory/record_verified_email.ts";
import { DEMO_COMPANIES, demoPeople, localPart } from "../domain/directory/demo_people.ts";
import { DB_TEST, openTestDatabase } from "./harness.ts";
import { explaining } from "./explaining_sql.ts";

function records(inputs: ImportRecordInput[]) {
  return inputs.map((input) => {
    const parsed = parseImportRecord(input);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.record;
  });
}

async function load(sql: Sql, inputs: ImportRecordInput[], options: ImportPeopleOptions = {}) {
  return await importPeople({ db: { sql } }, records(inputs), options);
}

async function count(sql: Sql, table: string): Promise<number> {
  const [row] = await sql.unsafe(`SELECT count(*)::int AS n FROM ${table}`);
  return row.n;
}

Deno.test("normalizers: domains, profile URLs, company names, folded names", () => {
  for (
    const [input, expected] of [
      ["https://www.bbc.co.uk/news", "bbc.co.uk"],
      ["WWW.Acme.COM", "acme.com"],
      ["acme.com/about?x=1", "acme.com"],
      ["bob@mail.acme.co.uk", "acme.co.uk"],
      ["https://user:pw@shop.acme.io:8443/x#y", "acme.io"],
      ["northwind-analytics.example", "northwind-analytics.example"],
      ["bücher.example", "xn--bcher-kva.example"],
      ["1.2.3.4", null],
      ["http://[::1]/", null],
      ["localhost", null],
      ["not a domain", null],
      ["", null],
    ] as const
  ) assert.equal(companyDomainOf(input), expected, input);

  for (
    const [input, expected] of [
      ["HTTP://www.Network.example/in/Ada-L/?trk=x#top", "https://network.example/in/ada-l"],
      ["network.example/in/ada", "https://network.example/in/ada"],
      ["https://network.example/in/ada///", "https://network.example/in/ada"],
      ["https://network.example/", "https://network.example"],
      ["ftp://network.example/in/ada", null],
      ["https://127.0.0.1/in/ada", null],
      ["not a url", null],
      ["", null],
    ] as const
  ) assert.equal(normalizeNetworkUrl(input), expected, input);

  for (
    const [input, expected] of [
      ["The Acme Company, Inc.", "acme"],
      ["ACME", "acme"],
      ["Acme Widgets GmbH & Co. KG", "acme widgets"],
      ["Société Générale S.A.", "societe generale"],
      ["Procter & Gamble Co.", "procter gamble"],
      ["Procter and Gamble", "procter gamble"],
      ["AB Volvo", "volvo"],
      ["Wisła Data Sp. z o.o.", "wisla data"],
      ["Tanaka Robotics K.K.", "tanaka robotics"],
      ["Saffron Health Pvt. Ltd.", "saffron health"],
      ["Seoul Pixel Studios Co., Ltd.", "seoul pixel studios"],
      ["McDonald's Corp.", "mcdonalds"],
      ["Company", "company"],
      ["And", "and"],
      ["!!!", ""],
    ] as const
  ) assert.equal(normalizeCompanyName(input), expected, input);

  assert.equal(foldName("  José  ŁUKASZ\tMüller "), "jose lukasz muller");
  assert.equal(foldName("Søren Ørsted-Straße"), "soren orsted-strasse");
  assert.equal(foldName("Ada Lovelace"), "ada lovelace");
});

Deno.test("import records: validation names the wrong field", () => {
  for (
    const [line, message] of [
      ["{not json", /^invalid JSON/],
      ["[1, 2]", /must be a JSON object/],
      ['"Ada"', /must be a JSON object/],
      ["{}", /^name: /],
      ['{"name": "   "}', /^name: is required/],
      ['{"name": 42}', /^name: /],
      ['{"name": "Ada Lovelace", "emails": [{"address": "nope"}]}', /emails\.0\.address/],
      [
        '{"name": "Ada Lovelace", "emails": [{"address": "a@b.example", "status": "great"}]}',
        /emails\.0\.status/,
      ],
      [
        '{"name": "Ada Lovelace", "emails": [{"address": "a@b.example", "verifiedAt": "soon"}]}',
        /emails\.0\.verifiedAt/,
      ],
      ['{"name": "Ada Lovelace", "companyDomain": "127.0.0.1"}', /companyDomain: is not a domain/],
      ['{"name": "Ada Lovelace", "networkUrl": "mailto:ada"}', /networkUrl/],
      ['{"name": "Ada Lovelace", "headcount": "lots"}', /headcount/],
      ['{"name": "Ada Lovelace", "given": "Ada"}', /given and surname go together/],
      ['{"name": "Ada Lovelace", "keywords": "math"}', /keywords/],
    ] as const
  ) {
    const parsed = parseImportLine(line);
    assert.equal(parsed.ok, false, line);
    if (!parsed.ok) assert.match(parsed.message, message, line);
  }
  const ok = parseImportLine(JSON.stringify({
    name: "  Ada   Lovelace ",
    companyName: "Analytical Engines Ltd",
    companyDomain: "https://www.Engines.example/about",
    headcount: 120,
    networkUrl: "www.network.example/in/ada/",
    keywords: ["Math", "math", " Poetry "],
    emails: [{ address: " ADA@Engines.example ", status: "valid", verifiedAt: "2026-11-01" }],
    channels: { x: "@ada", emails: ["Ada@Mail.example"] },
    unknownField: "ignored",
  }));
  assert.ok(ok.ok);
  if (ok.ok) {
    assert.equal(ok.record.name, "Ada Lovelace");
    assert.equal(ok.record.companyDomain, "engines.example");
    assert.equal(ok.record.headcount, "51-200");
    assert.equal(ok.record.networkUrl, "https://network.example/in/ada");
    assert.deepEqual(ok.record.keywords, ["math", "poetry"]);
    assert.deepEqual(ok.record.emails, [{
      address: "ada@engines.example",
      status: "valid",
      verifiedAt: "2026-11-01T00:00:00.000Z",
    }]);
    assert.deepEqual(ok.record.channels, {
      x: "@ada",
      telegram: null,
      emails: ["ada@mail.example"],
    });
  }
});

Deno.test("demo people: deterministic, fictional domains, each company's address pattern", () => {
  const now = Date.UTC(2026, 10, 23, 12);
  const a = demoPeople(300, { now });
  assert.deepEqual(a, demoPeople(300, { now }));
  assert.deepEqual(demoPeople(40, { now }), a.slice(0, 40), "the first n of a larger set");
  assert.notDeepEqual(demoPeople(40, { now, seed: 7 }), a.slice(0, 40));
  // Another `now` moves only the verification times, keeping them within 30 days of it.
  const later = demoPeople(300, { now: now + 86_400_000 * 100 });
  const withoutTimes = (rs: ImportRecordInput[]) =>
    rs.map((r) => ({ ...r, emails: r.emails?.map((e) => ({ ...e, verifiedAt: null })) }));
  assert.deepEqual(withoutTimes(later), withoutTimes(a));
  for (const r of later) {
    for (const e of r.emails ?? []) {
      const age = now + 86_400_000 * 100 - Date.parse(e.verifiedAt!);
      assert.ok(age > 0 && age <= 31 * 86_400_000, `${e.verifiedAt} is recent`);
    }
  }

  const withEmail = a.filter((r) => r.emails?.length);
  assert.ok(withEmail.length > 300 * 0.25 && withEmail.length < 300 * 0.45, `${withEmail.length}`);
  for (const r of withEmail) {
    const company = DEMO_COMPANIES.find((c) => c.domain === r.companyDomain)!;
    assert.equal(
      r.emails![0].address,
      `${localPart(company.pattern, r.given!, r.surname!)}@${company.domain}`,
    );
    assert.equal(r.emails![0].status, "valid");
  }
  assert.ok(DEMO_COMPANIES.length >= 20);
  for (const c of DEMO_COMPANIES) if (c.domain) assert.match(c.domain, /^[a-z0-9-]+\.example$/);
  assert.ok(new Set(a.map((r) => r.companyDomain)).size >= 20);
  assert.equal(new Set(a.map((r) => r.networkUrl)).size, a.length, "profile URLs are distinct");
  assert.ok(a.some((r) => /[^\x20-\x7e]/.test(r.name)), "names carry diacritics");
  assert.ok(a.some((r) => / (van|von|de|da|dos) /.test(r.name)), "and particles");
  for (const r of a) {
    assert.ok(parseImportRecord(r).ok, r.name);
    assert.equal(r.name, `${r.given} ${r.surname}`, "written given name first");
  }
});

Deno.test("directory on one database: import, lookups, write-back", DB_TEST, async (t) => {
  const db = await openTestDatabase();
  const sql = db.sql;
  try {
    await migrate(sql);

    const ada: ImportRecordInput = {
      name: "Ada Lovelace",
      title: "Analyst",
      seniority: "senior",
      companyName: "Analytical Engines Ltd",
      companyAliases: ["Engines"],
      companyDomain: "engines.example",
      industry: "Computing",
      headcount: "11-50",
      location: "London, United Kingdom",
      networkUrl: "https://network.example/in/ada",
      keywords: ["math"],
      emails: [{
        address: "ada@engines.example",
        status: "valid",
        verifiedAt: "2026-11-01T10:00:00Z",
      }],
      channels: { x: "@ada", emails: ["ada@mail.example"] },
    };
    const charles: ImportRecordInput = {
      name: "Charles Babbage",
      companyName: "Analytical Engines Limited",
      companyDomain: "www.engines.example",
      location: "London, United Kingdom",
    };

    await t.step(
      "import: people and their companies, then the same again changes nothing",
      async () => {
        const splitCalls: string[][] = [];
        const splitNames = (names: string[]) => {
          splitCalls.push(names);
          return names.map((n) => {
            const [given, ...rest] = n.split(" ");
            return rest.length ? { given, surname: rest.join(" ") } : null;
          });
        };
        const first = await load(
          sql,
          [ada, charles, { ...ada, given: "Ada", surname: "Lovelace" }],
          {
            splitNames,
          },
        );
        assert.deepEqual(first, {
          records: 3,
          created: 2,
          updated: 0,
          unchanged: 0,
          companiesCreated: 1,
          companiesUpdated: 0,
        });
        assert.deepEqual(splitCalls, [["Ada Lovelace", "Charles Babbage"]], "only unsplit names");
        assert.equal(await count(sql, "people"), 2);
        assert.equal(await count(sql, "companies"), 1);
        const [before] = await sql`SELECT max(updated_at) AS at FROM people`;

        const again = await load(
          sql,
          [ada, charles, { ...ada, given: "Ada", surname: "Lovelace" }],
          {
            splitNames,
          },
        );
        assert.deepEqual(again, {
          records: 3,
          created: 0,
          updated: 0,
          unchanged: 2,
          companiesCreated: 0,
          companiesUpdated: 0,
        });
        const [after] = await sql`SELECT max(updated_at) AS at FROM people`;
        assert.deepEqual(after.at, before.at, "nothing rewritten");
        assert.equal(await count(sql, "people"), 2);
        assert.equal(await count(sql, "person_emails"), 1);

        const charlesRow = await findPersonAtDomain({ db }, {
          fullName: "charles babbage",
          domain: "engines.example",
        });
        assert.equal(charlesRow?.given, "Charles");
        assert.equal(charlesRow?.surname, "Babbage");
      },
    );

    await t.step("import: a later record updates the fields it states", async () => {
      const result = await load(sql, [{
        name: "Ada King",
        networkUrl: "http://www.network.example/in/ada/",
        title: "Countess",
        keywords: ["poetry"],
        emails: [{ address: "countess@engines.example", status: "catch-all" }],
        channels: { telegram: "@adaking", emails: ["king@mail.example"] },
      }]);
      assert.equal(result.updated, 1);
      assert.equal(result.created, 0);
      const person = await findPersonByNetworkUrl(
        { db },
        "https://network.example/in/ada",
      );
      assert.ok(person);
      assert.equal(person.fullName, "Ada King");
      assert.equal(person.title, "Countess");
      assert.equal(person.seniority, "senior", "unstated fields keep their values");
      assert.equal(person.location, "London, United Kingdom");
      assert.equal(person.company?.domain, "engines.example");
      assert.deepEqual(person.keywords, ["poetry"]);
      assert.deepEqual(person.channels, {
        x: "@ada",
        telegram: "@adaking",
        emails: ["ada@mail.example", "king@mail.example"],
      });
      assert.deepEqual(person.emails, [
        { address: "ada@engines.example", status: "valid", verifiedAt: "2026-11-01T10:00:00.000Z" },
        { address: "countess@engines.example", status: "catch-all", verifiedAt: null },
      ]);
    });

    await t.step(
      "import: same person without and with a profile URL, duplicates in one batch",
      async () => {
        // Imported without a URL, then a record with one upgrades that person.
        await load(sql, [{
          name: "Grace Hopper",
          companyName: "Navy Labs",
          companyDomain: "navy.example",
        }]);
        const upgrade = await load(sql, [{
          name: "Grace Hopper",
          companyDomain: "navy.example",
          networkUrl: "https://network.example/in/grace",
          title: "Rear Admiral",
        }]);
        assert.deepEqual([upgrade.created, upgrade.updated], [0, 1]);
        // A record without a URL reaches the person imported with one.
        const noUrl = await load(sql, [{
          name: "GRACE  HOPPER",
          companyDomain: "navy.example",
          location: "Arlington",
        }]);
        assert.deepEqual([noUrl.created, noUrl.updated], [0, 1]);
        const grace = await findPersonByNetworkUrl({ db }, "network.example/in/grace");
        assert.equal(grace?.location, "Arlington");
        assert.equal(grace?.title, "Rear Admiral");
        assert.equal(
          (await sql`SELECT count(*)::int AS n FROM people WHERE name_key = 'grace hopper'`)[0].n,
          1,
        );
        // Two lines of one batch about one person: one person, the later line's fields.
        const twice = await load(sql, [
          { name: "Alan Turing", networkUrl: "https://network.example/in/alan", title: "Reader" },
          {
            name: "Alan Turing",
            networkUrl: "https://network.example/in/alan/",
            location: "Wilmslow",
          },
        ]);
        assert.equal(twice.created, 1);
        const alan = await findPersonByNetworkUrl(
          { db },
          "https://network.example/in/alan",
        );
        assert.deepEqual([alan?.title, alan?.location], ["Reader", "Wilmslow"]);
      },
    );

    await t.step(
      "companies: by domain, by normal name, aliases, a domain-less one taking its domain",
      async () => {
        await load(sql, [
          { name: "Pat Doe", companyName: "Quiet Garden Studio" },
          { name: "Sam Roe", companyName: "quiet garden studio ltd." },
        ]);
        const quiet = await findCompanyByName({ db }, "Quiet Garden Studio GmbH");
        assert.ok(quiet);
        assert.equal(quiet.domain, null);
        assert.equal(
          (await sql`SELECT count(*)::int AS n FROM companies WHERE name_key = 'quiet garden studio'`)[
            0
          ]
            .n,
          1,
        );
        // The same company named with its domain: the domain-less record takes it.
        await load(sql, [{
          name: "Kim Poe",
          companyName: "Quiet Garden Studio",
          companyDomain: "quietgarden.example",
        }]);
        assert.deepEqual(await findCompanyByName({ db }, "quiet garden studio"), {
          id: quiet.id,
          name: "Quiet Garden Studio",
          domain: "quietgarden.example",
        });

        assert.equal(
          (await findCompanyByName({ db }, "ANALYTICAL ENGINES, INC."))?.domain,
          "engines.example",
        );
        assert.equal(
          (await findCompanyByName({ db }, "Engines Corp."))?.domain,
          "engines.example",
          "alias",
        );
        assert.equal(await findCompanyByName({ db }, "Difference Engines"), null);
        assert.equal(await findCompanyByName({ db }, "!!!"), null);

        // Prefer the company with a domain: a domain-less "Acme" and Acme Widgets, alias Acme.
        await load(sql, [
          { name: "Lee One", companyName: "Acme" },
          {
            name: "Lee Two",
            companyName: "Acme Widgets, Inc.",
            companyAliases: ["Acme"],
            companyDomain: "acme-widgets.example",
          },
        ]);
        assert.equal(
          (await findCompanyByName({ db }, "acme"))?.domain,
          "acme-widgets.example",
        );
        const [{ n }] = await sql`SELECT count(*)::int AS n FROM companies WHERE name_key = 'acme'`;
        assert.equal(n, 1, "the domain-less Acme is kept: a domain-less record names it");
      },
    );

    await t.step(
      "people: by profile URL, by name at a domain (either order), by email",
      async () => {
        await load(sql, [{
          name: "Nagy László",
          given: "László",
          surname: "Nagy",
          companyName: "Kovács és Társa Kft.",
          companyDomain: "kovacs-tarsa.example",
          networkUrl: "https://network.example/in/laszlo",
          emails: [{
            address: "nagy.laszlo@kovacs-tarsa.example",
            status: "valid",
            verifiedAt: "2026-11-20T08:00:00Z",
          }],
        }]);
        for (
          const input of [
            { fullName: "Nagy László" },
            { fullName: "nagy laszlo" },
            { fullName: "László Nagy" },
            { fullName: "Laszlo Nagy", given: "Laszlo", surname: "Nagy" },
            { fullName: "L. Nagy", given: "László", surname: "Nagy" },
          ]
        ) {
          const found = await findPersonAtDomain({ db }, {
            ...input,
            domain: "https://www.kovacs-tarsa.example/en",
          });
          assert.equal(found?.networkUrl, "https://network.example/in/laszlo", input.fullName);
        }
        assert.equal(
          await findPersonAtDomain({ db }, {
            fullName: "Nagy László",
            domain: "engines.example",
          }),
          null,
        );
        assert.equal(
          await findPersonAtDomain({ db }, {
            fullName: "Nagy Gábor",
            domain: "kovacs-tarsa.example",
          }),
          null,
        );
        assert.equal(
          await findPersonAtDomain({ db }, {
            fullName: "Nagy László",
            domain: "not a domain",
          }),
          null,
        );

        const byUrl = await findPersonByNetworkUrl(
          { db },
          "HTTPS://WWW.NETWORK.EXAMPLE/in/LASZLO?trk=1",
        );
        assert.equal(byUrl?.fullName, "Nagy László");
        assert.deepEqual(byUrl?.company, {
          id: byUrl!.company!.id,
          name: "Kovács és Társa Kft.",
          domain: "kovacs-tarsa.example",
          industry: null,
          headcount: null,
          location: null,
        });
        assert.equal(
          await findPersonByNetworkUrl({ db }, "https://network.example/in/nobody"),
          null,
        );
        assert.equal(await findPersonByNetworkUrl({ db }, "not a url"), null);

        assert.equal(
          (await findPersonByEmail({ db }, "  NAGY.LASZLO@kovacs-tarsa.example "))
            ?.fullName,
          "Nagy László",
        );
        assert.equal(
          (await findPersonByEmail({ db }, "king@mail.example"))?.fullName,
          "Ada King",
          "an associated address",
        );
        assert.equal(await findPersonByEmail({ db }, "nobody@mail.example"), null);
        assert.equal(await findPersonByEmail({ db }, "no-at-sign"), null);
      },
    );

    await t.step(
      "verified addresses at a domain: valid ones of people with given and surname",
      async () => {
        await load(sql, [
          {
            name: "Eva Kiss",
            given: "Eva",
            surname: "Kiss",
            companyDomain: "kovacs-tarsa.example",
            emails: [{
              address: "kiss.eva@kovacs-tarsa.example",
              status: "valid",
              verifiedAt: "2026-11-22T08:00:00Z",
            }],
          },
          {
            name: "Old Timer",
            given: "Old",
            surname: "Timer",
            companyDomain: "kovacs-tarsa.example",
            emails: [{
              address: "timer.old@kovacs-tarsa.example",
              status: "invalid",
              verifiedAt: "2026-11-22T09:00:00Z",
            }],
          },
          {
            name: "Mononym",
            companyDomain: "kovacs-tarsa.example",
            emails: [{
              address: "mononym@kovacs-tarsa.example",
              status: "valid",
              verifiedAt: "2026-11-23T08:00:00Z",
            }],
          },
        ]);
        assert.deepEqual(
          await verifiedAddressesAtDomain({ db }, {
            domain: "Kovacs-Tarsa.example",
            limit: 10,
          }),
          [
            {
              address: "kiss.eva@kovacs-tarsa.example",
              given: "Eva",
              surname: "Kiss",
              verifiedAt: "2026-11-22T08:00:00.000Z",
            },
            {
              address: "nagy.laszlo@kovacs-tarsa.example",
              given: "László",
              surname: "Nagy",
              verifiedAt: "2026-11-20T08:00:00.000Z",
            },
          ],
        );
        assert.equal(
          (await verifiedAddressesAtDomain({ db }, {
            domain: "kovacs-tarsa.example",
            limit: 1,
          }))
            .length,
          1,
        );
        assert.deepEqual(
          await verifiedAddressesAtDomain({ db }, { domain: "nowhere.example", limit: 5 }),
          [],
        );
      },
    );

    await t.step("record_verified_email: find's write-back reaches the same person", async () => {
      // A new domain: the company is made (named), then the person, then the address.
      const first = await recordVerifiedEmail({ db }, {
        fullName: "Hedy Lamarr",
        given: "Hedy",
        surname: "Lamarr",
        domain: "https://www.frequency.example/contact",
        companyName: "Frequency Hopping Inc.",
        address: "Hedy.Lamarr@frequency.example",
        status: "valid",
        verifiedAt: new Date("2026-11-23T10:00:00Z"),
      });
      assert.equal(first.personCreated, true);
      const hedy = await findPersonAtDomain({ db }, {
        fullName: "Hedy Lamarr",
        domain: "frequency.example",
      });
      assert.equal(hedy?.id, first.personId);
      assert.equal(hedy?.company?.name, "Frequency Hopping Inc.");
      assert.deepEqual(hedy?.emails, [
        {
          address: "hedy.lamarr@frequency.example",
          status: "valid",
          verifiedAt: "2026-11-23T10:00:00.000Z",
        },
      ]);
      assert.equal(
        (await findCompanyByName({ db }, "frequency hopping"))?.domain,
        "frequency.example",
      );

      // Again, later: the same person and address, the new status and time.
      const again = await recordVerifiedEmail({ db }, {
        fullName: "hedy lamarr",
        given: null,
        surname: null,
        domain: "frequency.example",
        address: "hedy.lamarr@frequency.example",
        status: "catch-all",
        verifiedAt: "2026-11-23T11:00:00Z",
      });
      assert.deepEqual(again, {
        personId: first.personId,
        companyId: first.companyId,
        personCreated: false,
      });
      assert.equal(
        (await findPersonByEmail({ db }, "hedy.lamarr@frequency.example"))?.emails[0]
          .status,
        "catch-all",
      );

      // An imported person (with a profile URL) at that domain gets the address; no new person.
      const people = await count(sql, "people");
      const ada = await recordVerifiedEmail({ db }, {
        fullName: "Ada King",
        given: "Ada",
        surname: "King",
        domain: "engines.example",
        address: "ada.king@engines.example",
        status: "valid",
        verifiedAt: new Date("2026-11-23T12:00:00Z"),
        source: "test",
      });
      assert.equal(ada.personCreated, false);
      assert.equal(await count(sql, "people"), people);
      const person = await findPersonByNetworkUrl(
        { db },
        "https://network.example/in/ada",
      );
      assert.equal(person?.id, ada.personId);
      assert.equal(person?.emails[0].address, "ada.king@engines.example", "newest valid first");
      assert.deepEqual(person?.channels.x, "@ada");

      // A domain named only by its address gets a stand-in name, replaced once a name is known.
      await recordVerifiedEmail({ db }, {
        fullName: "Radia Perlman",
        given: "Radia",
        surname: "Perlman",
        domain: "spanning.example",
        address: "radia@spanning.example",
        status: "valid",
        verifiedAt: null,
      });
      assert.equal(
        (await findPersonByEmail({ db }, "radia@spanning.example"))?.company?.name,
        "spanning.example",
      );
      await recordVerifiedEmail({ db }, {
        fullName: "Radia Perlman",
        given: "Radia",
        surname: "Perlman",
        domain: "spanning.example",
        companyName: "Spanning Tree Co.",
        address: "radia@spanning.example",
        status: "valid",
        verifiedAt: null,
      });
      assert.equal(
        (await findCompanyByName({ db }, "Spanning Tree"))?.domain,
        "spanning.example",
      );

      await assert.rejects(
        recordVerifiedEmail({ db }, {
          fullName: "X Y",
          given: "X",
          surname: "Y",
          domain: "localhost",
          address: "x@localhost",
          status: "valid",
          verifiedAt: null,
        }),
        /domain/,
      );
    });

    await t.step("the demo set loads, and its examples answer", async () => {
      const demo = demoPeople(120, { now: Date.now() });
      const result = await load(sql, demo);
      assert.equal(result.records, 120);
      assert.ok(result.created >= 115, `${result.created} people made`);
      const again = await load(sql, demo);
      assert.deepEqual([again.created, again.updated], [0, 0]);
      const example = demo.find((r) => r.emails?.length && r.companyDomain)!;
      const person = await findPersonAtDomain({ db }, {
        fullName: example.name,
        domain: example.companyDomain!,
      });
      assert.equal(person?.emails[0].address, example.emails![0].address);
      assert.equal(person?.emails[0].status, "valid");
      assert.equal(
        (await findCompanyByName({ db }, example.companyAliases![0]))?.domain,
        example.companyDomain,
      );
    });
  } finally {
    await db.drop();
  }
});

/** Every table a plan reads whole, and every index it uses. */
function scans(plan: unknown): { seq: string[]; indexes: string[] } {
  const seq: string[] = [];
  const indexes: string[] = [];
  const walk = (node: Record<string, unknown>) => {
    if (node["Node Type"] === "Seq Scan") seq.push(String(node["Relation Name"]));
    if (typeof node["Index Name"] === "string") indexes.push(node["Index Name"]);
    for (const child of (node["Plans"] as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  walk((plan as { Plan: Record<string, unknown> }[])[0].Plan);
  return { seq, indexes };
}

/** Plans of the statements a verb runs, read into their scans. */
function explainingInto(sql: Sql, plans: { seq: string[]; indexes: string[] }[]): Sql {
  return explaining(sql, (plan) => plans.push(scans(plan as never)), []);
}

Deno.test("lookups use their indexes on a new database (no statistics)", DB_TEST, async () => {
  const db = await openTestDatabase();
  try {
    await migrate(db.sql);
    // Enough rows that a table scan costs more than an index, never analyzed.
    const now = new Date().toISOString();
    await load(
      db.sql,
      Array.from({ length: 2000 }, (_, i) => ({
        name: `Person ${i} Example`,
        given: "Person",
        surname: `Example${i}`,
        companyName: `Company ${i} Ltd`,
        companyAliases: [`Alias ${i}`],
        companyDomain: `co${i}.example`,
        networkUrl: `https://network.example/in/p${i}`,
        emails: [{ address: `p${i}@co${i}.example`, status: "valid" as const, verifiedAt: now }],
        channels: { emails: [`p${i}@mail.example`] },
      })),
    );
    const [{ n: stats }] = await db.sql`
      SELECT count(*)::int AS n FROM pg_stats
       WHERE tablename IN ('companies', 'people', 'person_emails')`;
    assert.equal(stats, 0, "the planner has no statistics");

    const directory = ["companies", "people", "person_emails"];
    const check = async (
      what: string,
      run: (ctx: DbContext) => Promise<unknown>,
      expected: string[],
    ) => {
      const plans: { seq: string[]; indexes: string[] }[] = [];
      await run({ db: { sql: explainingInto(db.sql, plans) } });
      assert.ok(plans.length > 0, what);
      const seq = plans.flatMap((p) => p.seq).filter((table) => directory.includes(table));
      assert.deepEqual(seq, [], `${what} reads no directory table whole`);
      const used = new Set(plans.flatMap((p) => p.indexes));
      for (const index of expected) {
        assert.ok(used.has(index), `${what} uses ${index}: ${[...used]}`);
      }
    };
    await check(
      "person by profile URL",
      (ctx) => findPersonByNetworkUrl(ctx, "https://network.example/in/p7"),
      ["people_network_url_key"],
    );
    await check(
      "person by name at a domain",
      (ctx) =>
        findPersonAtDomain(ctx, {
          fullName: "Person 7 Example",
          given: "Person",
          surname: "Example7",
          domain: "co7.example",
        }),
      ["companies_domain_key", "people_company_name", "people_company_given_surname"],
    );
    await check(
      "company by name or alias",
      (ctx) => findCompanyByName(ctx, "Alias 7"),
      ["companies_name_key", "companies_alias_keys"],
    );
    await check(
      "person by email (work, then associated)",
      (ctx) => findPersonByEmail(ctx, "p7@mail.example"),
      ["person_emails_address", "people_channel_emails"],
    );
    await check(
      "verified addresses at a domain",
      (ctx) => verifiedAddressesAtDomain(ctx, { domain: "co7.example", limit: 20 }),
      ["person_emails_valid_at_domain"],
    );
    // The check itself sees a table scan when there is one (a column without an index).
    const control: { seq: string[]; indexes: string[] }[] = [];
    await explainingInto(db.sql, control)`SELECT id FROM people WHERE headline = ${"x"}`;
    assert.deepEqual(control[0].seq, ["people"]);
  } finally {
    await db.drop();
  }
});
