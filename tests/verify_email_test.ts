/**
 * `POST /api/v1/verify` through the app, with the real engine (DNS + SMTP) pointed at the fake
 * servers of the find suites: every status and the reasons behind it, the checks, the mail
 * setup and evidence, the billing of each outcome (a verdict billed, `unknown` and bad syntax
 * free), the verdict cache, replays, the do-not-contact list, and the price in `GET /points`
 * and the OpenAPI document.
 */
import assert from "node:assert/strict";
import { defaultVerifyPrice, loadConfig } from "../domain/config/config.ts";
import { addDoNotContact } from "../domain/do_not_contact/add_do_not_contact.ts";
import { bearer, createTestWorkspace, DB_TEST, lookupCaller } from "./harness.ts";
import { pointsSpent, startWorld, WORLD_PRICES } from "./find_world.ts";

const PRICE = WORLD_PRICES.verify;

Deno.test("PRICE_VERIFY: a third of the find-email price unless set", () => {
  assert.equal(loadConfig({}).prices.verify, 3);
  assert.equal(loadConfig({ PRICE_FIND_EMAIL: "30" }).prices.verify, 10);
  assert.equal(loadConfig({ PRICE_FIND_EMAIL: "2" }).prices.verify, 1);
  assert.equal(loadConfig({ PRICE_FIND_EMAIL: "0" }).prices.verify, 0);
  assert.equal(loadConfig({ PRICE_FIND_EMAIL: "30", PRICE_VERIFY: "7" }).prices.verify, 7);
  assert.equal(defaultVerifyPrice(11), 4);
  assert.throws(() => loadConfig({ PRICE_VERIFY: "-1" }), /PRICE_VERIFY/);
});

