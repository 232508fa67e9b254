/**
 * What find must never deliver or bill, through the app with the real DNS + SMTP engine on fake
 * servers: a shared role mailbox as a person's address, an address at a free-mail or disposable
 * provider, a person or domain on the workspace's do-not-contact list, a name with control
 * characters; and lookups beyond the balance refused before any traffic.
 */
import assert from "node:assert/strict";
import { recordVerifiedEmail } from "../domain/directory/record_verified_email.ts";
import { addDoNotContact } from "../domain/do_not_contact/add_do_not_contact.ts";
import { importPeople } from "../domain/directory/import_people.ts";
import { heldInFlight } from "../domain/billing/hold_in_flight.ts";
import { createTestWorkspace, DB_TEST } from "./harness.ts";
import {
  finder,
  pointsSpent,
  PRICE_COMPANY,
  PRICE_EMAIL,
  recordOf,
  startWorld,
} from "./find_world.ts";

const MX1 = { mx: [{ preference: 10, exchange: "mx1.example.test" }] };

Deno.test("find: a shared role mailbox is never a person's address", DB_TEST, async (t) => {
  const world = await startWorld({ accept: ["info@acme.test", "sales@acme.test"] });
  const { env, smtp } = world;
  try {
    const ws = await createTestWorkspace(env, 1000);
    const find = finder(env, ws.apiKey);

    await t.step(
      "info@ accepted by the server is not asked, not delivered, not written",
      async () => {
        smtp.reset();
        const { data } = await find({ name: "Info Smith", company: "acme.test" });
        assert.equal(data.found, false);
        assert.equal(data.email, null);
        assert.equal(data.reason, "not-found");
        const asked = smtp.rcpts.map((r) => r.address);
        assert.ok(!asked.includes("info@acme.test"), asked.join(" "));
        const rows = await env.db.sql`
        SELECT 1 FROM person_emails WHERE address = 'info@acme.test'`;
        assert.equal(rows.length, 0, "nothing written to the directory");
      },
    );

    await t.step("a role address on a person's directory record is not delivered", async () => {
      await recordVerifiedEmail(env, {
        fullName: "Sales Person",
        given: "Sales",
        surname: "Person",
        domain: "acme.test",
        companyName: null,
        address: "sales@acme.test",
        status: "valid",
        verifiedAt: new Date(env.clock.now()),
      });
      smtp.reset();
      const { data } = await find({ name: "Sales Person", company: "acme.test" });
      assert.equal(data.found, false);
      assert.equal(data.email, null);
      assert.ok(!smtp.rcpts.some((r) => r.address === "sales@acme.test"));
      assert.equal(data.pointsCharged, PRICE_EMAIL, "the lookup ran: every candidate rejected");
    });
  } finally {
    await world.close();
  }
});

