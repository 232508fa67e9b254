import type { Sql } from "../stores/database.ts";
import { hashSessionToken } from "./session.ts";

/** Ends the session behind a cookie token (signing out twice is harmless). */
export async function signOut(sql: Sql, token: string): Promise<void> {
  await sql`DELETE FROM sessions WHERE token_hash = ${await hashSessionToken(token)}`;
}
