import { hashSessionToken } from "./session.ts";
import type { DbContext } from "../context.ts";

/** Ends the session behind a cookie token (signing out twice is harmless). */
export async function signOut(ctx: DbContext, token: string): Promise<void> {
  await ctx.db.sql`DELETE FROM sessions WHERE token_hash = ${await hashSessionToken(token)}`;
}