Deno.test(
  "find: free-mail and disposable domains are refused before any traffic",
  DB_TEST,
  async (t) => {
    // Their DNS and mail server would answer (and accept John): the refusal must come first.
    const world = await startWorld({
      dns: { "gmail.com": MX1, "mailinator.com": MX1, "eu.mailinator.com": MX1 },
      accept: ["john.smith@gmail.com", "john.smith@mailinator.com", "john.smith@eu.mailinator.com"],
      companies: [{ id: "Q200", label: "Gmail", website: "https://gmail.com/" }],
    });
    const { env, smtp, dns } = world;
    try {
      const ws = await createTestWorkspace(env, 1000);
      const find = finder(env, ws.apiKey);
      const cases: [string, string][] = [
        ["gmail.com", "free-mail-domain"],
        ["https://www.gmail.com/", "free-mail-domain"],
        ["mailinator.com", "disposable-domain"],
        ["eu.mailinator.com", "disposable-domain"],
      ];
      for (const [company, reason] of cases) {
        await t.step(`email mode, ${company}: ${reason}, not billed, no DNS or SMTP`, async () => {
          const queries = dns.queries.length;
          const sessions = smtp.connections();
          const spent = await pointsSpent(env, ws.workspaceId);
          const { status, data } = await find({ name: "John Smith", company });
          assert.equal(status, 200);
          assert.equal(data.found, false);
          assert.equal(data.email, null);
          assert.equal(data.reason, reason);
          assert.equal(data.charged, false);
          assert.equal(data.pointsCharged, 0);
          assert.equal(data.creditsCharged, 0);
          assert.equal(dns.queries.length, queries, "no DNS query");
          assert.equal(smtp.connections(), sessions, "no SMTP session");
          assert.equal(await pointsSpent(env, ws.workspaceId), spent);
        });
      }

      await t.step("a retry under the same key replays the refusal", async () => {
        const first = await find({ name: "John Smith", company: "gmail.com" }, "free-1");
        const again = await find({ name: "John Smith", company: "gmail.com" }, "free-1");
        assert.equal(first.data.replay, false);
        assert.equal(again.data.replay, true);
        assert.equal(again.data.reason, "free-mail-domain");
      });

      await t.step(
        "company mode resolving to a free-mail domain: the company part only",
        async () => {
          const sessions = smtp.connections();
          const spent = await pointsSpent(env, ws.workspaceId);
          const { data } = await find({ mode: "company", name: "John Smith", company: "Gmail" });
          assert.equal(data.found, false);
          assert.equal(data.reason, "free-mail-domain");
          assert.equal(data.company.domain, "gmail.com");
          assert.equal(data.pointsCharged, PRICE_COMPANY);
          assert.equal(smtp.connections(), sessions, "no SMTP session");
          assert.equal(await pointsSpent(env, ws.workspaceId), spent + PRICE_COMPANY);
        },
      );
    } finally {
      await world.close();
    }
  },
);

Deno.test("find: the do-not-contact list holds, before any DNS or SMTP", DB_TEST, async (t) => {
  const world = await startWorld({
    dns: { "mail.acme.test": MX1 },
    accept: ["john.smith@mail.acme.test"],
  });
  const { env, smtp, dns } = world;
  try {
    const ws = await createTestWorkspace(env, 1000);
    const other = await createTestWorkspace(env, 1000);
    const find = finder(env, ws.apiKey);
    const refused = async (body: Record<string, unknown>, key?: string) => {
      const queries = dns.queries.length;
      const sessions = smtp.connections();
      const spent = await pointsSpent(env, ws.workspaceId);
      const { status, data } = await find(body, key);
      assert.equal(status, 200);
      assert.equal(data.found, false);
      assert.equal(data.email, null);
      assert.equal(data.reason, "do-not-contact");
      assert.equal(data.charged, false);
      assert.equal(data.pointsCharged, 0);
      assert.equal(data.person, null, "nothing about the listed person");
      assert.equal(dns.queries.length, queries, "no DNS query");
      assert.equal(smtp.connections(), sessions, "no SMTP session");
      assert.equal(await pointsSpent(env, ws.workspaceId), spent);
      return data;
    };

    await t.step("a listed address: its person is refused, uncharged", async () => {
      await addDoNotContact(env, {
        workspaceId: ws.workspaceId,
        email: "grace.hopper@acme.test",
      });
      await refused({ name: "Grace Hopper", company: "acme.test" });
      const rows = await env.db.sql`
        SELECT 1 FROM person_emails WHERE address = 'grace.hopper@acme.test'`;
      assert.equal(rows.length, 0, "nothing written to the directory");
    });

    await t.step("another workspace's list does not apply", async () => {
      const { data } = await finder(env, other.apiKey)({
        name: "Grace Hopper",
        company: "acme.test",
      });
      assert.equal(data.found, true);
      assert.equal(data.email, "grace.hopper@acme.test");
    });

    await t.step("a listed address known to the directory is not delivered from it", async () => {
      // The directory now holds Grace's address, verified just now (the step above).
      await refused({ name: "Grace Hopper", company: "acme.test" });
    });

    await t.step("a listed domain, and a host beneath it, are refused", async () => {
      await addDoNotContact(env, { workspaceId: ws.workspaceId, domain: "acme.test" });
      await refused({ name: "Linus Torvalds", company: "acme.test" });
      await refused({ name: "John Smith", company: "mail.acme.test" });
    });

    await t.step("company mode: refused after the resolver, nothing billed", async () => {
      await addDoNotContact(env, { workspaceId: ws.workspaceId, domain: "initech.test" });
      const data = await refused({ mode: "company", name: "Peter Gibbons", company: "Initech" });
      assert.equal(data.company.domain, "initech.test");
    });

    await t.step("network mode: a listed person's profile is not returned either", async () => {
      await importPeople(env, [
        recordOf({
          name: "Samir Nagheenanajar",
          companyName: "Initrode Inc.",
          companyDomain: "initech.test",
          networkUrl: "https://network.example/in/samir-n",
        }),
      ]);
      const data = await refused({
        mode: "network",
        networkUrl: "https://network.example/in/samir-n",
      });
      assert.equal(data.resolvedProfile, null);
    });

    await t.step("a removed entry: the same key runs again", async () => {
      const other = { name: "Ada Lovelace", company: "catchall.test" };
      await addDoNotContact(env, { workspaceId: ws.workspaceId, domain: "catchall.test" });
      await refused(other, "dnc-1");
      await env.db.sql`
        DELETE FROM do_not_contact WHERE workspace_id = ${ws.workspaceId}
           AND value = 'catchall.test'`;
      const { data } = await find(other, "dnc-1");
      assert.equal(data.replay, false);
      assert.equal(data.reason, "catch-all");
      assert.equal(data.pointsCharged, PRICE_EMAIL);
    });
  } finally {
    await world.close();
  }
});

