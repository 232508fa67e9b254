/**
 * The service-wide suppression list in address verification and domain search (docs/privacy.md):
 * after `privacy erase --email x`, `POST /api/v1/verify` of x and a bulk verify row of x answer
 * `do-not-contact`, unbilled, and the verification cache holds no verdict on x; a replay of a
 * verify under an earlier key answers `do-not-contact` once the address is suppressed. A person
 * the list names (by address, or by name at the domain) whose record came back by a path that
 * does not check the list is neither shown nor counted by domain search, and their address is
 * not billed. Runs on embedded PGlite, or on the Postgres named by TEST_DATABASE_URL.
 */
import assert from "node:assert/strict";
import { importPeople } from "../domain/directory/import_people.ts";
import { runBulkJob } from "../domain/bulk/run_bulk_job.ts";
import { erasePerson } from "../domain/privacy/erase_person.ts";
import { resultCacheKeyOf } from "../domain/lookups/result_cache.ts";
import { VERIFY_SCOPE } from "../domain/verify_email/lookup_verification.ts";
import { bearer, createTestWorkspace, DB_TEST, lookupCaller, type TestEnv } from "./harness.ts";
import { pointsSpent, recordOf, startWorld, WORLD_PRICES } from "./find_world.ts";

const GRACE = "grace.hopper@acme.test";
const LINUS = "ltorvalds@acme.test";

