/**
 * A person's rights over their data (docs/privacy.md): after an erasure by address, no operation
 * returns or bills anything about the person (find in each mode, enrich, network search, lead
 * search, bulk jobs, a replay under an earlier Idempotency-Key); a re-import of the same file
 * skips them; a dump of every table holds neither their address nor their name; the export
 * lists what was held with its sources before, and nothing after. Runs on embedded PGlite, or
 * on the Postgres named by TEST_DATABASE_URL.
 */
import assert from "node:assert/strict";
import { importFile } from "../domain/directory/import_file.ts";
import { runLeadSearch } from "../domain/lead_search/run_lead_search.ts";
import { runBulkJob } from "../domain/bulk/run_bulk_job.ts";
import { erasePerson } from "../domain/privacy/erase_person.ts";
import { exportPerson } from "../domain/privacy/export_person.ts";
import { isSuppressed } from "../domain/privacy/is_suppressed.ts";
import { listAuditLog } from "../domain/audit/list_audit_log.ts";
import type { Database } from "../domain/stores/database.ts";
import {
  bearer,
  createTestEnv,
  createTestWorkspace,
  DB_TEST,
  lookupCaller,
  type TestEnv,
} from "./harness.ts";

const ADDRESS = "grace.hopper@acme.test";
const URL_ = "https://www.linkedin.com/in/grace-hopper";

/** Every row of every table, as JSON text (as tests/webhook_secrets_test.ts dumps). */
export async function dumpDatabase(db: Database): Promise<string> {
  const tables = await db.sql<{ name: string }[]>`
    SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`;
  const rows: string[] = [];
  for (const { name } of tables) {
    const found = await db.sql.unsafe<{ row: string }[]>(
      `SELECT row_to_json(t)::text AS row FROM "${name.replaceAll('"', '""')}" t`,
    );
    rows.push(...found.map((r) => r.row));
  }
  return rows.join("\n");
}

/** Every KV entry, as JSON text. */
async function dumpKv(kv: Deno.Kv): Promise<string> {
  const out: string[] = [];
  for await (const entry of kv.list({ prefix: [] })) {
    out.push(JSON.stringify({ key: entry.key, value: entry.value }));
  }
  return out.join("\n");
}

