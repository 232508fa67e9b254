/**
 * The shipped template a new embedded database starts from (domain/stores/pglite_template.ts):
 * made by the PGlite version deno.json pins, and it opens. After changing that version, run
 * `deno task db:template`.
 */
import assert from "node:assert/strict";
import { openDatabase } from "../domain/stores/database.ts";
import {
  pinnedPgliteVersion,
  readTar,
  templateVersion,
  unpackTemplate,
} from "../domain/stores/pglite_template.ts";

Deno.test("the PGlite template is made by the pinned PGlite version", async () => {
  assert.ok(pinnedPgliteVersion(), "the pinned PGlite version is readable");
  assert.equal(
    await templateVersion(),
    pinnedPgliteVersion(),
    "domain/stores/pglite_template.tar.gz is stale: run `deno task db:template`",
  );
});

Deno.test("a new embedded database starts from the template and opens", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pglite-template-test-" });
  try {
    assert.equal(await unpackTemplate(`${dir}/unpacked`), true);
    assert.equal((await Deno.readTextFile(`${dir}/unpacked/PG_VERSION`)).trim().length > 0, true);
    // The service's way: a missing directory is made from the template, then migrated by callers.
    const db = await openDatabase({ url: null, pgliteDir: `${dir}/pglite` });
    try {
      const [row] = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_class`;
      assert.ok(row.n > 100);
      await db.sql`CREATE TABLE template_probe (id int PRIMARY KEY)`;
      await db.sql`INSERT INTO template_probe VALUES (1)`;
    } finally {
      await db.close();
    }
    const reopened = await openDatabase({ url: null, pgliteDir: `${dir}/pglite` });
    try {
      const [row] = await reopened.sql<
        { n: number }[]
      >`SELECT count(*)::int AS n FROM template_probe`;
      assert.equal(row.n, 1);
    } finally {
      await reopened.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the template reader keeps names inside the target directory", () => {
  const header = (name: string, flag: string, size = 0) => {
    const block = new Uint8Array(512);
    block.set(new TextEncoder().encode(name), 0);
    block.set(new TextEncoder().encode(size.toString(8).padStart(11, "0")), 124);
    block[156] = flag.charCodeAt(0);
    return block;
  };
  const body = new Uint8Array(512);
  body.set(new TextEncoder().encode("hi"));
  const archive = new Uint8Array([
    ...header("../escape", "0", 2),
    ...body,
    ...header("./base/", "5"),
    ...header("./base/1", "0", 2),
    ...body,
    ...new Uint8Array(1024),
  ]);
  const entries = [...readTar(archive)].map((e) => `${e.type}:${e.name}:${e.data.length}`);
  assert.deepEqual(entries, ["dir:base:0", "file:base/1:2"]);
});
