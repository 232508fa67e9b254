/**
 * `/app/domain-search`: a domain in, the pattern and the people out, billed as the API call is;
 * "find the rest" starts a bulk find job for the people without a verified address.
 */
import assert from "node:assert/strict";
import { importPeople } from "../domain/directory/import_people.ts";
import { countCharges, createTestEnv, createTestWorkspace, DB_TEST } from "./harness.ts";
import { recordOf } from "./find_world.ts";
import { signedInMember, type WebResponse } from "./web_client.ts";

const DAY = 86_400_000;

/** The fields of the first form of a page whose HTML contains `marker` (inputs only). */
function formWith(html: string, marker: string): Record<string, string> {
  const form = [...html.matchAll(/<form[\s\S]*?<\/form>/g)].map((m) => m[0])
    .find((f) => f.includes(marker));
  assert.ok(form, `a form with ${marker}`);
  const fields: Record<string, string> = {};
  for (const [, attributes] of form.matchAll(/<input([^>]*)>/g)) {
    if (/type="checkbox"/.test(attributes)) continue;
    const name = /name="([^"]*)"/.exec(attributes)?.[1];
    const value = /value="([^"]*)"/.exec(attributes)?.[1];
    if (name) fields[name] = value ?? "";
  }
  return fields;
}

function charged(page: WebResponse): number {
  const m = /data-points-charged="(\d+)"/.exec(page.text);
  assert.ok(m, "a cost panel");
  return Number(m[1]);
}

Deno.test("app domain search: pattern, people, billing, find the rest", DB_TEST, async () => {
  const env = await createTestEnv();
  try {
    const now = env.clock.now();
    const person = (name: string, address: string | null) =>
      recordOf({
        name,
        given: name.split(" ")[0],
        surname: name.split(" ")[1],
        title: "Software Engineer",
        seniority: "senior",
        companyName: "Pattern Works",
        companyDomain: "pattern.test",
        emails: address
          ? [{ address, status: "valid", verifiedAt: new Date(now - DAY).toISOString() }]
          : [],
      });
    await importPeople(env, [
      person("Ada Lovelace", "ada.lovelace@pattern.test"),
      person("Alan Turing", "alan.turing@pattern.test"),
      person("Grace Hopper", "grace.hopper@pattern.test"),
      person("Edsger Dijkstra", null),
      person("Barbara Liskov", null),
    ]);
    const ws = await createTestWorkspace(env, 1000);
    const member = await signedInMember(env, ws.workspaceId);

    const blank = await member.get("/app/domain-search");
    assert.equal(blank.status, 200);
    assert.match(blank.text, /href="\/app\/domain-search"[^>]*aria-current="page"/);

    const form = formWith(blank.text, 'action="/app/domain-search"');
    const page = await member.post("/app/domain-search", { ...form, company: "pattern.test" });
    assert.equal(page.status, 200, page.text);
    assert.match(page.text, /data-pattern="first.last"/);
    assert.match(page.text, /\{first\}\.\{last\}/);
    assert.equal([...page.text.matchAll(/<tr data-person/g)].length, 5);
    assert.match(page.text, /ada\.lovelace@pattern\.test/);
    assert.equal(charged(page), env.ctx.prices.domainSearch);
    assert.equal(await countCharges(env, ws.workspaceId), 1);

    // Find the rest: a bulk find job for the two without an address.
    const rest = formWith(page.text, 'data-form="find-the-rest"');
    const started = await member.post("/app/domain-search/find-the-rest", rest);
    assert.equal(started.status, 303, started.text);
    assert.match(started.location ?? "", /^\/app\/bulk\/jobs\//);
    const rows = await env.db.sql<{ input: { name: string; domain: string } }[]>`
      SELECT r.input FROM bulk_job_rows r JOIN bulk_jobs j ON j.id = r.job_id
       WHERE j.workspace_id = ${ws.workspaceId} ORDER BY r.input->>'name'`;
    assert.deepEqual(
      rows.map((r) => [r.input.name, r.input.domain]),
      [["Barbara Liskov", "pattern.test"], ["Edsger Dijkstra", "pattern.test"]],
    );
  } finally {
    await env.close();
  }
});