Deno.test(
  "find: a control character in name, company or networkUrl is a 400",
  DB_TEST,
  async (t) => {
    const world = await startWorld();
    const { env, smtp, dns } = world;
    try {
      const ws = await createTestWorkspace(env, 1000);
      const find = finder(env, ws.apiKey);
      const controls = ["\r\n", "\n", "\r", "\t", "\u0000", "\u001b", "\u007f", "\u0085", "\u009b"];
      for (const c of controls) {
        const code = [...c].map((x) => `U+${x.codePointAt(0)!.toString(16).padStart(4, "0")}`).join(
          " ",
        );
        const bodies: [string, Record<string, string>][] = [
          ["name", { name: `Jane Doe${c}RCPT TO:<x@y.test>`, company: "acme.test" }],
          ["company", { name: "Jane Doe", company: `acme.test${c}` }],
          ["company", { mode: "company", name: "Jane Doe", company: `Initech${c}Inc` }],
          ["networkUrl", { mode: "network", networkUrl: `https://network.example/in/x${c}` }],
        ];
        await t.step(`${code}: 400 validation_error, uncharged, no traffic`, async () => {
          const queries = dns.queries.length;
          const sessions = smtp.connections();
          for (const [field, body] of bodies) {
            const { status, error } = await find(body);
            assert.equal(status, 400, `${field} ${JSON.stringify(body)}`);
            assert.equal(error.code, "validation_error");
            assert.match(error.message, new RegExp(`${field} must not contain control characters`));
          }
          assert.equal(dns.queries.length, queries);
          assert.equal(smtp.connections(), sessions);
          assert.equal(await pointsSpent(env, ws.workspaceId), 0);
        });
      }

      await t.step("plain spaces, and letters beyond ASCII, are still a name", async () => {
        const { status, data } = await find({ name: "  José  Núñez ", company: "acme.test" });
        assert.equal(status, 200);
        assert.equal(data.reason, "not-found");
      });
    } finally {
      await world.close();
    }
  },
);

