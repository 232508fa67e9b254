/**
 * The web app's lookup tools (find email in its three modes, network search, enrich email):
 * answered and billed exactly like the API (the same verbs, the same ledger postings), a double
 * submit replays free, provider failures explained and uncharged, validation and insufficient
 * credits refused with the form kept filled, and the `enrich` rate-limit budget shared with
 * `POST /api/v1/enrich/email` both ways. Outside services are small in-process fakes.
 */
import assert from "node:assert/strict";
import { DEFAULT_RATE_LIMITS } from "../domain/config/config.ts";
import type { Ports } from "../domain/context.ts";
import type { VerificationRequest } from "../domain/verify/email_verifier.ts";
import type { ReverseLookupAnswer } from "../domain/providers/reverse_lookup/port.ts";
import type { WebSearchAnswer } from "../domain/providers/web_search/port.ts";
import { readBalance } from "../domain/billing/balance.ts";
import {
  bearer,
  createTestEnv,
  createTestWorkspace,
  DB_TEST,
  type TestEnv,
  type TestEnvOptions,
} from "./harness.ts";
import { FakeNameModel } from "./fake_name_model.ts";
import { signedInMember, type WebResponse } from "./web_client.ts";

async function charges(env: TestEnv, workspaceId: string) {
  const rows = await env.db.sql<{ operation: string; amount: number }[]>`
    SELECT operation, amount::int AS amount FROM ledger_entries
     WHERE workspace_id = ${workspaceId} AND kind = 'charge' ORDER BY id`;
  return rows.map((row) => ({ ...row }));
}

function cost(page: WebResponse) {
  const m =
    /class="tool-cost" data-charged="(\w+)" data-points-charged="(\d+)" data-replay="(\w+)" data-available="(\d+)"/
      .exec(page.text);
  assert.ok(m, "a cost panel");
  return {
    charged: m[1] === "true",
    pointsCharged: Number(m[2]),
    replay: m[3] === "true",
    available: Number(m[4]),
  };
}

const keyOf = (page: WebResponse) => /name="idempotencyKey" value="([^"]+)"/.exec(page.text)![1];

const reasonOf = (page: WebResponse) => /data-reason="([^"]*)"/.exec(page.text)?.[1];

