import type { Clock } from "../shared/clock.ts";

import { hashSessionToken, type MemberSession } from "./session.ts";
import type { DbContext } from "../context.ts";

/** The live session behind a cookie token, or null (unknown, expired or signed out). */
export async function readSession(
  ctx: DbContext & { clock: Clock },
  token: string | undefined,
): Promise<MemberSession | null> {
  if (!token || !/^[0-9a-f]{64}$/.test(token)) return null;
  const rows = await ctx.db.sql<
    {
      member_id: string;
      workspace_id: string;
      email: string;
      csrf_token: string;
      password_is_temporary: boolean;
      expires_at: Date;
    }[]
  >`SELECT s.member_id, s.workspace_id, m.email, s.csrf_token, m.password_is_temporary,
           s.expires_at
      FROM sessions s JOIN members m ON m.id = s.member_id
     WHERE s.token_hash = ${await hashSessionToken(token)}`;
  const row = rows[0];
  if (!row || row.expires_at.getTime() <= ctx.clock.now()) return null;
  return {
    memberId: row.member_id,
    workspaceId: row.workspace_id,
    email: row.email,
    csrfToken: row.csrf_token,
    mustChoosePassword: row.password_is_temporary,
    expiresAt: row.expires_at,
  };
}
