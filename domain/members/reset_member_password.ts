import { ServiceError } from "../errors.ts";
import type { DbContext } from "../context.ts";
import { normalizeMemberEmail } from "./member_email.ts";
import { generateOneTimePassword, hashPassword } from "./password.ts";

/**
 * Gives a member a new one-time password (`admin user reset-password`) and ends every session
 * they had: whoever knew the old password is signed out.
 */
export async function resetMemberPassword(
  ctx: DbContext,
  input: { email: string },
): Promise<{ memberId: string; email: string; oneTimePassword: string; sessionsEnded: number }> {
  const email = normalizeMemberEmail(input.email);
  const oneTimePassword = generateOneTimePassword();
  const passwordHash = await hashPassword(oneTimePassword);
  return await ctx.db.sql.begin(async (tx) => {
    const [member] = await tx<{ id: string }[]>`
      UPDATE members SET password_hash = ${passwordHash}, password_is_temporary = true,
                         password_set_at = now()
       WHERE email = ${email} RETURNING id`;
    if (!member) throw new ServiceError("not_found", `No member with the email ${email}`);
    const ended = await tx`DELETE FROM sessions WHERE member_id = ${member.id}`;
    return { memberId: member.id, email, oneTimePassword, sessionsEnded: ended.count };
  });
}
