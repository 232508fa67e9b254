/**
 * `deno task db:template`: makes `domain/stores/pglite_template.tar.gz`, the data directory a new
 * embedded database starts from (domain/stores/pglite_template.ts), with the PGlite version
 * deno.json pins, and records that version beside it. Run it after changing that version.
 */
import { PGlite } from "@electric-sql/pglite";
import { PGLITE_START_PARAMS } from "../domain/stores/embedded_database.ts";
import { pinnedPgliteVersion } from "../domain/stores/pglite_template.ts";

const version = pinnedPgliteVersion();
if (!version) throw new Error("cannot tell which PGlite version deno.json pins");
const work = await Deno.makeTempDir({ prefix: "pglite-template-" });
try {
  const db = await PGlite.create(`${work}/pgdata`, { startParams: [...PGLITE_START_PARAMS] });
  await db.exec("CHECKPOINT");
  await db.close();
  await Deno.remove(`${work}/pgdata/postmaster.pid`).catch(() => {});
  const out = new URL("../domain/stores/pglite_template.tar.gz", import.meta.url).pathname;
  const tar = await new Deno.Command("tar", {
    args: [
      "--format=ustar",
      "--sort=name",
      "--owner=0",
      "--group=0",
      "--numeric-owner",
      "--mtime=2000-01-01 00:00Z",
      "-czf",
      out,
      "-C",
      `${work}/pgdata`,
      ".",
    ],
    env: { GZIP: "-n9" },
  }).output();
  if (!tar.success) throw new Error(new TextDecoder().decode(tar.stderr));
  await Deno.writeTextFile(
    new URL("../domain/stores/pglite_template.json", import.meta.url),
    JSON.stringify({ pglite: version, made: "deno task db:template" }, null, 2) + "\n",
  );
  console.log(`${out}: PGlite ${version}, ${(await Deno.stat(out)).size} bytes`);
} finally {
  await Deno.remove(work, { recursive: true });
}
