/**
 * The per-workspace do-not-contact list (migration 006, domain/do_not_contact/): normal forms and
 * validation messages, idempotent add/remove, the listing, workspace scoping, which addresses a
 * domain entry covers, and the check's plan on a new database (no statistics). Runs on embedded
 * PGlite, or on the Postgres named by TEST_DATABASE_URL.
 */
import assert from "node:assert/strict";
import type { Sql } from "../domain/stores/database.ts";
import { migrate } from "../domain/stores/migrate.ts";
import { ServiceError } from "../domain/errors.ts";
import { createWorkspace } from "../domain/workspaces/create_workspace.ts";
import {
  doNotContactKeys,
  normalizeEmail,
  normalizeHost,
  parseDoNotContactEntry,
} from "../domain/do_not_contact/do_not_contact_entry.ts";
import { addDoNotContact } from "../domain/do_not_contact/add_do_not_contact.ts";
import { removeDoNotContact } from "../domain/do_not_contact/remove_do_not_contact.ts";
import { listDoNotContact } from "../domain/do_not_contact/list_do_not_contact.ts";
import { isDoNotContact } from "../domain/do_not_contact/is_do_not_contact.ts";
import { DB_TEST, openTestDatabase } from "./harness.ts";
import { explaining } from "./explaining_sql.ts";

function validationMessage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ServiceError, String(error));
    assert.equal(error.code, "validation_error");
    return error.message;
  }
  assert.fail("expected a validation_error");
}

Deno.test("normal forms: lower case, no trailing dot, IDN in punycode", () => {
  assert.equal(normalizeHost(" Mail.ACME.com. "), "mail.acme.com");
  assert.equal(normalizeHost("Bücher.Example"), "xn--bcher-kva.example");
  assert.equal(normalizeHost("xn--bcher-kva.example"), "xn--bcher-kva.example");
  for (const bad of ["acme", "localhost", "https://acme.com", "acme.com/x", "acme.com:25"]) {
    assert.equal(normalizeHost(bad), null, bad);
  }
  for (const bad of ["bob@acme.com", "1.2.3.4", "a..b.com", "-acme.com", "acme_co.com", ""]) {
    assert.equal(normalizeHost(bad), null, bad);
  }
  assert.equal(normalizeEmail("  Bob.Smith+News@Mail.ACME.com. "), "bob.smith+news@mail.acme.com");
  assert.equal(normalizeEmail("józef@Bücher.example"), "józef@xn--bcher-kva.example");
  assert.equal(normalizeEmail("o'brien@acme.com"), "o'brien@acme.com");
  for (
    const bad of [
      "bob",
      "@acme.com",
      "bob@",
      "bob smith@acme.com",
      "bob@acme",
      "bob@@acme.com",
      "bob@acme.com x",
      ".bob@acme.com",
      "bob.@acme.com",
      "bo..b@acme.com",
      '"bob smith"@acme.com',
      "bob@[127.0.0.1]",
      `${"a".repeat(65)}@acme.com`,
    ]
  ) {
    assert.equal(normalizeEmail(bad), null, bad);
  }
  assert.equal(normalizeEmail(`${"a".repeat(64)}@acme.com`), `${"a".repeat(64)}@acme.com`);
});

Deno.test("entries: exactly one of email or domain, well formed, with clear messages", () => {
  assert.deepEqual(parseDoNotContactEntry({ email: "Ada@Engines.Example" }), {
    kind: "email",
    value: "ada@engines.example",
  });
  assert.deepEqual(parseDoNotContactEntry({ domain: "ACME.com." }), {
    kind: "domain",
    value: "acme.com",
  });
  // A subdomain is kept as given (it covers only itself and below), and a private suffix's
  // registrable name (github.io) is a domain like any other.
  assert.equal(parseDoNotContactEntry({ domain: "mail.acme.com" }).value, "mail.acme.com");
  assert.equal(parseDoNotContactEntry({ domain: "github.io" }).value, "github.io");

  for (const target of [{}, { email: "a@b.com", domain: "b.com" }, { email: null }]) {
    assert.equal(
      validationMessage(() => parseDoNotContactEntry(target)),
      "give exactly one of email or domain",
    );
  }
  for (const email of ["", "bob", "bob smith@acme.com", "@acme.com", "bob@acme"]) {
    const message = validationMessage(() => parseDoNotContactEntry({ email }));
    assert.match(message, /^email must be one address such as name@example\.com/);
    if (email) assert.ok(!message.includes(email), "the message does not repeat the address");
  }
  for (const domain of ["", "acme", "https://acme.com/", "bob@acme.com", "10.0.0.1", "a b.com"]) {
    assert.match(
      validationMessage(() => parseDoNotContactEntry({ domain })),
      /^domain must be a host name with a dot such as example\.com/,
    );
  }
  for (const domain of ["co.uk", "Co.UK.", "com.au"]) {
    assert.match(
      validationMessage(() => parseDoNotContactEntry({ domain })),
      /^domain must not be a public suffix/,
    );
  }
});