async function writeDirectoryFile(now: number): Promise<string> {
  const path = await Deno.makeTempFile({ suffix: ".jsonl" });
  const verifiedAt = new Date(now - 86_400_000).toISOString();
  const lines = [
    {
      name: "Grace Hopper",
      given: "Grace",
      surname: "Hopper",
      title: "Rear Admiral",
      companyName: "Acme",
      companyDomain: "acme.test",
      location: "Arlington",
      networkUrl: URL_,
      emails: [{ address: ADDRESS, status: "valid", verifiedAt }],
    },
    {
      name: "Ada Lovelace",
      given: "Ada",
      surname: "Lovelace",
      title: "Analyst",
      companyName: "Acme",
      companyDomain: "acme.test",
      networkUrl: "https://www.linkedin.com/in/ada-lovelace",
      emails: [{ address: "ada.lovelace@acme.test", status: "valid", verifiedAt }],
    },
  ];
  await Deno.writeTextFile(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return path;
}

function importDirectory(env: TestEnv, path: string) {
  return importFile(env.ctx, {
    path,
    splitNames: (names) => Promise.resolve(names.map(() => null)),
    network: env.ctx.settings.network,
    progress: () => {},
  });
}

async function spent(env: TestEnv, workspaceId: string): Promise<number> {
  const [row] = await env.db.sql<{ n: number }[]>`
    SELECT coalesce(sum(amount), 0)::int AS n FROM ledger_entries
     WHERE workspace_id = ${workspaceId} AND kind IN ('charge', 'settle')`;
  return row.n;
}

async function leadSearch(env: TestEnv, apiKey: string, key: string) {
  const res = await env.app.request("/api/v1/lead-search", {
    method: "POST",
    headers: bearer(apiKey, { "Content-Type": "application/json", "Idempotency-Key": key }),
    body: JSON.stringify({ count: 10 }),
  });
  const runId = (await res.json()).data.run.id as string;
  await runLeadSearch(env.ctx);
  const polled = await env.app.request(`/api/v1/lead-search/runs/${runId}`, {
    headers: bearer(apiKey),
  });
  return (await polled.json()).data;
}

async function bulkFind(env: TestEnv, apiKey: string, key: string) {
  const res = await env.app.request("/api/v1/bulk/jobs", {
    method: "POST",
    headers: bearer(apiKey, { "content-type": "application/json", "idempotency-key": key }),
    body: JSON.stringify({
      operation: "find",
      rows: [{ name: "Grace Hopper", company: "acme.test" }],
    }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  const jobId = (await res.json()).data.job.id as string;
  await runBulkJob(env.ctx, { jobId });
  const results = await env.app.request(`/api/v1/bulk/jobs/${jobId}/results?format=jsonl`, {
    headers: bearer(apiKey),
  });
  return await results.text();
}

Deno.test(
  "erase --email: every copy gone, nothing returned or billed after",
  DB_TEST,
  async (t) => {
    const env = await createTestEnv();
    const path = await writeDirectoryFile(env.clock.now());
    try {
      const first = await importDirectory(env, path);
      assert.equal(first.created, 2);
      assert.equal(first.suppressed, 0);
      const before = await createTestWorkspace(env, 10_000);
      const find = lookupCaller(env, before.apiKey, "/api/v1/find");
      const enrich = lookupCaller(env, before.apiKey, "/api/v1/enrich/email");
      const search = lookupCaller(env, before.apiKey, "/api/v1/network-search");

      await t.step("before: every operation returns the person, billed", async () => {
        const found = await find({ name: "Grace Hopper", company: "acme.test" }, "find-1");
        assert.equal(found.data.email, ADDRESS, found.text);
        assert.equal(found.data.charged, true);
        const enriched = await enrich({ email: ADDRESS }, "enrich-1");
        assert.equal(enriched.data.found, true, enriched.text);
        assert.equal(enriched.data.person.name, "Grace Hopper");
        const profile = await search(
          { firstName: "Grace", lastName: "Hopper", company: "Acme" },
          "search-1",
        );
        assert.equal(profile.data.matches[0]?.networkUrl, "https://linkedin.com/in/grace-hopper");
        const run = await leadSearch(env, before.apiKey, "leads-1");
        assert.equal(run.deliveredCount, 2);
        assert.match(await bulkFind(env, before.apiKey, "bulk-1"), /grace\.hopper@acme\.test/);
        const held = await exportPerson(env.ctx, { email: ADDRESS });
        assert.equal(held.suppressed, false);
        assert.equal(held.records.length, 1);
        const fields = Object.fromEntries(held.records[0].fields.map((f) => [f.field, f]));
        assert.equal(fields.title.value, "Rear Admiral");
        assert.equal(fields.title.source, "directory");
        assert.deepEqual(held.records[0].emails.map((e) => e.address), [ADDRESS]);
        assert.equal(held.records[0].emails[0].source, "import");
        assert.equal(held.records[0].leadSearchDeliveries.length, 1);
      });

      await t.step("erase: suppressed, and what was removed by kind and count", async () => {
        const report = await erasePerson(env.ctx, {
          email: " Grace.Hopper@ACME.test ",
          actor: { kind: "cli" },
        });
        assert.match(report.erasureId, /^era_/);
        assert.ok(report.suppressed >= 3, "address, profile URL and name at the domain");
        assert.equal(report.removed.directoryRecords, 1);
        assert.equal(report.removed.verifiedAddresses, 1);
        assert.equal(report.removed.leadSearchResults, 1);
        assert.equal(report.removed.bulkResultRows, 1);
        assert.ok(report.removed.replayAnswers >= 3, "find, enrich, network search replays");
        assert.ok(report.removed.cacheEntries >= 2, "the enrich and network-search answers");
        assert.ok(await isSuppressed(env.ctx, { emails: [ADDRESS] }));
        assert.ok(await isSuppressed(env.ctx, { profileUrls: [URL_] }));
        assert.ok(
          await isSuppressed(env.ctx, { names: [{ name: "GRACE  HOPPER", domain: "acme.test" }] }),
        );
        const again = await erasePerson(env.ctx, { email: ADDRESS });
        assert.equal(again.suppressed, 0);
        assert.equal(again.removed.directoryRecords, 0);
        const audit = await listAuditLog(env.ctx, {});
        const erased = audit.entries.filter((e) => e.action === "privacy.erased");
        assert.equal(erased.length, 2);
        assert.deepEqual(erased[1].actor, { kind: "cli", id: null });
        assert.equal(erased[1].details.directoryRecords, 1);
        assert.ok(!JSON.stringify(audit).toLowerCase().includes("hopper"));
      });

      await t.step("no table or KV entry holds the address or the name", async () => {
        const dump = (await dumpDatabase(env.db)).toLowerCase();
        assert.ok(dump.includes("ada lovelace"), "the dump reads the directory");
        for (const term of [ADDRESS, "grace hopper", "hopper", "linkedin.com/in/grace-hopper"]) {
          assert.ok(!dump.includes(term), `the dump holds ${term}`);
        }
        const kv = (await dumpKv(env.kv)).toLowerCase();
        assert.ok(!kv.includes("hopper"), "no KV entry holds the name");
        const held = await exportPerson(env.ctx, { email: ADDRESS });
        assert.deepEqual(held, { suppressed: true, records: [] });
      });
      await t.step("after: no operation returns or bills the person", async () => {
        const after = await createTestWorkspace(env, 10_000);
        const findAfter = lookupCaller(env, after.apiKey, "/api/v1/find");
        for (
          const body of [
            { name: "Grace Hopper", company: "acme.test" },
            { name: "grace hopper", company: "ACME.test" },
            { mode: "network", networkUrl: URL_ },
            { mode: "network", networkUrl: "https://linkedin.com/in/Grace-Hopper/?trk=x" },
            { mode: "company", name: "Grace Hopper", company: "Acme" },
          ]
        ) {
          const { data, text } = await findAfter(body);
          assert.equal(data.found, false, text);
          assert.equal(data.reason, "do-not-contact", text);
          assert.equal(data.charged, false);
          assert.ok(!text.toLowerCase().includes("hopper"), text);
        }
        const enriched = await lookupCaller(env, after.apiKey, "/api/v1/enrich/email")({
          email: ADDRESS,
        });
        assert.equal(enriched.data.reason, "do-not-contact");
        assert.equal(enriched.data.charged, false);
        const profile = await lookupCaller(env, after.apiKey, "/api/v1/network-search")({
          firstName: "Grace",
          lastName: "Hopper",
          company: "Acme",
        });
        assert.deepEqual(profile.data.matches, []);
        assert.equal(profile.data.charged, false, profile.text);
        // The row echoes what the workspace sent (its own input), answered without any person.
        const [row] = (await bulkFind(env, after.apiKey, "bulk-2")).trim().split("\n").map((l) =>
          JSON.parse(l)
        );
        assert.equal(row.answer.reason, "do-not-contact", JSON.stringify(row));
        assert.equal(row.answer.email, null);
        assert.equal(row.cost, 0);
        const run = await leadSearch(env, after.apiKey, "leads-2");
        assert.equal(run.deliveredCount, 1, "Ada only");
        assert.ok(!JSON.stringify(run).toLowerCase().includes("hopper"));
        assert.equal(await spent(env, after.workspaceId), 2, "one lead (Ada), nothing else");

        // A replay under the earlier key cannot hand the stored answer back, nor bill.
        const spentBefore = await spent(env, before.workspaceId);
        const replay = await find({ name: "Grace Hopper", company: "acme.test" }, "find-1");
        assert.ok(!replay.text.toLowerCase().includes("hopper"), replay.text);
        assert.equal(await spent(env, before.workspaceId), spentBefore);
        // The earlier lead-search run's page: still counted and billed, the person's fields gone.
        const res = await env.app.request("/api/v1/lead-search/runs?limit=5", {
          headers: bearer(before.apiKey),
        });
        await res.body?.cancel();
      });

      await t.step("re-import of the same file skips them, and counts them", async () => {
        const second = await importDirectory(env, path);
        assert.equal(second.suppressed, 1);
        assert.equal(second.created, 0);
        const [{ n }] = await env.db.sql<{ n: number }[]>`
        SELECT count(*)::int AS n FROM people WHERE name_key = 'grace hopper'`;
        assert.equal(n, 0);
      });
    } finally {
      await Deno.remove(path);
      await env.close();
    }
  },
);
