/**
 * `admin privacy erase|export`, `admin audit` and `admin import` as an operator runs them: one JSON
 * object on stdout, usage errors exit 2, an erased person is skipped by the next import of the
 * same file, and the audit log names the CLI. On a temp DATA_DIR (embedded database), or on the
 * Postgres named by TEST_DATABASE_URL.
 */
import assert from "node:assert/strict";
import { runAdmin } from "../admin.ts";
import { DB_TEST, openTestDatabase } from "./harness.ts";

Deno.test("admin privacy erase, export, audit; import skips the erased", DB_TEST, async () => {
  const dataDir = await Deno.makeTempDir();
  const pg = Deno.env.get("TEST_DATABASE_URL") ? await openTestDatabase() : null;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    SVC_SECRET: "cli-test-secret-0123456789abcdef0123456789",
  };
  if (pg?.url) env.DATABASE_URL = pg.url;
  const file = `${dataDir}/people.jsonl`;
  await Deno.writeTextFile(
    file,
    [
      {
        name: "Grace Hopper",
        given: "Grace",
        surname: "Hopper",
        title: "Rear Admiral",
        companyName: "Acme",
        companyDomain: "acme.test",
        emails: [{ address: "grace@acme.test", status: "valid" }],
      },
      { name: "Ada Lovelace", given: "Ada", surname: "Lovelace", companyDomain: "acme.test" },
    ].map((r) => JSON.stringify(r)).join("\n") + "\n",
  );
  const admin = async (...args: string[]) => {
    const result = await runAdmin(args, env, { progress: () => {} });
    return result.ok
      ? { exitCode: result.exitCode, output: result.output as Record<string, never> }
      : { exitCode: result.exitCode, output: null as never, message: result.message };
  };
  try {
    assert.equal((await admin("import", file)).output.created, 2);

    const exported = await admin("privacy", "export", "--email", "GRACE@acme.test");
    assert.equal(exported.exitCode, 0);
    assert.equal(exported.output.suppressed, false);
    const [record] = exported.output.records as { fields: { field: string; value: unknown }[] }[];
    assert.deepEqual(record.fields.find((f) => f.field === "title")?.value, "Rear Admiral");

    const usage = await admin("privacy", "erase", "--email", "a@b.test", "--profile", "x");
    assert.equal(usage.exitCode, 2);
    assert.equal((await admin("privacy", "erase", "--name", "Grace Hopper")).exitCode, 2);

    const erased = await admin(
      "privacy",
      "erase",
      "--name",
      "grace hopper",
      "--domain",
      "acme.test",
    );
    assert.equal(erased.exitCode, 0);
    assert.equal((erased.output.removed as Record<string, number>).directoryRecords, 1);
    assert.equal((erased.output.removed as Record<string, number>).verifiedAddresses, 1);

    const again = await admin("import", file);
    assert.equal(again.output.suppressed, 1, "the erased person is skipped");
    assert.equal(again.output.created, 0);
    const after = await admin("privacy", "export", "--email", "grace@acme.test");
    assert.deepEqual(after.output, { suppressed: true, records: [] });

    const audit = await admin("audit", "--limit", "10");
    assert.equal(audit.exitCode, 0);
    const entries = audit.output.entries as { action: string; actor: { kind: string } }[];
    assert.deepEqual(entries[0].action, "privacy.erased");
    assert.deepEqual(entries[0].actor.kind, "cli");
    assert.equal((await admin("audit", "--limit", "500")).exitCode, 2);
  } finally {
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    await pg?.drop();
  }
});
