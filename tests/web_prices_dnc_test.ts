/**
 * The prices page (`/app/prices`): every price of the live table with its points and what it is
 * charged per, in the words of the API's own `x-cost`, and what is never charged. The
 * do-not-contact page (`/app/do-not-contact`): add, list, remove (after a confirmation) through
 * the same verbs as the CLI, the verbs' messages for a bad entry, the list enrich reads, and
 * every form's CSRF token.
 */
import assert from "node:assert/strict";
import type { PriceTable } from "../domain/config/config.ts";
import { listDoNotContact } from "../domain/do_not_contact/list_do_not_contact.ts";
import { addDoNotContact } from "../domain/do_not_contact/add_do_not_contact.ts";
import { bearer, createTestEnv, createTestWorkspace, DB_TEST } from "./harness.ts";
import { signedInMember } from "./web_client.ts";

const PRICES: PriceTable = {
  nameParse: 3,
  findEmail: 17,
  findCompany: 4,
  networkSearch: 1,
  enrich: 13,
  lead: 7,
  verify: 5,
  domainSearch: 11,
};

function priceRow(html: string, price: string): string {
  const match = new RegExp(`<tr data-price="${price}">(.*?)</tr>`, "s").exec(html);
  assert.ok(match, `a row for ${price}`);
  return match[1];
}

Deno.test("prices: the live table, worded as the API declares it", DB_TEST, async () => {
  const env = await createTestEnv({ config: { prices: PRICES } });
  try {
    const ws = await createTestWorkspace(env);
    const member = await signedInMember(env, ws.workspaceId);
    const page = await member.get("/app/prices");
    assert.equal(page.status, 200);

    const rows = [...page.text.matchAll(/<tr data-price="([a-zA-Z]+)">/g)].map((m) => m[1]);
    assert.deepEqual(rows.sort(), Object.keys(env.ctx.prices).sort(), "every price, once");
    for (const [price, value] of Object.entries(env.ctx.prices)) {
      assert.match(
        priceRow(page.text, price),
        new RegExp(
          `<strong>${value}</strong> <span class="muted">${
            value === 1 ? "point" : "points"
          }</span>`,
        ),
        price,
      );
    }
    assert.match(priceRow(page.text, "nameParse"), /Name parse/);
    assert.match(priceRow(page.text, "lead"), /Lead search/);
    assert.match(priceRow(page.text, "domainSearch"), /Domain search/);
    assert.match(priceRow(page.text, "domainSearch"), /POST \/api\/v1\/domain-search/);

    // Each route's own wording (its `x-cost` in the OpenAPI document) beside the price it names.
    const document = await (await env.app.request("/api/v1/openapi.json")).json();
    let declared = 0;
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods as Record<string, unknown>)) {
        const costs = (operation as { "x-cost"?: { priceName: string; per: string }[] })["x-cost"];
        for (const cost of costs ?? []) {
          declared++;
          const row = priceRow(page.text, cost.priceName);
          assert.ok(row.includes(cost.per), `${cost.priceName}: ${cost.per}`);
          assert.ok(row.includes(`${method.toUpperCase()} ${path}`), `${method} ${path}`);
        }
      }
    }
    assert.ok(declared >= 7, "name parse (twice), find (two parts), network search, enrich, lead");

    assert.match(page.text, /Never charged/);
    for (const free of [/Refusals/, /Provider errors/, /Replays/, /429/, /500/]) {
      assert.match(page.text, free);
    }
  } finally {
    await env.close();
  }
});

const DNC = "/app/do-not-contact";

