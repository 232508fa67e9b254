/**
 * What find must never deliver or bill, through the app with the real DNS + SMTP engine on fake
 * servers: a shared role mailbox as a person's address, an address at a free-mail or disposable
 * provider, a person or domain on the workspace's do-not-contact list, a name with control
 * characters; and lookups beyond the balance refused before any traffic.
 */
import assert from "node:assert/strict";
import { recordVerifiedEmail } from "../domain/directory/record_verified_email.ts";
import { createTestWorkspace, DB_TEST } from "./harness.ts";
import { finder, PRICE_EMAIL, startWorld } from "./find_world.ts";

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
      await recordVerifiedEmail(env.db.sql, {
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