async function api(env: TestEnv, apiKey: string, path: string, body: unknown) {
  const res = await env.app.request(path, {
    method: "POST",
    headers: bearer(apiKey, { "Content-Type": "application/json" }),
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** A mail server that accepts the first candidate; it records what it was asked. */
function acceptingVerifier(asked: VerificationRequest[] = []): Ports["verifier"] {
  return {
    verify: (request) => {
      asked.push(request);
      return Promise.resolve({
        kind: "valid",
        address: request.candidates[0],
        evidence: {
          mxHost: `mx1.${request.domain}`,
          provider: "other",
          smtpCode: 250,
          enhancedStatus: "2.1.5",
          encrypted: true,
          certificateVerified: false,
          checkedAt: "2026-11-23T19:58:15.498Z",
        },
      });
    },
  };
}

const RESOLVER: Ports["companyResolver"] = {
  resolve: (name) =>
    Promise.resolve(
      /acme/i.test(name)
        ? {
          kind: "resolved",
          name: "Acme Corporation",
          domain: "acme.test",
          source: "wikidata:Q42",
        }
        : { kind: "not-found" },
    ),
};

function webSearch(answer: () => WebSearchAnswer): Ports["webSearch"] {
  return { name: "fake", search: () => Promise.resolve(answer()) };
}

const GRACE_RESULT = {
  title: "Grace Hopper - Rear Admiral - Acme | LinkedIn",
  url: "https://www.linkedin.com/in/grace-hopper",
  snippet: "Rear Admiral at Acme · Experience: Acme · Location: Arlington, Virginia",
};

async function envWith(options: TestEnvOptions) {
  return await createTestEnv({ nameModel: new FakeNameModel(), ...options });
}

Deno.test("tools: find email in its three modes, billed like the API", DB_TEST, async (t) => {
  const asked: VerificationRequest[] = [];
  const env = await envWith({
    ports: { verifier: acceptingVerifier(asked), companyResolver: RESOLVER },
  });
  try {
    const ws = await createTestWorkspace(env, 100);
    const other = await createTestWorkspace(env, 100);
    const member = await signedInMember(env, ws.workspaceId);

    await t.step("email mode: found, evidence, 10 points; a double submit is free", async () => {
      const form = await member.get("/app/tools/find");
      const key = keyOf(form);
      const fields = {
        idempotencyKey: key,
        mode: "email",
        name: "Grace Hopper",
        company: "https://www.acme.test/about",
      };
      const page = await member.post("/app/tools/find", fields);
      assert.equal(page.status, 200);
      assert.match(page.text, /<span class="badge ok">Found<\/span>/);
      assert.match(page.text, /value="grace\.hopper@acme\.test"/);
      assert.match(page.text, /data-copy-target="found-email"/);
      assert.match(
        page.text,
        /Asked the mail server <span class="mono">mx1\.acme\.test<\/span>: reply 250 \(2\.1\.5\), at 2026-11-23 19:58 UTC/,
      );
      assert.match(page.text, /acme\.test<\/span> <span class="muted">\(as you gave it\)/);
      assert.deepEqual(cost(page), {
        charged: true,
        pointsCharged: 10,
        replay: false,
        available: 90,
      });
      // The form keeps what was typed.
      assert.match(
        page.text,
        /name="company" type="text" value="https:\/\/www\.acme\.test\/about"/,
      );

      const again = await member.post("/app/tools/find", fields);
      assert.deepEqual(cost(again), {
        charged: false,
        pointsCharged: 0,
        replay: true,
        available: 90,
      });
      assert.match(again.text, /value="grace\.hopper@acme\.test"/);
      assert.equal(asked.length, 1, "the replay asked no mail server");

      const viaApi = await api(env, other.apiKey, "/api/v1/find", {
        name: "Alan Turing",
        company: "acme.test",
      });
      assert.equal(viaApi.body.data.pointsCharged, 10);
      assert.deepEqual(await charges(env, ws.workspaceId), await charges(env, other.workspaceId));
    });

    await t.step("company mode: the company part and the email part, 12 points", async () => {
      await member.get("/app/tools/find?mode=company");
      const page = await member.post("/app/tools/find", {
        mode: "company",
        name: "Katherine Johnson",
        company: "Acme Inc.",
      });
      assert.equal(page.status, 200);
      assert.match(page.text, /value="katherine\.johnson@acme\.test"/);
      assert.match(page.text, /Acme Corporation, from Wikidata Q42/);
      assert.equal(cost(page).pointsCharged, 12);
      await api(env, other.apiKey, "/api/v1/find", {
        mode: "company",
        name: "Dorothy Vaughan",
        company: "Acme Inc.",
      });
      const ledger = await charges(env, ws.workspaceId);
      assert.deepEqual(ledger, await charges(env, other.workspaceId));
      assert.deepEqual(ledger.slice(1), [
        { operation: "findCompany", amount: 2 },
        { operation: "findEmail", amount: 10 },
      ]);

      const unknown = await member.post("/app/tools/find", {
        mode: "company",
        name: "Katherine Johnson",
        company: "Nowhere Holdings",
      });
      assert.equal(reasonOf(unknown), "company-not-found");
      assert.match(unknown.text, /No web domain was found for this company name/);
      assert.deepEqual(cost(unknown), {
        charged: true,
        pointsCharged: 2,
        replay: false,
        available: 76,
      });
    });

    await t.step("network mode: an unknown profile is explained and free", async () => {
      const prefilled = await member.get(
        "/app/tools/find?mode=network&networkUrl=https%3A%2F%2Fnetwork.example%2Fin%2Fnobody",
      );
      assert.match(prefilled.text, /value="https:\/\/network\.example\/in\/nobody"/);
      const page = await member.post("/app/tools/find", {
        mode: "network",
        networkUrl: "https://network.example/in/nobody",
      });
      assert.equal(page.status, 200);
      assert.equal(reasonOf(page), "profile-not-found");
      assert.match(page.text, /This profile is not known to our directory or the web search/);
      assert.deepEqual(cost(page), {
        charged: false,
        pointsCharged: 0,
        replay: false,
        available: 76,
      });
      assert.match(page.text, /No email search ran, so nothing was charged/);
    });

    await t.step("validation in the page's words, the form kept filled", async () => {
      await member.get("/app/tools/find");
      const notDomain = await member.post("/app/tools/find", {
        mode: "email",
        name: "Grace Hopper",
        company: "Acme Inc",
      });
      assert.equal(notDomain.status, 400);
      assert.match(
        notDomain.text,
        /role="alert">Company must be a domain or website URL in email mode \(for a company’s name, use “Name \+ company name”\)/,
      );
      assert.match(notDomain.text, /value="Acme Inc"/);
      const noName = await member.post("/app/tools/find", {
        mode: "email",
        name: " ",
        company: "acme.test",
      });
      assert.equal(noName.status, 400);
      assert.match(noName.text, /Full name is required in email mode/);
      const badUrl = await member.post("/app/tools/find", {
        mode: "network",
        networkUrl: "ftp://network.example/in/x",
      });
      assert.equal(badUrl.status, 400);
      assert.match(badUrl.text, /Profile URL must be an http\(s\) URL/);
      const tooLong = await member.post("/app/tools/find", {
        mode: "email",
        name: "x".repeat(300),
        company: "acme.test",
      });
      assert.equal(tooLong.status, 400);
      assert.match(tooLong.text, /Full name must be at most 256 characters/);
      assert.equal((await readBalance(env, ws.workspaceId)).available, 76);
    });
  } finally {
    await env.close();
  }
});

Deno.test(
  "tools: find refuses without points and explains a verifier that cannot answer",
  DB_TEST,
  async () => {
    // The default ports: every outside service is unavailable.
    const env = await envWith({});
    try {
      const ws = await createTestWorkspace(env, 11);
      const member = await signedInMember(env, ws.workspaceId);
      await member.get("/app/tools/find");
      const down = await member.post("/app/tools/find", {
        mode: "email",
        name: "Grace Hopper",
        company: "acme.test",
      });
      assert.equal(down.status, 200);
      assert.equal(reasonOf(down), "verification-unavailable");
      assert.match(down.text, /The check could not be made right now/);
      assert.deepEqual(cost(down), {
        charged: false,
        pointsCharged: 0,
        replay: false,
        available: 11,
      });

      const company = await member.post("/app/tools/find", {
        mode: "company",
        name: "Grace Hopper",
        company: "Acme Inc.",
      });
      assert.equal(company.status, 402);
      assert.match(
        company.text,
        /Not enough points\. This needs 12 points and 11 are available\. Nothing was charged\./,
      );
      assert.match(company.text, /value="Acme Inc\."/);
      assert.deepEqual(await charges(env, ws.workspaceId), []);
    } finally {
      await env.close();
    }
  },
);

Deno.test(
  "tools: network search, billed like the API; a failing search is free",
  DB_TEST,
  async () => {
    let answer: WebSearchAnswer = { kind: "results", results: [GRACE_RESULT] };
    const env = await envWith({ ports: { webSearch: webSearch(() => answer) } });
    try {
      const ws = await createTestWorkspace(env, 8);
      const other = await createTestWorkspace(env, 100);
      const member = await signedInMember(env, ws.workspaceId);
      const form = await member.get("/app/tools/network-search");
      const fields = {
        idempotencyKey: keyOf(form),
        firstName: "Grace",
        lastName: "Hopper",
        company: "Acme",
      };
      const page = await member.post("/app/tools/network-search", fields);
      assert.equal(page.status, 200);
      assert.match(page.text, /<span class="badge ok">Match<\/span> Grace Hopper/);
      assert.match(page.text, /Rear Admiral/);
      assert.match(page.text, /Arlington, Virginia/);
      assert.match(
        page.text,
        /href="\/app\/tools\/find\?mode=network&amp;networkUrl=https%3A%2F%2Flinkedin\.com%2Fin%2Fgrace-hopper"/,
      );
      assert.deepEqual(cost(page), {
        charged: true,
        pointsCharged: 5,
        replay: false,
        available: 3,
      });
      assert.deepEqual(cost(await member.post("/app/tools/network-search", fields)), {
        charged: false,
        pointsCharged: 0,
        replay: true,
        available: 3,
      });
      const viaApi = await api(env, other.apiKey, "/api/v1/network-search", {
        firstName: "Grace",
        lastName: "Hopper",
      });
      assert.equal(viaApi.body.data.pointsCharged, 5);
      assert.deepEqual(await charges(env, ws.workspaceId), await charges(env, other.workspaceId));

      await grantPointsTo(env, ws.workspaceId, 6);
      answer = { kind: "unavailable", why: "rate-limited" };
      const down = await member.post("/app/tools/network-search", {
        firstName: "Alan",
        lastName: "Turing",
        company: "",
      });
      assert.equal(down.status, 200);
      assert.equal(reasonOf(down), "search-unavailable");
      assert.match(down.text, /The web search could not answer right now/);
      assert.deepEqual(cost(down), {
        charged: false,
        pointsCharged: 0,
        replay: false,
        available: 9,
      });

      answer = { kind: "results", results: [] };
      const none = await member.post("/app/tools/network-search", {
        firstName: "Alan",
        lastName: "Turing",
      });
      assert.match(none.text, /<span class="badge bad">No match<\/span>/);
      assert.match(none.text, /No profile matched this name/);
      assert.equal(cost(none).pointsCharged, 5);

      const blank = await member.post("/app/tools/network-search", {
        firstName: " ",
        lastName: "Turing",
      });
      assert.equal(blank.status, 400);
      assert.match(blank.text, /First name must not be blank/);
      assert.match(blank.text, /name="lastName" type="text" value="Turing"/);

      const broke = await member.post("/app/tools/network-search", {
        firstName: "Ada",
        lastName: "Lovelace",
      });
      assert.equal(broke.status, 402);
      assert.match(broke.text, /This needs 5 points and 4 are available/);
      assert.equal((await charges(env, ws.workspaceId)).length, 2);
    } finally {
      await env.close();
    }
  },
);

async function grantPointsTo(env: TestEnv, workspaceId: string, points: number) {
  const { grantPoints } = await import("../domain/billing/grant_points.ts");
  await grantPoints(env, { workspaceId, points });
}

Deno.test("tools: enrich email, billed like the API; failures are free", DB_TEST, async () => {
  let gravatar: ReverseLookupAnswer = {
    kind: "found",
    fields: {
      name: "Grace Hopper",
      title: "Rear Admiral",
      location: "Arlington, Virginia",
      profileUrl: "https://gravatar.example/grace",
      x: "gracehopper",
    },
  };
  const env = await envWith({
    ports: {
      reverseLookups: [{ source: "gravatar", lookup: () => Promise.resolve(gravatar) }],
    },
  });
  try {
    const ws = await createTestWorkspace(env, 100);
    const other = await createTestWorkspace(env, 100);
    const member = await signedInMember(env, ws.workspaceId);
    const form = await member.get("/app/tools/enrich");
    const fields = { idempotencyKey: keyOf(form), email: " Grace.Hopper@Acme.test " };
    const page = await member.post("/app/tools/enrich", fields);
    assert.equal(page.status, 200);
    assert.match(page.text, /<span class="badge ok">Found<\/span>/);
    assert.match(page.text, /grace\.hopper@acme\.test/);
    assert.match(page.text, /Rear Admiral/);
    assert.match(page.text, /X @gracehopper/);
    assert.match(page.text, /<table class="tool-sources">/);
    assert.match(
      page.text,
      /<td class="tool-strong">gravatar<\/td><td>name, title, location, X<\/td>/,
    );
    assert.match(page.text, /work address/);
    assert.deepEqual(cost(page), {
      charged: true,
      pointsCharged: 10,
      replay: false,
      available: 90,
    });
    assert.equal(cost(await member.post("/app/tools/enrich", fields)).replay, true);
    const viaApi = await api(env, other.apiKey, "/api/v1/enrich/email", {
      email: "alan.turing@acme.test",
    });
    assert.equal(viaApi.body.data.pointsCharged, 10);
    assert.deepEqual(await charges(env, ws.workspaceId), await charges(env, other.workspaceId));

    gravatar = { kind: "unavailable", why: "timeout" };
    const down = await member.post("/app/tools/enrich", { email: "ada@acme.test" });
    assert.equal(down.status, 200);
    assert.equal(reasonOf(down), "source-timeout");
    assert.match(down.text, /did not answer in time/);
    assert.deepEqual(cost(down), {
      charged: false,
      pointsCharged: 0,
      replay: false,
      available: 90,
    });

    const malformed = await member.post("/app/tools/enrich", { email: "not-an-address" });
    assert.equal(reasonOf(malformed), "invalid-input");
    assert.match(malformed.text, /not a well-formed email address/);
    assert.equal(cost(malformed).charged, false);

    const blank = await member.post("/app/tools/enrich", { email: "  " });
    assert.equal(blank.status, 400);
    assert.match(blank.text, /Email address must not be blank/);
    const long = await member.post("/app/tools/enrich", { email: `${"a".repeat(320)}@acme.test` });
    assert.equal(long.status, 400);
    assert.match(long.text, /Email address must be at most 320 characters/);
    assert.equal((await charges(env, ws.workspaceId)).length, 1);
  } finally {
    await env.close();
  }
});

Deno.test(
  "tools: the enrich tool and the API share one `enrich` rate-limit budget, both ways",
  DB_TEST,
  async () => {
    const env = await envWith({
      config: { rateLimits: { ...DEFAULT_RATE_LIMITS, enrich: { limit: 3, windowSeconds: 60 } } },
      ports: {
        reverseLookups: [{
          source: "gravatar",
          lookup: () => Promise.resolve({ kind: "not-found" } as const),
        }],
      },
    });
    try {
      // Start the test at the beginning of a window, so one window holds each half.
      env.clock.advance(60_000 - (env.clock.now() % 60_000));
      const ws = await createTestWorkspace(env, 1000);
      const member = await signedInMember(env, ws.workspaceId);
      await member.get("/app/tools/enrich");
      const tool = (email: string) => member.post("/app/tools/enrich", { email });
      const viaApi = (email: string) => api(env, ws.apiKey, "/api/v1/enrich/email", { email });

      // Three API calls spend the budget: the tool is refused, uncharged, form kept.
      for (let i = 0; i < 3; i++) assert.equal((await viaApi(`api${i}@acme.test`)).status, 200);
      const refused = await tool("tool@acme.test");
      assert.equal(refused.status, 429);
      assert.match(refused.headers.get("retry-after") ?? "", /^\d+$/);
      assert.match(
        refused.text,
        /the API and the app share the limit\). Try again in \d+ seconds?/,
      );
      assert.match(refused.text, /value="tool@acme\.test"/);
      assert.equal((await charges(env, ws.workspaceId)).length, 3);

      // The next window: three tool uses spend it, and the API is refused.
      env.clock.advance(60_000);
      for (let i = 0; i < 3; i++) {
        const page = await tool(`tool${i}@acme.test`);
        assert.equal(page.status, 200);
        assert.equal(reasonOf(page), "not-found");
      }
      const apiRefused = await viaApi("api9@acme.test");
      assert.equal(apiRefused.status, 429);
      assert.equal(apiRefused.body.error.code, "rate_limited");
      assert.equal((await charges(env, ws.workspaceId)).length, 6);
    } finally {
      await env.close();
    }
  },
);
