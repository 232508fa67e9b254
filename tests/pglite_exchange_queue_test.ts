/**
 * Several connections on embedded PGlite's one backend (domain/stores/pglite_exchange_queue.ts):
 * extended-protocol batches, transactions and cursors of concurrent connections never interleave,
 * and a connection that goes away mid-transaction is rolled back without holding the others up.
 * With pglite-socket's own queue the first test fails (unnamed statements and portals of
 * concurrent connections overwrite each other).
 */
import assert from "node:assert/strict";
import { connectDatabase, type Database, openDatabase } from "../domain/stores/database.ts";

const TEST = { sanitizeOps: false, sanitizeResources: false };

async function withEmbedded(run: (db: Database) => Promise<void>): Promise<void> {
  const db = await openDatabase({ url: null, pgliteDir: "memory://", poolSize: 8 });
  try {
    await db.sql`CREATE TABLE entries (id int PRIMARY KEY, owner int NOT NULL, note text NOT NULL)`;
    await run(db);
  } finally {
    await db.close();
  }
}

Deno.test(
  "embedded database: concurrent connections' statements, transactions and cursors do not interleave",
  TEST,
  async () => {
    await withEmbedded(async (db) => {
      // A second client on the socket, as the lead-search Worker has.
      const other = await connectDatabase(db.target, 4);
      try {
        const clients = [db.sql, other.sql];
        const work = Array.from({ length: 240 }, async (_, i) => {
          const sql = clients[i % 2];
          switch (i % 4) {
            case 0: {
              // Parameterized statements: each answer must be its own.
              const [row] = await sql`SELECT ${i}::int + 1 AS n, ${"note " + i}::text AS note`;
              assert.equal(row.n, i + 1);
              assert.equal(row.note, `note ${i}`);
              break;
            }
            case 1: {
              // A transaction that reads back its own write before committing.
              await sql.begin(async (tx) => {
                await tx`INSERT INTO entries (id, owner, note) VALUES (${i}, ${i % 7}, ${"t" + i})`;
                await new Promise((resolve) => setTimeout(resolve, i % 3));
                const [row] = await tx`SELECT note FROM entries WHERE id = ${i}`;
                assert.equal(row.note, `t${i}`);
              });
              break;
            }
            case 2: {
              // A transaction that is rolled back leaves nothing.
              await assert.rejects(
                sql.begin(async (tx) => {
                  await tx`INSERT INTO entries (id, owner, note) VALUES (${i}, 0, 'gone')`;
                  throw new Error("roll back");
                }),
                /roll back/,
              );
              break;
            }
            case 3: {
              // A cursor (Execute with a row limit, portal kept between fetches).
              let seen = 0;
              const rows = sql`SELECT g AS n FROM generate_series(1, ${20 + i}) g`.cursor(7);
              for await (const batch of rows) {
                for (const row of batch) assert.equal(row.n, ++seen);
              }
              assert.equal(seen, 20 + i);
              break;
            }
          }
        });
        await Promise.all(work);
        const [{ count }] = await db.sql`SELECT count(*)::int AS count FROM entries`;
        assert.equal(count, 60);
        const [{ gone }] = await db
          .sql`SELECT count(*)::int AS gone FROM entries WHERE note = 'gone'`;
        assert.equal(gone, 0);
      } finally {
        await other.close();
      }
    });
  },
);

/** A raw protocol client: startup, then one simple query, answered up to its ReadyForQuery. */
async function rawClient(socketPath: string) {
  const conn = await Deno.connect({ transport: "unix", path: socketPath });
  const encoder = new TextEncoder();
  const message = (type: string, body: Uint8Array) => {
    const out = new Uint8Array(type ? 5 + body.length : 4 + body.length);
    const view = new DataView(out.buffer);
    let at = 0;
    if (type) out[at++] = type.charCodeAt(0);
    view.setInt32(at, 4 + body.length);
    out.set(body, at + 4);
    return out;
  };
  const untilReady = async () => {
    const buffer = new Uint8Array(65536);
    let seen = "";
    for (;;) {
      const n = await conn.read(buffer);
      if (n === null) throw new Error("closed");
      seen += String.fromCharCode(...buffer.subarray(0, n));
      const at = seen.lastIndexOf("Z\0\0\0\x05");
      if (at >= 0 && at + 6 <= seen.length) return seen[at + 5];
    }
  };
  const params = encoder.encode("user\0postgres\0database\0postgres\0\0");
  const startup = new Uint8Array(4 + params.length);
  new DataView(startup.buffer).setInt32(0, 196608);
  startup.set(params, 4);
  await conn.write(message("", startup));
  await untilReady();
  return {
    query: async (text: string) => {
      await conn.write(message("Q", encoder.encode(text + "\0")));
      return await untilReady();
    },
    close: () => conn.close(),
  };
}

Deno.test(
  "embedded database: a connection that goes away mid-transaction is rolled back and frees the backend",
  TEST,
  async () => {
    await withEmbedded(async (db) => {
      assert.ok("socketPath" in db.target);
      const raw = await rawClient(db.target.socketPath);
      // ReadyForQuery status T: the raw client holds an open transaction.
      assert.equal(await raw.query("BEGIN; INSERT INTO entries VALUES (1, 1, 'open')"), "T");
      // The service's client waits behind that transaction...
      const waiting = db.sql`SELECT count(*)::int AS count FROM entries`;
      await new Promise((resolve) => setTimeout(resolve, 50));
      // ...until its connection closes: rolled back, the backend passes on.
      raw.close();
      const [{ count }] = await waiting;
      assert.equal(count, 0);
      const [{ count: after }] = await db.sql`SELECT count(*)::int AS count FROM entries`;
      assert.equal(after, 0);
    });
  },
);
