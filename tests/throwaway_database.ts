/**
 * A Postgres database that lives for one test, benchmark or check run: created on the server of
 * `serverUrl` under a random name with `prefix`, dropped (connections forced off) by `drop()`.
 * Each run gets its own so that runs sharing one server never see each other's rows, and a ledger
 * grown by earlier runs (never analysed) never slows a benchmark down.
 */
import postgres from "postgres";

export interface ThrowawayDatabase {
  name: string;
  /** `serverUrl` with the new database as its path. */
  url: string;
  drop(): Promise<void>;
}

/** `prefix`: lower-case letters, digits and `_` (checked: it goes into SQL as a name). */
export async function createThrowawayDatabase(
  serverUrl: string,
  prefix: string,
): Promise<ThrowawayDatabase> {
  if (!/^[a-z_][a-z0-9_]{0,40}$/.test(prefix)) {
    throw new Error("a database name prefix must be lower-case letters, digits and _");
  }
  const name = `${prefix}${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const cleanup = postgres(serverUrl, { max: 1, onnotice: () => {} });
      try {
        await cleanup.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } catch {
        // Already gone, or the server went away: nothing left to drop.
      } finally {
        await cleanup.end();
      }
    },
  };
}
