/**
 * The web app's tools index and name-parse tool (`/app/tools…`): answered and billed exactly like
 * the API (the same verbs: the ledger says so), a double submit is a free replay, the list's CSV
 * download is a free replay too (recomputed, never stored), refusals keep the form filled with
 * the right status, CSRF, and privacy: names typed into the tool reach no table, log or KV entry.
 */
import assert from "node:assert/strict";
import { DEFAULT_PRICES, DEFAULT_RATE_LIMITS } from "../domain/config/config.ts";
import { readBalance } from "../domain/billing/balance.ts";
import { bearer, createTestEnv, createTestWorkspace, DB_TEST, type TestEnv } from "./harness.ts";
import { FakeNameModel } from "./fake_name_model.ts";
import { OutsideLink } from "../routes/app/tools/tool_call.tsx";
import { signedInMember, type WebResponse } from "./web_client.ts";
import { readCsv } from "./csv.ts";

/** The charge postings of a workspace, oldest first. */
async function charges(env: TestEnv, workspaceId: string) {
  const rows = await env.db.sql<{ operation: string; amount: number; units: number }[]>`
    SELECT operation, amount::int AS amount, units FROM ledger_entries
     WHERE workspace_id = ${workspaceId} AND kind = 'charge' ORDER BY id`;
  return rows.map((row) => ({ ...row }));
}

const unescape = (s: string) =>
  s.replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">").replaceAll("&amp;", "&");

/** The fields of the first form of a page whose HTML contains `marker`. */
function formWith(html: string, marker: string): Record<string, string> {
  const form = [...html.matchAll(/<form[\s\S]*?<\/form>/g)].map((m) => m[0])
    .find((f) => f.includes(marker));
  assert.ok(form, `a form with ${marker}`);
  const fields: Record<string, string> = {};
  for (const [, attributes] of form.matchAll(/<input([^>]*)>/g)) {
    const name = /name="([^"]*)"/.exec(attributes)?.[1];
    const value = /value="([^"]*)"/.exec(attributes)?.[1];
    if (name) fields[name] = unescape(value ?? "");
  }
  for (
    const [, name, text] of form.matchAll(
      /<textarea[^>]*name="([^"]*)"[^>]*>([\s\S]*?)<\/textarea>/g,
    )
  ) {
    // As a browser reads it: one line break right after the tag is dropped.
    fields[name] = unescape(text.replace(/^\r?\n/, ""));
  }
  return fields;
}

/** What the cost panel says: points charged, charged, replay, available after. */
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