async function bulkVerify(env: TestEnv, apiKey: string, key: string, email: string) {
  const res = await env.app.request("/api/v1/bulk/jobs", {
    method: "POST",
    headers: bearer(apiKey, { "content-type": "application/json", "idempotency-key": key }),
    body: JSON.stringify({ operation: "verify", rows: [{ email }] }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  const jobId = (await res.json()).data.job.id as string;
  await runBulkJob(env.ctx, { jobId });
  const results = await env.app.request(`/api/v1/bulk/jobs/${jobId}/results?format=jsonl`, {
    headers: bearer(apiKey),
  });
  const [row] = (await results.text()).trim().split("\n").map((l) => JSON.parse(l));
  return row;
}

Deno.test("verify: a suppressed address is do-not-contact, never billed", DB_TEST, async (t) => {
  const world = await startWorld();
  const { env } = world;
  try {
    const ws = await createTestWorkspace(env, 1000);
    const verify = lookupCaller(env, ws.apiKey, "/api/v1/verify");
    const verdictKey = (email: string) =>
      resultCacheKeyOf(env.ctx.fingerprint, VERIFY_SCOPE, { email });

    await t.step("before: a verdict, billed, cached", async () => {
      const { data, text } = await verify({ email: GRACE }, "v-1");
      assert.equal(data.status, "valid", text);
      assert.equal(data.charged, true);
      const bulk = await bulkVerify(env, ws.apiKey, "bulk-1", GRACE);
      assert.equal(bulk.answer.status, "valid", JSON.stringify(bulk));
      assert.equal(bulk.cost, WORLD_PRICES.verify);
      assert.ok((await env.kv.get(verdictKey(GRACE))).value, "the verdict is cached");
    });

    await t.step("erase --email: the cached verdict goes too", async () => {
      const report = await erasePerson(env.ctx, { email: GRACE, actor: { kind: "cli" } });
      assert.ok(report.removed.cacheEntries >= 1, JSON.stringify(report));
      assert.equal((await env.kv.get(verdictKey(GRACE))).value, null);
    });

    await t.step("after: verify and a bulk verify row answer do-not-contact, free", async () => {
      const spent = await pointsSpent(env, ws.workspaceId);
      for (const email of [GRACE, " Grace.Hopper@ACME.test ", "grace.hopper+news@acme.test"]) {
        const { status, data, text } = await verify({ email });
        assert.equal(status, 200);
        assert.equal(data.status, "unknown", text);
        assert.equal(data.reason, "do-not-contact", text);
        assert.equal(data.charged, false);
        assert.equal(data.pointsCharged, 0);
        assert.equal(data.cached, false);
        assert.equal(data.verification, null);
      }
      const row = await bulkVerify(env, ws.apiKey, "bulk-2", GRACE);
      assert.equal(row.answer.status, "unknown", JSON.stringify(row));
      assert.equal(row.answer.reason, "do-not-contact");
      assert.equal(row.cost, 0);
      assert.equal(await pointsSpent(env, ws.workspaceId), spent);
    });

    await t.step("a replay under an earlier key answers do-not-contact once listed", async () => {
      const first = await verify({ email: LINUS }, "v-2");
      assert.equal(first.data.status, "valid", first.text);
      const spent = await pointsSpent(env, ws.workspaceId);
      // Suppressed by a path that leaves the stored answer (as the list may grow any way).
      const keys = env.ctx.personKeys.of({ emails: [LINUS] });
      for (const key of keys) {
        await env.db.sql`
          INSERT INTO suppressions (fingerprint, kind) VALUES (${key.fingerprint}, ${key.kind})`;
      }
      const replay = await verify({ email: LINUS }, "v-2");
      assert.equal(replay.data.reason, "do-not-contact", replay.text);
      assert.equal(replay.data.status, "unknown");
      assert.equal(replay.data.charged, false);
      assert.equal(await pointsSpent(env, ws.workspaceId), spent);
    });
  } finally {
    await world.close();
  }
});

Deno.test(
  "domain search: a suppressed person is neither shown, counted, nor billed",
  DB_TEST,
  async (t) => {
    const world = await startWorld();
    const { env } = world;
    const verifiedAt = new Date(env.clock.now() - 86_400_000).toISOString();
    const person = (name: string, address: string | null, url?: string) =>
      recordOf({
        name,
        given: name.split(" ")[0],
        surname: name.split(" ")[1],
        title: "Engineer",
        companyName: "Acme",
        companyDomain: "acme.test",
        ...(url ? { networkUrl: url } : {}),
        emails: address ? [{ address, status: "valid", verifiedAt }] : [],
      });
    const grace = person("Grace Hopper", GRACE, "https://www.linkedin.com/in/grace-hopper");
    const alan = person("Alan Turing", "alan.turing@acme.test");
    const ada = person("Ada Lovelace", null);
    try {
      const ws = await createTestWorkspace(env, 1000);
      const search = lookupCaller(env, ws.apiKey, "/api/v1/domain-search");
      const count = async () => {
        const res = await env.app.request("/api/v1/domain-search/count?domain=acme.test", {
          headers: bearer(ws.apiKey),
        });
        return (await res.json()).data;
      };
      const names = (data: { people: { name: string }[] }) => data.people.map((p) => p.name).sort();

      // Suppressed first (an opt-out by address; an erasure by name at the domain), then loaded
      // by a path that does not check the list.
      await erasePerson(env.ctx, { email: GRACE, actor: { kind: "public-page" } });
      await erasePerson(env.ctx, { name: "Alan Turing", domain: "acme.test" });
      await importPeople(env, [grace, alan, ada]);
      const [{ n }] = await env.db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM people`;
      assert.equal(n, 3, "the records are in the directory");

      await t.step("the page, its total and the count leave them out; free", async () => {
        const spent = await pointsSpent(env, ws.workspaceId);
        const { data, text } = await search({ domain: "acme.test" }, "ds-1");
        assert.deepEqual(names(data), ["Ada Lovelace"], text);
        assert.equal(data.total, 1);
        assert.equal(data.pattern, null, "nothing learned from their addresses");
        assert.ok(!text.toLowerCase().includes("hopper"), text);
        assert.ok(!text.toLowerCase().includes("turing"), text);
        assert.equal(data.charged, false, "no address on the page");
        assert.equal(await pointsSpent(env, ws.workspaceId), spent);
        const counted = await count();
        assert.equal(counted.people, 1);
        assert.equal(counted.verifiedEmails, 0);
      });

      await t.step("someone not listed is still shown and billed", async () => {
        await importPeople(
          env,
          [person("Linus Torvalds", LINUS)],
        );
        const { data, text } = await search({ domain: "acme.test" }, "ds-2");
        assert.deepEqual(names(data), ["Ada Lovelace", "Linus Torvalds"], text);
        assert.equal(data.total, 2);
        assert.equal(data.charged, true);
        assert.equal((await count()).verifiedEmails, 1);
      });
    } finally {
      await world.close();
    }
  },
);