Deno.test(
  "find: concurrent lookups beyond the balance are refused before any traffic",
  DB_TEST,
  async () => {
    const world = await startWorld();
    const { env, smtp, dns } = world;
    try {
      const ws = await createTestWorkspace(env, PRICE_EMAIL); // enough for one lookup
      const find = finder(env, ws.apiKey);
      const names = ["Nobody One", "Nobody Two", "Nobody Three", "Nobody Four", "Nobody Five"];
      const queries = dns.queries.length;
      const answers = await Promise.all(
        names.map((name) => find({ name, company: "acme.test" }).then((r) => r.data)),
      );
      const charged = answers.filter((a) => a.charged);
      const refused = answers.filter((a) => a.reason === "insufficient-credits");
      assert.equal(charged.length, 1, JSON.stringify(answers.map((a) => a.reason)));
      assert.equal(charged[0].reason, "not-found");
      assert.equal(refused.length, 4);
      for (const a of refused) assert.equal(a.pointsCharged, 0);
      // Only the charged lookup's candidates were asked: the refused lookups made no session.
      const askedFor = new Set(
        smtp.rcpts.map((rcpt) => /one|two|three|four|five/.exec(rcpt.address)?.[0]).filter(
          Boolean,
        ),
      );
      assert.equal(askedFor.size, 1, [...askedFor].join(", "));
      const mxQueries = dns.queries.slice(queries).filter((q) => q.type === "MX");
      assert.equal(mxQueries.length, 1, "DNS for one lookup only");
      assert.equal(await pointsSpent(env, ws.workspaceId), PRICE_EMAIL);

      // Once the lookup in flight has ended, its hold is gone: a paid-up workspace runs again.
      assert.equal(heldInFlight(env.db, ws.workspaceId), 0);
      await env.db.sql`UPDATE balances SET available = available + ${PRICE_EMAIL}
                      WHERE workspace_id = ${ws.workspaceId}`;
      const { data } = await find({ name: "Nobody Six", company: "acme.test" });
      assert.equal(data.reason, "not-found");
      assert.equal(data.charged, true);
    } finally {
      await world.close();
    }
  },
);

Deno.test("find: a retry that runs again is no replay (spec §4.9.3)", DB_TEST, async (t) => {
  const world = await startWorld({
    companies: [{ id: "Q300", label: "Greyco", website: "https://grey.test/" }],
  });
  const { env, smtp } = world;
  try {
    const ws = await createTestWorkspace(env, 1000);
    const find = finder(env, ws.apiKey);
    const body = { mode: "company", name: "Ada Lovelace", company: "Greyco" };

    await t.step("verification-unavailable after the company resolved: company part", async () => {
      const { data } = await find(body, "grey-company-1");
      assert.equal(data.reason, "verification-unavailable");
      assert.equal(data.replay, false);
      assert.equal(data.pointsCharged, PRICE_COMPANY);
    });

    await t.step("the same key runs again: replay false, nothing charged twice", async () => {
      const sessions = smtp.connections("127.0.0.3");
      const first = await find(body, "grey-company-1");
      // It ran again: a first pass (the probe and 16 candidates, 9 a session) and the retry.
      assert.equal(smtp.connections("127.0.0.3"), sessions + 3, "it ran again");
      assert.equal(first.data.reason, "verification-unavailable");
      assert.equal(first.data.replay, false);
      assert.equal(first.data.charged, false);
      assert.equal(first.data.pointsCharged, 0);
      assert.equal(await pointsSpent(env, ws.workspaceId), PRICE_COMPANY);
    });

    await t.step("once it completes: the email part billed, replay false", async () => {
      smtp.setBehaviour({}, "127.0.0.3"); // every recipient rejected now: not-found
      const { data } = await find(body, "grey-company-1");
      assert.equal(data.reason, "not-found");
      assert.equal(data.replay, false);
      assert.equal(data.charged, true);
      assert.equal(data.pointsCharged, PRICE_EMAIL);
      assert.equal(await pointsSpent(env, ws.workspaceId), PRICE_COMPANY + PRICE_EMAIL);
    });

    await t.step("then the key replays the completed outcome", async () => {
      const sessions = smtp.connections();
      const { data } = await find(body, "grey-company-1");
      assert.equal(data.replay, true);
      assert.equal(data.reason, "not-found");
      assert.equal(data.pointsCharged, 0);
      assert.equal(smtp.connections(), sessions);
    });
  } finally {
    await world.close();
  }
});