Deno.test("an address's keys: itself, without its +tag, its domain and each parent", () => {
  assert.deepEqual(doNotContactKeys(" Bob+News@A.Mail.Acme.co.uk "), {
    addresses: ["bob+news@a.mail.acme.co.uk", "bob@a.mail.acme.co.uk"],
    domains: ["a.mail.acme.co.uk", "mail.acme.co.uk", "acme.co.uk", "co.uk"],
  });
  assert.deepEqual(doNotContactKeys("ada@Bücher.example."), {
    addresses: ["ada@bücher.example.", "ada@xn--bcher-kva.example"],
    domains: ["xn--bcher-kva.example"],
  });
  assert.deepEqual(doNotContactKeys("not an address"), {
    addresses: ["not an address"],
    domains: [],
  });
  assert.deepEqual(doNotContactKeys("  "), { addresses: [], domains: [] });
});

async function withDatabase(run: (sql: Sql) => Promise<void>) {
  const db = await openTestDatabase();
  try {
    await migrate(db.sql);
    await run(db.sql);
  } finally {
    await db.drop();
  }
}

async function workspace(sql: Sql, name: string): Promise<string> {
  return (await createWorkspace({ db: { sql } }, { name })).workspaceId;
}

Deno.test("add, remove and list: idempotent, normalised, per workspace", DB_TEST, async () => {
  await withDatabase(async (sql) => {
    const ws = await workspace(sql, "dnc-a");
    const other = await workspace(sql, "dnc-b");

    assert.deepEqual(
      await addDoNotContact({ db: { sql } }, { workspaceId: ws, email: " Ada@Engines.Example " }),
      {
        workspaceId: ws,
        kind: "email",
        value: "ada@engines.example",
        created: true,
      },
    );
    assert.equal(
      (await addDoNotContact({ db: { sql } }, { workspaceId: ws, email: "ada@engines.example" }))
        .created,
      false,
    );
    assert.equal(
      (await addDoNotContact({ db: { sql } }, { workspaceId: ws, domain: "ACME.com." })).created,
      true,
    );
    assert.equal(
      (await addDoNotContact({ db: { sql } }, { workspaceId: ws, domain: "acme.com" })).created,
      false,
    );
    assert.equal(
      (await addDoNotContact({ db: { sql } }, { workspaceId: ws, domain: "Bücher.example" })).value,
      "xn--bcher-kva.example",
    );
    // The same value in another workspace is its own entry.
    assert.equal(
      (await addDoNotContact({ db: { sql } }, { workspaceId: other, domain: "acme.com" })).created,
      true,
    );

    const listing = await listDoNotContact({ db: { sql } }, { workspaceId: ws });
    assert.deepEqual(listing.map(({ kind, value }) => [kind, value]), [
      ["domain", "acme.com"],
      ["domain", "xn--bcher-kva.example"],
      ["email", "ada@engines.example"],
    ]);
    for (const entry of listing) assert.ok(!Number.isNaN(Date.parse(entry.createdAt)));
    assert.deepEqual(
      (await listDoNotContact({ db: { sql } }, { workspaceId: other })).map((e) => e.value),
      ["acme.com"],
    );
    assert.deepEqual(await listDoNotContact({ db: { sql } }, { workspaceId: "ws_nope" }), []);

    // Removing reads the entry the same way; a second removal removes nothing.
    assert.deepEqual(
      await removeDoNotContact({ db: { sql } }, { workspaceId: ws, domain: "Acme.COM" }),
      {
        workspaceId: ws,
        kind: "domain",
        value: "acme.com",
        removed: true,
      },
    );
    assert.equal(
      (await removeDoNotContact({ db: { sql } }, { workspaceId: ws, domain: "acme.com" })).removed,
      false,
    );
    // An address entry is not removed by naming its domain, nor the reverse.
    assert.equal(
      (await removeDoNotContact({ db: { sql } }, { workspaceId: ws, domain: "engines.example" }))
        .removed,
      false,
    );
    assert.deepEqual(
      (await listDoNotContact({ db: { sql } }, { workspaceId: ws })).map((e) => e.value),
      ["xn--bcher-kva.example", "ada@engines.example"],
    );
    // The other workspace's entry is untouched.
    assert.deepEqual(
      (await listDoNotContact({ db: { sql } }, { workspaceId: other })).map((e) => e.value),
      ["acme.com"],
    );

    await assert.rejects(
      addDoNotContact({ db: { sql } }, { workspaceId: "ws_nope", domain: "acme.com" }),
      (error: unknown) =>
        error instanceof ServiceError && error.code === "not_found" &&
        error.message === "No workspace with id ws_nope",
    );
    await assert.rejects(
      addDoNotContact({ db: { sql } }, { workspaceId: ws, email: "a@b.com", domain: "b.com" }),
      (error: unknown) => error instanceof ServiceError && error.code === "validation_error",
    );
    await assert.rejects(
      removeDoNotContact({ db: { sql } }, { workspaceId: ws, domain: "co.uk" }),
      (error: unknown) => error instanceof ServiceError && error.code === "validation_error",
    );
    // The table refuses what the verbs would never write.
    for (
      const [kind, value] of [
        ["email", "Ada@engines.example"],
        ["email", "acme.com"],
        ["domain", "bob@acme.com"],
        ["domain", "acme"],
        ["phone", "12345"],
      ]
    ) {
      await assert.rejects(
        sql`INSERT INTO do_not_contact (workspace_id, kind, value) VALUES (${ws}, ${kind}, ${value})`,
        `${kind} ${value}`,
      );
    }
  });
});