Deno.test("verify: statuses, reasons, checks, evidence and billing", DB_TEST, async (t) => {
  const world = await startWorld({
    dns: {
      // No MX, an address: the domain itself takes mail.
      "aonly.test": { a: ["127.0.0.1"] },
      // A throwaway-address service the disposable list names.
      "mailinator.com": { mx: [{ preference: 10, exchange: "mx1.example.test" }] },
      "senders.test": { mx: [{ preference: 10, exchange: "mx3.example.test" }] },
    },
    accept: ["grace.hopper@acme.test", "someone@aonly.test", "info@acme.test", "x@mailinator.com"],
  });
  const { env, smtp } = world;
  try {
    const ws = await createTestWorkspace(env, 1000);
    const verify = lookupCaller(env, ws.apiKey, "/api/v1/verify");
    const spent = () => pointsSpent(env, ws.workspaceId);

    await t.step("an accepted mailbox on a domain that refuses a random one: valid", async () => {
      smtp.reset();
      const { status, data } = await verify({ email: "  Grace.Hopper@ACME.test " });
      assert.equal(status, 200);
      assert.equal(data.email, "grace.hopper@acme.test");
      assert.equal(data.status, "valid");
      assert.equal(data.reason, null);
      assert.equal(data.confidence, 0.95);
      assert.deepEqual(data.checks, {
        syntax: true,
        disposable: false,
        role: false,
        freeMail: false,
        didYouMean: null,
      });
      assert.deepEqual(data.mail, {
        mxHosts: ["mx1.example.test"],
        acceptsMail: true,
        provider: "other",
        catchAll: false,
      });
      assert.equal(data.verification.method, "smtp");
      assert.equal(data.verification.mxHost, "mx1.example.test");
      assert.equal(data.verification.smtpCode, 250);
      assert.equal(data.verification.encrypted, true);
      assert.equal(data.cached, false);
      assert.equal(data.retryAfterSeconds, null);
      assert.deepEqual([data.charged, data.pointsCharged], [true, PRICE]);
      assert.equal(data.balance.available, 1000 - PRICE);
      assert.equal(smtp.connections(), 1, "one session: the probe and the address");
      const asked = smtp.rcpts.map((r) => r.address);
      assert.equal(asked.length, 2);
      assert.equal(asked[1], "grace.hopper@acme.test");
      assert.notEqual(asked[0], "grace.hopper@acme.test", "a random probe first");
      assert.ok(smtp.sessions.every((s) => s.helo === "verifier.test"));
    });

    await t.step("a repeat within the window answers from the cache: no SMTP, billed", async () => {
      const before = await spent();
      const sessions = smtp.connections();
      const { data } = await verify({ email: "grace.hopper@acme.test" });
      assert.equal(data.status, "valid");
      assert.equal(data.cached, true);
      assert.equal(data.verification.smtpCode, 250);
      assert.equal(data.pointsCharged, PRICE);
      assert.equal(smtp.connections(), sessions);
      assert.equal(await spent(), before + PRICE);
    });

    await t.step("the cache keeps no address in KV", async () => {
      await verify({ email: "grace.hopper@gmial.com" });
      let entries = 0;
      for await (const entry of env.kv.list({ prefix: ["result_cache", "verify"] })) {
        entries++;
        assert.ok(!JSON.stringify(entry).includes("grace.hopper"), "no address in a key or value");
      }
      assert.equal(entries, 2, "the valid verdict and the NXDOMAIN one");
    });

    await t.step("a refused mailbox: invalid, mailbox-not-found, billed", async () => {
      const before = await spent();
      const { data } = await verify({ email: "nobody.here@acme.test" });
      assert.equal(data.status, "invalid");
      assert.equal(data.reason, "mailbox-not-found");
      assert.equal(data.verification.smtpCode, 550);
      assert.equal(data.verification.enhancedStatus, "5.1.1");
      assert.equal(data.mail.catchAll, false);
      assert.equal(data.pointsCharged, PRICE);
      assert.equal(await spent(), before + PRICE);
    });

    await t.step("a role mailbox is flagged, and verified like any other", async () => {
      const { data } = await verify({ email: "info@acme.test" });
      assert.equal(data.checks.role, true);
      assert.equal(data.status, "valid");
    });

    await t.step("a catch-all domain: catch-all, billed", async () => {
      const { data } = await verify({ email: "anyone@catchall.test" });
      assert.equal(data.status, "catch-all");
      assert.equal(data.reason, "catch-all");
      assert.equal(data.mail.catchAll, true);
      assert.deepEqual(data.mail.mxHosts, ["mx2.example.test"]);
      assert.equal(data.pointsCharged, PRICE);
    });

    await t.step("greylisted past the retry: unknown, greylisted, free, not cached", async () => {
      const before = await spent();
      const { data } = await verify({ email: "someone@grey.test" });
      assert.equal(data.status, "unknown");
      assert.equal(data.reason, "greylisted");
      assert.equal(data.confidence, 0);
      assert.equal(data.verification.smtpCode, 451);
      assert.equal(data.mail.acceptsMail, true);
      assert.deepEqual([data.charged, data.pointsCharged], [false, 0]);
      assert.equal(await spent(), before);
      const again = await verify({ email: "someone@grey.test" });
      assert.equal(again.data.cached, false);
    });

    await t.step("our sender refused: unknown, sender-rejected, free", async () => {
      smtp.setBehaviour(
        { mailFrom: { code: 550, message: "5.1.8 <v@verifier.test>: Sender address rejected" } },
        "127.0.0.3",
      );
      try {
        const before = await spent();
        const { data } = await verify({ email: "someone@senders.test" });
        assert.equal(data.status, "unknown");
        assert.equal(data.reason, "sender-rejected");
        assert.equal(data.pointsCharged, 0);
        assert.equal(await spent(), before);
      } finally {
        smtp.setBehaviour({ otherRecipients: "greylist" }, "127.0.0.3");
      }
    });

    await t.step("DNS refusals: null MX, NXDOMAIN, a dangling MX; all billed", async () => {
      const cases = [
        ["someone@nomail.test", "null-mx"],
        ["someone@nowhere-at-all.test", "domain-not-found"],
        ["someone@ghostmx.test", "no-mail-server"],
      ] as const;
      for (const [email, reason] of cases) {
        const before = await spent();
        const sessions = smtp.connections();
        const { data } = await verify({ email });
        assert.equal(data.status, "invalid", email);
        assert.equal(data.reason, reason, email);
        assert.equal(data.confidence, 0.99);
        assert.equal(data.mail.acceptsMail, false);
        assert.equal(data.verification, null);
        assert.equal(data.pointsCharged, PRICE);
        assert.equal(await spent(), before + PRICE);
        assert.equal(smtp.connections(), sessions, "no SMTP");
      }
    });

    await t.step("no MX but an address: the domain itself is asked", async () => {
      const { data } = await verify({ email: "someone@aonly.test" });
      assert.equal(data.status, "valid");
      assert.deepEqual(data.mail.mxHosts, ["aonly.test"]);
      assert.equal(data.verification.mxHost, "aonly.test");
    });

    await t.step("a disposable domain is flagged; a typo domain gets a suggestion", async () => {
      const disposable = await verify({ email: "x@mailinator.com" });
      assert.equal(disposable.data.checks.disposable, true);
      assert.equal(disposable.data.status, "valid");
      const typo = await verify({ email: "bob@gmial.com" });
      assert.equal(typo.data.checks.didYouMean, "bob@gmail.com");
      assert.equal(typo.data.email, "bob@gmial.com", "never applied");
      assert.equal(typo.data.status, "invalid");
      assert.equal(typo.data.reason, "domain-not-found");
    });

    await t.step("bad syntax: invalid, invalid-syntax, free, no DNS or SMTP", async () => {
      const before = await spent();
      const sessions = smtp.connections();
      for (const email of ["not an address", "a@b", "@acme.test", "a..b@acme.test"]) {
        const { status, data } = await verify({ email });
        assert.equal(status, 200);
        assert.equal(data.status, "invalid", email);
        assert.equal(data.reason, "invalid-syntax", email);
        assert.equal(data.checks.syntax, false);
        assert.equal(data.pointsCharged, 0);
      }
      assert.equal(await spent(), before);
      assert.equal(smtp.connections(), sessions);
    });

    await t.step("a blank or missing email is a 400, free", async () => {
      for (const body of [{}, { email: "  " }, { email: 5 }]) {
        const { status, error } = await verify(body);
        assert.equal(status, 400);
        assert.equal(error.code, "validation_error");
      }
    });

    await t.step("the do-not-contact list: unknown, nothing asked, free", async () => {
      await addDoNotContact(env, { workspaceId: ws.workspaceId, domain: "acme.test" });
      const before = await spent();
      const sessions = smtp.connections();
      const { data } = await verify({ email: "grace.hopper@acme.test" });
      assert.equal(data.status, "unknown");
      assert.equal(data.reason, "do-not-contact");
      assert.equal(data.cached, false);
      assert.equal(data.pointsCharged, 0);
      assert.equal(smtp.connections(), sessions);
      assert.equal(await spent(), before);
    });

    await t.step("an Idempotency-Key replays the verdict free", async () => {
      const first = await verify({ email: "nobody2@catchall.test" }, "v-1");
      const before = await spent();
      const replay = await verify({ email: "nobody2@catchall.test" }, "v-1");
      assert.equal(replay.data.replay, true);
      assert.equal(replay.data.pointsCharged, 0);
      assert.equal(replay.data.status, first.data.status);
      assert.equal(await spent(), before);
    });

    await t.step(
      "a workspace that cannot pay: unknown, insufficient-credits, no SMTP",
      async () => {
        const poor = await createTestWorkspace(env, PRICE - 1);
        const sessions = smtp.connections();
        const { data } = await lookupCaller(env, poor.apiKey, "/api/v1/verify")({
          email: "grace.hopper@acme.test",
        });
        assert.equal(data.status, "unknown");
        assert.equal(data.reason, "insufficient-credits");
        assert.equal(data.pointsCharged, 0);
        assert.equal(smtp.connections(), sessions);
      },
    );

    await t.step("the price in GET /points and the OpenAPI document", async () => {
      const points = await (await env.app.request("/api/v1/points", {
        headers: bearer(ws.apiKey),
      })).json();
      assert.equal(points.data.prices.verify, PRICE);
      const document = await (await env.app.request("/api/v1/openapi.json")).json();
      const operation = document.paths["/api/v1/verify"].post;
      assert.deepEqual(operation["x-cost"].map((c: { priceName: string }) => c.priceName), [
        "verify",
      ]);
      assert.equal(operation["x-cost"][0].points, PRICE);
    });
  } finally {
    await world.close();
  }
});