async function api(env: TestEnv, apiKey: string, path: string, body: unknown, key?: string) {
  const res = await env.app.request(path, {
    method: "POST",
    headers: bearer(apiKey, {
      "Content-Type": "application/json",
      ...(key ? { "Idempotency-Key": key } : {}),
    }),
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

Deno.test("tools: the index names the four tools with their live prices", DB_TEST, async () => {
  const prices = { ...DEFAULT_PRICES, nameParse: 3, findEmail: 17, findCompany: 4 };
  const env = await createTestEnv({ config: { prices } });
  try {
    const ws = await createTestWorkspace(env, 321);
    const member = await signedInMember(env, ws.workspaceId);
    const page = await member.get("/app/tools");
    assert.equal(page.status, 200);
    for (const path of ["name-parse", "find", "network-search", "enrich"]) {
      assert.match(page.text, new RegExp(`href="/app/tools/${path}"`));
    }
    assert.match(page.text, /3 points per name/);
    assert.match(page.text, /17 points per lookup, 4 more by company name/);
    assert.match(page.text, /5 points per search/);
    assert.match(page.text, /10 points per address/);
    assert.match(page.text, /<strong>321<\/strong> points available/);
    // Every tool page renders for a member; strangers are sent to sign in.
    for (const path of ["name-parse", "name-parse/list", "find", "network-search", "enrich"]) {
      const tool = await member.get(`/app/tools/${path}`);
      assert.equal(tool.status, 200, path);
      assert.match(tool.text, /name="idempotencyKey" value="app-[0-9a-f-]{36}"/, path);
    }
    const stranger = await env.app.request("/app/tools/find", { redirect: "manual" });
    assert.equal(stranger.status, 303);
  } finally {
    await env.close();
  }
});

Deno.test(
  "tools: one name is billed like the API; a double submit replays free",
  DB_TEST,
  async () => {
    const env = await createTestEnv({ nameModel: new FakeNameModel() });
    try {
      const ws = await createTestWorkspace(env, 100);
      const member = await signedInMember(env, ws.workspaceId);
      const form = formWith((await member.get("/app/tools/name-parse")).text, "Split the name");
      const key = form.idempotencyKey;

      const first = await member.post("/app/tools/name-parse", {
        ...form,
        name: "Dr. Grace Brewster Hopper",
      });
      assert.equal(first.status, 200);
      assert.match(first.text, /Given name<\/dt><dd class="tool-strong">Grace Brewster<\/dd>/);
      assert.match(first.text, /Surname<\/dt><dd class="tool-strong">Hopper<\/dd>/);
      assert.match(first.text, /The name model/);
      assert.deepEqual(cost(first), {
        charged: true,
        pointsCharged: 1,
        replay: false,
        available: 99,
      });
      // The form stays filled, with a new key: an edited resubmission is a new request.
      const after = formWith(first.text, "Split the name");
      assert.equal(after.name, "Dr. Grace Brewster Hopper");
      assert.notEqual(after.idempotencyKey, key);

      // The same rendered form again (a double click, a reload): a replay, free.
      const again = await member.post("/app/tools/name-parse", {
        ...form,
        name: "Dr. Grace Brewster Hopper",
      });
      assert.equal(again.status, 200);
      assert.deepEqual(cost(again), {
        charged: false,
        pointsCharged: 0,
        replay: true,
        available: 99,
      });
      assert.match(again.text, /Grace Brewster/);

      // The API charges the same for the same name.
      const other = await createTestWorkspace(env, 100);
      const viaApi = await api(env, other.apiKey, "/api/v1/name/parse", {
        name: "Dr. Grace Brewster Hopper",
      });
      assert.equal(viaApi.body.data.given, "Grace Brewster");
      assert.deepEqual(await charges(env, ws.workspaceId), await charges(env, other.workspaceId));
      assert.deepEqual(await charges(env, ws.workspaceId), [
        { operation: "nameParse", amount: 1, units: 1 },
      ]);
      assert.equal((await readBalance(env, ws.workspaceId)).available, 99);

      // The same key for another name: the form is renewed, nothing charged.
      const conflict = await member.post("/app/tools/name-parse", {
        ...form,
        name: "Ada Lovelace",
      });
      assert.equal(conflict.status, 409);
      assert.match(conflict.text, /already used for a different request/);
      assert.notEqual(formWith(conflict.text, "Split the name").idempotencyKey, key);
      assert.equal((await charges(env, ws.workspaceId)).length, 1);
    } finally {
      await env.close();
    }
  },
);

Deno.test(
  "tools: refusals keep the form filled, with the right status, and charge nothing",
  DB_TEST,
  async () => {
    const env = await createTestEnv({
      nameModel: new FakeNameModel(),
      config: {
        rateLimits: { ...DEFAULT_RATE_LIMITS, name_parse: { limit: 8, windowSeconds: 60 } },
      },
    });
    try {
      const ws = await createTestWorkspace(env, 1);
      const member = await signedInMember(env, ws.workspaceId);
      await member.get("/app/tools/name-parse");
      const one = (name: string) => member.post("/app/tools/name-parse", { name });

      const blank = await one("   ");
      assert.equal(blank.status, 400);
      assert.match(blank.text, /role="alert">Name must not be blank/);
      const long = "Averylongname ".repeat(20);
      const tooLong = await one(long);
      assert.equal(tooLong.status, 400);
      assert.match(tooLong.text, /Name must be at most 256 characters/);
      assert.equal(formWith(tooLong.text, "Split the name").name, long);
      const unsplittable = await one("Andrew");
      assert.equal(unsplittable.status, 400);
      assert.match(unsplittable.text, /cannot be split into a given name and a surname/);
      const spelling = await member.post("/app/tools/name-parse", {
        name: "Ada Lovelace",
        spelling: "loud",
      });
      assert.equal(spelling.status, 400);
      assert.match(spelling.text, /Spelling must be as-written or folded/);
      assert.equal((await charges(env, ws.workspaceId)).length, 0);

      // One point: one name, then not enough.
      assert.equal((await one("Ada Lovelace")).status, 200);
      const broke = await one("Grace Hopper");
      assert.equal(broke.status, 402);
      assert.match(
        broke.text,
        /Not enough points\. This needs 1 points and 0 are available\. Nothing was charged\./,
      );
      assert.equal(formWith(broke.text, "Split the name").name, "Grace Hopper");

      // The list: empty, too many, not enough points.
      await member.get("/app/tools/name-parse/list");
      const list = (names: string) => member.post("/app/tools/name-parse/list", { names });
      const empty = await list("\n  \n");
      assert.equal(empty.status, 400);
      assert.match(empty.text, /The list must contain at least one name/);
      const many = Array.from({ length: 101 }, (_, i) => `Person${i} Family${i}`).join("\n");
      const tooMany = await list(many);
      assert.equal(tooMany.status, 400);
      assert.match(tooMany.text, /The list must contain at most 100 names/);
      assert.match(tooMany.text, /Person100 Family100<\/textarea>/);
      const unpaid = await list("Ada Lovelace\nGrace Hopper");
      assert.equal(unpaid.status, 402);
      assert.match(unpaid.text, /This needs 2 points and 0 are available/);
      assert.equal((await charges(env, ws.workspaceId)).length, 1);

      // The rate limit: the page says how long to wait, with Retry-After.
      let limited: WebResponse | null = null;
      for (let i = 0; i < 10 && !limited; i++) {
        const res = await one("Ada Lovelace");
        if (res.status === 429) limited = res;
      }
      assert.ok(limited, "the name_parse budget runs out");
      assert.match(limited.headers.get("retry-after") ?? "", /^\d+$/);
      assert.match(limited.text, /Try again in \d+ seconds?\. Nothing was charged\./);
      assert.equal(formWith(limited.text, "Split the name").name, "Ada Lovelace");
    } finally {
      await env.close();
    }
  },
);

Deno.test("tools: a POST without the session's CSRF token is refused 403", DB_TEST, async () => {
  const env = await createTestEnv({ nameModel: new FakeNameModel() });
  try {
    const ws = await createTestWorkspace(env, 100);
    const member = await signedInMember(env, ws.workspaceId);
    const cases: [string, Record<string, string>][] = [
      ["/app/tools/name-parse", { name: "Ada Lovelace" }],
      ["/app/tools/name-parse/list", { names: "Ada Lovelace", format: "csv" }],
      ["/app/tools/find", { name: "Ada Lovelace", company: "acme.test" }],
      ["/app/tools/network-search", { firstName: "Ada", lastName: "Lovelace" }],
      ["/app/tools/enrich", { email: "ada@acme.test" }],
    ];
    for (const [path, fields] of cases) {
      assert.equal((await member.post(path, { ...fields, _csrf: "" })).status, 403, path);
      assert.equal((await member.post(path, { ...fields, _csrf: "forged" })).status, 403, path);
    }
    assert.equal((await charges(env, ws.workspaceId)).length, 0);
  } finally {
    await env.close();
  }
});

Deno.test(
  "tools: a list of names is billed per answered row like the API; the CSV download is a free replay",
  DB_TEST,
  async () => {
    const env = await createTestEnv({ nameModel: new FakeNameModel() });
    try {
      const ws = await createTestWorkspace(env, 100);
      const member = await signedInMember(env, ws.workspaceId);
      const names = [
        "Ada Lovelace",
        "García Márquez, Gabriel",
        'Grace "Amazing" Hopper',
        "Andrew", // cannot be split: free
        "x".repeat(257), // too long: free
        "Nagy László",
      ];
      const pasted = ["", ...names.slice(0, 3), "   ", ...names.slice(3), ""].join("\r\n");
      const form = formWith((await member.get("/app/tools/name-parse/list")).text, "names");
      const page = await member.post("/app/tools/name-parse/list", { ...form, names: pasted });
      assert.equal(page.status, 200);
      assert.deepEqual(cost(page), {
        charged: true,
        pointsCharged: 4,
        replay: false,
        available: 96,
      });
      assert.match(page.text, /4 of 6 names answered, 2 not \(free\)/);
      assert.match(page.text, /<div class="table-wrap"><table class="tool-names">/);
      assert.match(page.text, /cannot be split into a given name and a surname/);
      assert.match(page.text, /name must be at most 256 characters/);
      assert.equal(formWith(page.text, "Split the names").names, pasted);

      // The same list through the API: the same rows, the same charge.
      const other = await createTestWorkspace(env, 100);
      const viaApi = await api(
        env,
        other.apiKey,
        "/api/v1/name/parse/batch",
        { names },
        "api-batch-1",
      );
      assert.equal(viaApi.status, 200);
      assert.equal(viaApi.body.data.pointsCharged, 4);
      const ledger = await charges(env, ws.workspaceId);
      assert.deepEqual(ledger, await charges(env, other.workspaceId));
      assert.deepEqual(ledger, [{ operation: "nameParse", amount: 4, units: 4 }]);

      // The download: the same key, the names from the page's hidden field, format=csv.
      const download = formWith(page.text, 'name="format" value="csv"');
      assert.equal(download.idempotencyKey, form.idempotencyKey);
      assert.equal(download.names, names.join("\n"));
      const csv = await member.post("/app/tools/name-parse/list", download);
      assert.equal(csv.status, 200);
      assert.equal(csv.headers.get("content-type"), "text/csv; charset=utf-8; header=present");
      assert.equal(
        csv.headers.get("content-disposition"),
        'attachment; filename="names.csv"',
      );
      assert.equal(csv.headers.get("cache-control"), "no-store");
      assert.ok(csv.text.startsWith("\uFEFF"), "UTF-8 with a byte-order mark");
      assert.ok(csv.text.endsWith("\r\n"), "the file ends with CRLF");
      const rows = readCsv(csv.text.slice(1));
      assert.deepEqual(rows[0], [
        "name",
        "given",
        "surname",
        "nickname",
        "source",
        "confidence",
        "bothOrders",
        "error",
      ]);
      assert.equal(rows.length, names.length + 1);
      const apiRows = viaApi.body.data.results as (
        | { data: Record<string, unknown> }
        | { error: { message: string } }
      )[];
      apiRows.forEach((result, i) => {
        const expected = "data" in result
          ? [
            names[i],
            result.data.given,
            result.data.surname,
            result.data.nickname ?? "",
            result.data.source,
            // To two decimals, as every page of the app writes a confidence.
            (result.data.confidence as number).toFixed(2),
            String(result.data.bothOrders),
            "",
          ]
          : [names[i], "", "", "", "", "", "", result.error.message];
        assert.deepEqual(rows[i + 1], expected, `row ${i + 1}`);
      });
      // Quoting: a comma and a double quote survive the round trip.
      assert.match(csv.text, /\r\n"García Márquez, Gabriel",/);
      assert.match(csv.text, /\r\n"Grace ""Amazing"" Hopper",Grace Amazing,Hopper,Amazing,/);

      // Nothing more was charged, and the balance did not move.
      assert.deepEqual(await charges(env, ws.workspaceId), ledger);
      assert.equal((await readBalance(env, ws.workspaceId)).available, 96);

      // A second download, and a reload of the answered form: free as well.
      assert.equal((await member.post("/app/tools/name-parse/list", download)).status, 200);
      const reload = await member.post("/app/tools/name-parse/list", { ...form, names: pasted });
      assert.deepEqual(cost(reload), {
        charged: false,
        pointsCharged: 0,
        replay: true,
        available: 96,
      });
      assert.deepEqual(await charges(env, ws.workspaceId), ledger);
    } finally {
      await env.close();
    }
  },
);

const TOKENS = ["Zorblattine", "Quixwhistleton", "Vantreeckenbergh", "Xylophanesse", "Glimmerdrax"];

Deno.test(
  "tools: names typed into the name tool reach no table, log line or KV entry",
  DB_TEST,
  async () => {
    const env = await createTestEnv({ nameModel: new FakeNameModel() });
    try {
      const ws = await createTestWorkspace(env, 100);
      const member = await signedInMember(env, ws.workspaceId, "privacy-control@example.com");
      const single = formWith((await member.get("/app/tools/name-parse")).text, "Split the name");
      const one = await member.post("/app/tools/name-parse", {
        ...single,
        name: `Dr. ${TOKENS[0]} ${TOKENS[1]}`,
      });
      assert.equal(one.status, 200);
      assert.equal(
        (await member.post("/app/tools/name-parse", {
          ...single,
          name: `Dr. ${TOKENS[0]} ${TOKENS[1]}`,
        })).status,
        200,
      );
      assert.equal((await member.post("/app/tools/name-parse", { name: TOKENS[4] })).status, 400);
      assert.equal(
        (await member.post("/app/tools/name-parse", { name: `${TOKENS[4]} `.repeat(30) }))
          .status,
        400,
      );

      const list = formWith((await member.get("/app/tools/name-parse/list")).text, "names");
      const page = await member.post("/app/tools/name-parse/list", {
        ...list,
        names: [`${TOKENS[2]} ${TOKENS[3]}`, TOKENS[4], `${TOKENS[3]}, ${TOKENS[2]}`].join("\n"),
        spelling: "folded",
      });
      assert.equal(page.status, 200);
      const csv = await member.post(
        "/app/tools/name-parse/list",
        formWith(page.text, 'name="format" value="csv"'),
      );
      assert.equal(csv.status, 200);
      assert.match(csv.text, new RegExp(TOKENS[2]));
      assert.equal((await charges(env, ws.workspaceId)).reduce((n, c) => n + c.units, 0), 3);

      const needles = TOKENS.flatMap((t) => [t.toLowerCase()]);
      const found = (haystack: string) =>
        needles.filter((needle) => haystack.toLowerCase().includes(needle));

      const tables = await env.db.sql<{ table_name: string }[]>`
        SELECT table_name FROM information_schema.tables
         WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`;
      assert.ok(tables.length > 5);
      let control = false;
      for (const { table_name } of tables) {
        const rows = await env.db.sql.unsafe<{ row: string }[]>(
          `SELECT to_jsonb(t)::text AS row FROM "${table_name}" t`,
        );
        for (const { row } of rows) {
          assert.deepEqual(found(row), [], `table ${table_name}`);
          control ||= row.includes("privacy-control@example.com");
        }
      }
      // The dump does see what is stored: the member's address is in it.
      assert.ok(control, "the dump reads every table");
      assert.ok(env.logLines.length > 0, "the requests were logged");
      assert.deepEqual(found(env.logLines.join("\n")), [], "logs");
      let entries = 0;
      for await (const entry of env.kv.list({ prefix: [] })) {
        entries++;
        assert.deepEqual(found(Deno.inspect([entry.key, entry.value], { depth: 10 })), [], "KV");
      }
      assert.ok(entries > 0, "the KV holds the rate-limit counters");
    } finally {
      await env.close();
    }
  },
);

Deno.test("tools: a URL from an outside source becomes a link only when it is http(s)", () => {
  assert.equal(
    String(OutsideLink({ href: "https://network.example/in/ada" })),
    '<a href="https://network.example/in/ada" rel="noreferrer noopener" class="tool-url">https://network.example/in/ada</a>',
  );
  assert.equal(
    String(OutsideLink({ href: "javascript:alert(1)" })),
    '<span class="tool-url">javascript:alert(1)</span>',
  );
});