Deno.test(
  "the check: addresses, domains and their subdomains, never lookalikes",
  DB_TEST,
  async () => {
    await withDatabase(async (sql) => {
      const ws = await workspace(sql, "dnc-check");
      const other = await workspace(sql, "dnc-other");
      const listed = (email: string, workspaceId = ws) =>
        isDoNotContact({ db: { sql } }, { workspaceId, email });

      assert.equal(await listed("bob@acme.com"), false, "an empty list refuses nothing");
      await addDoNotContact({ db: { sql } }, { workspaceId: ws, domain: "acme.com" });
      await addDoNotContact({ db: { sql } }, { workspaceId: ws, domain: "mail.globex.test" });
      await addDoNotContact({ db: { sql } }, { workspaceId: ws, email: "ada@engines.example" });
      await addDoNotContact({ db: { sql } }, { workspaceId: ws, domain: "bücher.example" });

      for (
        const email of [
          "bob@acme.com",
          " Bob@ACME.com ",
          "bob@acme.com.",
          "bob@mail.acme.com",
          "bob@a.b.acme.com",
          "anyone@mail.globex.test",
          "anyone@eu.mail.globex.test",
          "ada@engines.example",
          "ADA@Engines.Example",
          "ada+newsletter@engines.example",
          "jan@bücher.example",
          "jan@xn--bcher-kva.example",
        ]
      ) {
        assert.equal(await listed(email), true, email);
      }
      for (
        const email of [
          "bob@notacme.com",
          "bob@acme.com.evil.test",
          "bob@acme.co",
          "bob@acmecom",
          "bob@com",
          "anyone@globex.test", // the parent of a listed subdomain is not covered
          "anyone@xmail.globex.test",
          "grace@engines.example", // an address entry covers that address only
          "ada.lovelace@engines.example",
          "adam@engines.example",
          "acme.com", // no address at all
          "",
          "bob@",
        ]
      ) {
        assert.equal(await listed(email), false, email);
      }
      // Another workspace's list is its own.
      assert.equal(await listed("bob@acme.com", other), false);
      assert.equal(await listed("ada@engines.example", other), false);
      await removeDoNotContact({ db: { sql } }, { workspaceId: ws, domain: "acme.com" });
      assert.equal(await listed("bob@mail.acme.com"), false);
    });
  },
);