Deno.test("do-not-contact: add, list, remove, and the verbs' messages", DB_TEST, async () => {
  const env = await createTestEnv();
  try {
    const ws = await createTestWorkspace(env);
    const other = await createTestWorkspace(env);
    await addDoNotContact(env, { workspaceId: other.workspaceId, domain: "other.example" });
    const member = await signedInMember(env, ws.workspaceId);

    const empty = await member.get(DNC);
    assert.equal(empty.status, 200);
    assert.match(empty.text, /The list is empty/);
    assert.doesNotMatch(empty.text, /other\.example/, "another workspace's list is its own");
    assert.match(empty.text, /covers its subdomains/);

    const domain = await member.post(DNC, { entry: "  Acme.COM. " });
    assert.equal(domain.status, 200);
    assert.match(domain.text, /Added acme\.com\./);
    const address = await member.post(DNC, { entry: "Jane+News@Example.org" });
    assert.match(address.text, /Added jane\+news@example\.org\./);
    const again = await member.post(DNC, { entry: "acme.com" });
    assert.match(again.text, /acme\.com was already on the list\./);

    const list = await member.get(DNC);
    assert.doesNotMatch(list.text, /The list is empty/);
    assert.match(list.text, /1 domain, 1 address/);
    assert.match(
      list.text,
      /<tr data-kind="domain">.*?acme\.com<\/span><span class="muted dnc-sub">and its subdomains/s,
    );
    assert.match(list.text, /<tr data-kind="email">.*?jane\+news@example\.org/s);
    assert.deepEqual(
      (await listDoNotContact(env, { workspaceId: ws.workspaceId })).map((e) => e.value),
      ["acme.com", "jane+news@example.org"],
    );

    // The list the API's enrich reads: an address beneath the listed domain is refused.
    const enriched = await env.app.request("/api/v1/enrich/email", {
      method: "POST",
      headers: bearer(ws.apiKey, { "Content-Type": "application/json" }),
      body: JSON.stringify({ email: "bob@mail.acme.com" }),
    });
    const answer = (await enriched.json()).data;
    assert.equal(answer.reason, "do-not-contact");
    assert.equal(answer.charged, false);

    // Bad entries: the verb's message, the form kept as typed, nothing added.
    const bad: [string, RegExp][] = [
      ["https://acme.com/about", /A domain must be a host name with a dot such as example\.com/],
      ["jane@", /An email address must be one address such as name@example\.com/],
      ["co.uk", /A domain must not be a public suffix such as com or co\.uk/],
      ["   ", /Enter an address or a domain to add\./],
    ];
    for (const [entry, message] of bad) {
      const refused = await member.post(DNC, { entry });
      assert.equal(refused.status, 400, entry);
      assert.match(refused.text, message, entry);
      assert.match(refused.text, /class="notice error"/);
      assert.ok(refused.text.includes(`name="entry" required maxlength="320" value="${entry}"`));
    }
    assert.equal((await listDoNotContact(env, { workspaceId: ws.workspaceId })).length, 2);

    // Remove: the list's form asks in a dialog; without script, a confirmation page first.
    assert.match(
      list.text,
      /<form method="post" action="\/app\/do-not-contact\/remove" data-confirm="Remove acme\.com from the do-not-contact list\?">/,
    );
    const asked = await member.post(`${DNC}/remove`, {
      kind: "domain",
      value: "acme.com",
      noscript: "1",
    });
    assert.equal(asked.status, 200);
    assert.match(
      asked.text,
      /Remove the domain <strong class="mono dnc-value">acme\.com<\/strong>/,
    );
    assert.match(asked.text, /<input type="hidden" name="value" value="acme\.com">/);
    assert.doesNotMatch(asked.text, /name="noscript"/);
    assert.equal((await listDoNotContact(env, { workspaceId: ws.workspaceId })).length, 2);

    const removed = await member.post(`${DNC}/remove`, { kind: "domain", value: "acme.com" });
    assert.equal(removed.status, 200);
    assert.match(removed.text, /Removed acme\.com\./);
    assert.doesNotMatch(removed.text, /<tr data-kind="domain">/);
    const gone = await member.post(`${DNC}/remove`, { kind: "domain", value: "acme.com" });
    assert.match(gone.text, /acme\.com was not on the list\./);
    const nonsense = await member.post(`${DNC}/remove`, { kind: "phone", value: "1" });
    assert.equal(nonsense.status, 400);
    assert.deepEqual(
      (await listDoNotContact(env, { workspaceId: ws.workspaceId })).map((e) => e.value),
      ["jane+news@example.org"],
    );
    assert.equal(
      (await listDoNotContact(env, { workspaceId: other.workspaceId })).length,
      1,
      "another workspace's entry untouched",
    );
  } finally {
    await env.close();
  }
});

Deno.test("do-not-contact: every form needs its CSRF token", DB_TEST, async () => {
  const env = await createTestEnv();
  try {
    const ws = await createTestWorkspace(env);
    await addDoNotContact(env, { workspaceId: ws.workspaceId, domain: "keep.example" });
    const member = await signedInMember(env, ws.workspaceId);
    await member.get(DNC);
    const add = await member.post(DNC, { _csrf: "", entry: "new.example" });
    assert.equal(add.status, 403);
    const remove = await member.post(`${DNC}/remove`, {
      _csrf: "wrong",
      kind: "domain",
      value: "keep.example",
    });
    assert.equal(remove.status, 403);
    assert.deepEqual(
      (await listDoNotContact(env, { workspaceId: ws.workspaceId })).map((e) => e.value),
      ["keep.example"],
    );
  } finally {
    await env.close();
  }
});
