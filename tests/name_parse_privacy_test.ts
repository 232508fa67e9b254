/**
 * Privacy (spec §1): names sent for parsing and their answers never reach the database, KV,
 * DATA_DIR files, logs or error messages — through single, batch, replays, refusals and errors.
 */
import assert from "node:assert/strict";
import { memoryLogger } from "../domain/shared/logger.ts";
import { createWorkspace } from "../domain/workspaces/create_workspace.ts";
import { DB_TEST, startTestService } from "./harness.ts";

const CONTROL = "Kontrollwertzeichen";
const TOKENS = [
  "Zorblattine",
  "Quixwhistleton",
  "Vantreeckenbergh",
  "Xylophanesse",
  "Oompaloompius",
  "Glimmerdrax",
];

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) out.push(...await filesUnder(path));
    else if (entry.isFile) out.push(path);
  }
  return out;
}

function contains(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

Deno.test(
  "privacy: no submitted name or answer reaches the database, KV, DATA_DIR or logs",
  DB_TEST,
  async () => {
    const logger = memoryLogger();
    const running = await startTestService(logger);
    const { service, base, dataDir } = running;
    const pg = running.usesPostgres;
    const { apiKey, workspaceId } = await createWorkspace(service.ctx, {
      name: "privacy",
      points: 1000,
    });
    const call = async (path: string, body: unknown, key?: string) => {
      const res = await fetch(base + path, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${apiKey}`,
          "Content-Type": "application/json",
          ...(key ? { "Idempotency-Key": key } : {}),
        },
        body: JSON.stringify(body),
      });
      return { status: res.status, text: await res.text() };
    };
    const [a, b, c, d, e, f] = TOKENS;
    const responses: { status: number; text: string }[] = [];
    try {
      responses.push(await call("/api/v1/name/parse", { name: `Dr. ${a} "${f}" ${b}, PhD` }));
      responses.push(await call("/api/v1/name/parse", { name: `${a} ${b}` }, "privacy-single-1"));
      responses.push(await call("/api/v1/name/parse", { name: `${a} ${b}` }, "privacy-single-1"));
      responses.push(await call("/api/v1/name/parse", { name: `${a} ${c}` }, "privacy-single-1")); // conflict
      responses.push(await call("/api/v1/name/parse", { name: c, spelling: "folded" })); // unsplittable
      responses.push(await call("/api/v1/name/parse", { name: `${d} `.repeat(40) })); // too long
      responses.push(await call("/api/v1/name/parse", { name: 17 })); // wrong type
      const names = [`${c} ${d}`, `${e}, ${a}`, d, "", `${b} ${f}`];
      responses.push(await call("/api/v1/name/parse/batch", { names }, "privacy-batch-1"));
      responses.push(await call("/api/v1/name/parse/batch", { names }, "privacy-batch-1"));
      responses.push(
        await call("/api/v1/name/parse/batch", { names: [...names, e] }, "privacy-batch-1"),
      );
      responses.push(
        await call("/api/v1/name/parse/batch", { names: [`${e} ${f}`, 3] }, "privacy-batch-2"),
      );
      assert.deepEqual(responses.map((r) => r.status), [
        200,
        200,
        200,
        409,
        400,
        400,
        400,
        200,
        200,
        409,
        400,
      ]);
      // Error messages never quote a name.
      for (const { status, text } of responses) {
        if (status !== 200) {
          for (const token of TOKENS) {
            assert.ok(!text.includes(token), `error quotes ${token}`);
          }
        }
      }

      // The database: every table, every row, as text.
      const sql = service.ctx.db.sql;
      const tables = await sql<
        { tablename: string }[]
      >`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`;
      assert.ok(tables.length >= 6);
      for (const { tablename } of tables) {
        const rows = await sql.unsafe(`SELECT t::text AS row FROM "${tablename}" t`);
        const dump = rows.map((r) => r.row).join("\n").toLowerCase();
        for (const token of TOKENS) {
          assert.ok(
            !dump.includes(token.toLowerCase()),
            `${token} found in ${tablename}`,
          );
        }
      }
      const charges =
        await sql`SELECT coalesce(sum(units), 0)::int AS n FROM ledger_entries WHERE workspace_id = ${workspaceId} AND kind = 'charge'`;
      assert.ok(charges[0].n >= 5, "the billing records exist, without the names");

      // KV: every key and value.
      const kvDump: string[] = [];
      for await (const entry of service.ctx.kv.list({ prefix: [] })) {
        kvDump.push(
          JSON.stringify([entry.key, entry.value]),
        );
      }
      for (const token of TOKENS) {
        assert.ok(
          !kvDump.join("\n").toLowerCase().includes(token.toLowerCase()),
        );
      }

      // A control: a value the service does store is found by the same scans.
      await createWorkspace({ db: { sql } }, { name: CONTROL, points: 1 });
      const controlRows = await sql.unsafe(`SELECT t::text AS row FROM workspaces t`);
      assert.ok(controlRows.some((r) => String(r.row).includes(CONTROL)));

      // Logs.
      const logs = logger.lines.join("\n").toLowerCase();
      assert.ok(logs.includes('"msg":"request"'));
      for (const token of TOKENS) {
        assert.ok(!logs.includes(token.toLowerCase()), `${token} in logs`);
      }
    } finally {
      await running.stop({ keepDataDir: true });
    }
    try {
      // DATA_DIR after a clean stop: database files, WAL, KV file, secret — byte for byte.
      const files = await filesUnder(dataDir);
      assert.ok(files.length >= (pg ? 2 : 5));
      if (!pg) {
        const control = new TextEncoder().encode(CONTROL);
        let found = false;
        for (const file of files) found ||= contains(await Deno.readFile(file), control);
        assert.ok(found, "the file scan finds a value that is stored");
      }
      const needles = TOKENS.flatMap((t) => [t, t.toLowerCase()]).map((t) =>
        new TextEncoder().encode(t)
      );
      for (const file of files) {
        const bytes = await Deno.readFile(file);
        for (const needle of needles) {
          assert.ok(
            !contains(bytes, needle),
            `${new TextDecoder().decode(needle)} found in ${file}`,
          );
        }
      }
    } finally {
      await running.cleanup();
    }
  },
);