/**
 * Every table a plan reads whole, every index it uses, and every filter it applies to rows of
 * do_not_contact after reading them (a key that is not an index condition).
 */
function scans(plan: unknown): { seq: string[]; indexes: string[]; filters: string[] } {
  const seq: string[] = [];
  const indexes: string[] = [];
  const filters: string[] = [];
  const walk = (node: Record<string, unknown>) => {
    if (node["Node Type"] === "Seq Scan") seq.push(String(node["Relation Name"]));
    if (typeof node["Index Name"] === "string") indexes.push(node["Index Name"]);
    if (node["Relation Name"] === "do_not_contact" && node["Filter"]) {
      filters.push(String(node["Filter"]));
    }
    for (const child of (node["Plans"] as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  walk((plan as { Plan: Record<string, unknown> }[])[0].Plan);
  return { seq, indexes, filters };
}

/** Plans of the statements a verb runs, read into their scans. */
function explainingInto(sql: Sql, plans: ReturnType<typeof scans>[]): Sql {
  return explaining(sql, (plan) => plans.push(scans(plan as never)), [{ listed: false }]);
}

Deno.test("the check uses the primary key on a new database (no statistics)", DB_TEST, async () => {
  await withDatabase(async (sql) => {
    const workspaces = [await workspace(sql, "dnc-plan-a"), await workspace(sql, "dnc-plan-b")];
    // Enough rows that a table scan costs more than the index, never analyzed.
    for (const workspaceId of workspaces) {
      await sql`
        INSERT INTO do_not_contact (workspace_id, kind, value)
        SELECT ${workspaceId}, 'domain', 'co' || i || '.example' FROM generate_series(1, 2000) i
        UNION ALL
        SELECT ${workspaceId}, 'email', 'p' || i || '@co' || i || '.example'
          FROM generate_series(1, 2000) i`;
    }
    const [{ n: stats }] = await sql`
      SELECT count(*)::int AS n FROM pg_stats WHERE tablename = 'do_not_contact'`;
    assert.equal(stats, 0, "the planner has no statistics");
    assert.equal(
      await isDoNotContact({ db: { sql } }, {
        workspaceId: workspaces[0],
        email: "x@a.co7.example",
      }),
      true,
    );

    const plans: ReturnType<typeof scans>[] = [];
    await isDoNotContact({ db: { sql: explainingInto(sql, plans) } }, {
      workspaceId: workspaces[0],
      email: "bob+x@eu.mail.co7.example",
    });
    assert.equal(plans.length, 1, "one statement");
    assert.deepEqual(plans[0].seq, [], "reads no table whole");
    assert.deepEqual(plans[0].indexes, ["do_not_contact_pkey"]);
    assert.deepEqual(plans[0].filters, [], "every key is an index condition, not a filter");

    // The check itself sees a table scan when there is one (a column without an index).
    const control: ReturnType<typeof scans>[] = [];
    await explainingInto(sql, control)`SELECT 1 FROM do_not_contact WHERE created_at = now()`;
    assert.deepEqual(control[0].seq, ["do_not_contact"]);
    // ... and a filter after the index: `value = ANY(...)` is one on Postgres 15 without
    // statistics (the reason the check looks each key up on its own).
    const filtered: ReturnType<typeof scans>[] = [];
    await explainingInto(sql, filtered)`
      SELECT 1 FROM do_not_contact
       WHERE workspace_id = ${workspaces[0]} AND kind = 'domain'
         AND value::text LIKE ${"co7.%"}`;
    assert.deepEqual(filtered[0].seq, []);
    assert.equal(filtered[0].filters.length, 1);
  });
});
