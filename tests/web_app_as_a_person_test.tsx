/**
 * The app as a person meets it, through `app.request()`: each refusal reason has its own badge
 * and sentence (never "Not found" for a refusal), an unknown app address is an HTML page with the
 * way back (the API keeps its JSON), the sign-in page sends a newcomer to their workspace's owner,
 * operations have readable names everywhere, and numbers read the same on every page. The same
 * pages in Chromium at both sizes, with axe: tests/web_*_browser_test.ts.
 */
import assert from "node:assert/strict";
import { FIND_REASONS } from "../domain/find/find_answer.ts";
import { ENRICH_REASONS } from "../domain/enrich/enrich_answer.ts";
import { VERIFY_REASONS } from "../domain/verify_email/verify_answer.ts";
import { addDoNotContact } from "../domain/do_not_contact/add_do_not_contact.ts";
import {
  type KnownReason,
  ReasonBadge,
  REASONS,
  ReasonSentence,
  type ReasonTool,
} from "../routes/app/tools/reasons.tsx";
import { operationName, OPERATIONS } from "../routes/app/operation_names.ts";
import { operationColour } from "../routes/app/overview_chart.tsx";
import { confidence, count } from "../routes/app/numbers.ts";
import { namesCsv } from "../routes/app/tools/names_csv.ts";
import { createTestEnv, createTestWorkspace, DB_TEST } from "./harness.ts";
import { FakeNameModel } from "./fake_name_model.ts";
import { signedInMember, WebClient } from "./web_client.ts";

/** Every reason a tool page can show, with the tools that give it. */
const REASONS_BY_TOOL: [ReasonTool, readonly string[]][] = [
  ["find", FIND_REASONS],
  ["enrich", ENRICH_REASONS],
  ["network-search", ["search-unavailable", "insufficient-credits"]],
  ["verify", VERIFY_REASONS],
];

const html = async (element: unknown) =>
  String(await (element as { toString(): unknown }).toString());
const textOf = (markup: string) => markup.replace(/<[^>]+>/g, "").trim();

Deno.test("refusal reasons: each has its own badge and one sentence, on every tool", async (t) => {
  const badges = new Map<string, string>();
  for (const [tool, reasons] of REASONS_BY_TOOL) {
    for (const reason of reasons) {
      await t.step(`${tool}: ${reason}`, async () => {
        assert.ok(Object.hasOwn(REASONS, reason), `${reason} is in the table`);
        const badge = await html(<ReasonBadge reason={reason} />);
        const label = textOf(badge);
        assert.equal(label, REASONS[reason as KnownReason].badge);
        assert.match(badge, new RegExp(`data-reason="${reason}"`));
        if (reason !== "not-found") {
          assert.notEqual(label, "Not found", "a refusal is not 'Not found'");
        }
        const known = badges.get(label);
        assert.ok(known === undefined || known === reason, `"${label}" is ${known}'s badge too`);
        badges.set(label, reason);

        const sentence = textOf(await html(<ReasonSentence tool={tool} reason={reason} />));
        assert.ok(sentence.length > 20, "a sentence");
        assert.match(sentence, /^[A-Z].*\.$/s, "one plain sentence or two, ending with a stop");
      });
    }
  }
  await t.step("a reason this version does not know still says it was not answered", async () => {
    assert.equal(textOf(await html(<ReasonBadge reason="something-new" />)), "Not answered");
  });
  await t.step("refusals and failures look different from a not-found", () => {
    assert.equal(REASONS["do-not-contact"].tone, "stop");
    assert.equal(REASONS["invalid-input"].tone, "stop");
    assert.equal(REASONS["not-found"].tone, "bad");
    assert.equal(REASONS["source-timeout"].tone, "warn");
  });
});

Deno.test(
  "enrich and find pages: a do-not-contact or malformed input is its own badge",
  DB_TEST,
  async () => {
    const env = await createTestEnv({ nameModel: new FakeNameModel() });
    try {
      const ws = await createTestWorkspace(env, 100);
      await addDoNotContact(env, { workspaceId: ws.workspaceId, domain: "blocked.test" });
      const member = await signedInMember(env, ws.workspaceId);
      const badgeOf = (text: string) =>
        /<h2 id="(?:enrich|find)-answer"><span class="badge (\w+)" data-reason="([^"]+)">([^<]+)<\/span>/
          .exec(text)?.slice(1);

      await member.get("/app/tools/enrich");
      const blocked = await member.post("/app/tools/enrich", { email: "ada@blocked.test" });
      assert.deepEqual(badgeOf(blocked.text), ["stop", "do-not-contact", "Do not contact"]);
      assert.match(blocked.text, /on your do-not-contact list/);
      assert.doesNotMatch(blocked.text, />Not found</);

      const malformed = await member.post("/app/tools/enrich", { email: "not-an-address" });
      assert.deepEqual(badgeOf(malformed.text), ["stop", "invalid-input", "Invalid input"]);
      assert.match(malformed.text, /not a well-formed email address/);
      assert.doesNotMatch(malformed.text, />Not found</);

      await member.get("/app/tools/find");
      const find = await member.post("/app/tools/find", {
        mode: "email",
        name: "Ada Lovelace",
        company: "blocked.test",
      });
      assert.deepEqual(badgeOf(find.text), ["stop", "do-not-contact", "Do not contact"]);

      // The verify page: its verdict, then the reason's own badge and sentence.
      await member.get("/app/tools/verify");
      const verify = await member.post("/app/tools/verify", { email: "ada@blocked.test" });
      assert.match(verify.text, /data-status="unknown"/);
      assert.match(
        verify.text,
        /<span class="badge stop" data-reason="do-not-contact">Do not contact<\/span>/,
      );
      assert.match(verify.text, /on your do-not-contact list/);
      assert.match(verify.text, /<a href="\/app\/do-not-contact">See the list<\/a>/);
      const bad = await member.post("/app/tools/verify", { email: "not an address" });
      assert.match(
        bad.text,
        /<span class="badge stop" data-reason="invalid-syntax">Malformed address<\/span>/,
      );
      assert.match(bad.text, /not a well-formed email address/);
    } finally {
      await env.close();
    }
  },
);

Deno.test(
  "an unknown app address is a page: 404, lang, the way home; the API keeps JSON",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      const anonymous = await env.app.request("/app/anything-else");
      assert.equal(anonymous.status, 404);
      assert.match(anonymous.headers.get("content-type") ?? "", /^text\/html/);
      const page = await anonymous.text();
      assert.match(page, /^<!DOCTYPE html>/);
      assert.match(page, /<html lang="en">/);
      assert.match(page, /<title>Page not found · Contact data<\/title>/);
      assert.match(page, /<a href="\/app">Go to the overview<\/a>/);

      const ws = await createTestWorkspace(env, 10);
      const member = await signedInMember(env, ws.workspaceId);
      const signedIn = await member.get("/app/tools/nope/deeper");
      assert.equal(signedIn.status, 404);
      assert.match(signedIn.text, /<nav class="sidenav" aria-label="Sections">/);
      assert.doesNotMatch(signedIn.text, /aria-current="page"/, "no section is open");
      const posted = await member.post("/app/nope", {});
      assert.equal(posted.status, 404);

      const api = await env.app.request("/api/v1/nope");
      assert.equal(api.status, 404);
      assert.equal((await api.json()).error.code, "not_found");
    } finally {
      await env.close();
    }
  },
);

Deno.test(
  "sign-in: a newcomer is sent to their workspace's owner, not to a command",
  DB_TEST,
  async () => {
    const env = await createTestEnv();
    try {
      const page = await new WebClient(env.app).get("/app/sign-in");
      assert.equal(page.status, 200);
      assert.match(page.text, /Ask the owner of your workspace/);
      assert.doesNotMatch(page.text, /deno task|admin user create/);
      const guide = await Deno.readTextFile(new URL("../docs/web-app.md", import.meta.url));
      assert.match(guide, /task admin user create/, "the command lives in the guide");
    } finally {
      await env.close();
    }
  },
);

Deno.test("operation names: every operation, and a bulk job's lines, read as words", () => {
  for (const operation of OPERATIONS) {
    assert.doesNotMatch(operationName(operation), /[A-Z]\w*[A-Z]|-/);
  }
  assert.equal(operationName("bulk-find"), "Bulk find");
  assert.equal(operationName("bulk-enrich"), "Bulk enrich");
  assert.equal(operationName("domainSearch"), "Domain search", "a price added later reads too");
  assert.equal(operationName("verify"), "Verify email");
  assert.equal(operationName("bulk-verify"), "Bulk verify");
  assert.equal(
    operationName("someNewThing"),
    "Some new thing",
    "an operation added later reads too",
  );
  assert.notEqual(operationColour("bulk-find"), operationColour("never-heard-of"));
});

Deno.test("numbers: a confidence has two decimals, a count agrees with its noun", () => {
  assert.equal(confidence(0.9812345), "0.98");
  assert.equal(confidence(1), "1.00");
  assert.equal(confidence(null), "—");
  assert.equal(count(1, "row"), "1 row");
  assert.equal(count(2, "row"), "2 rows");
  assert.equal(count(10_000, "row"), "10,000 rows");
  assert.equal(count(0, "lead"), "0 leads");
  const csv = namesCsv(["Ada Lovelace"], [{
    data: {
      given: "Ada",
      surname: "Lovelace",
      nickname: null,
      source: "model",
      confidence: 0.9812345,
      bothOrders: false,
    },
  } as never]);
  assert.match(csv, /,model,0\.98,false,/);
  assert.doesNotMatch(csv, /0\.981/);
});
