import { ServiceError } from "../errors.ts";
import type { RateLimiter } from "../rate_limit/rate_limiter.ts";

import { hashPassword, passwordProblem, verifyPassword } from "./password.ts";
import { countPasswordAttempt } from "./sign_in.ts";
import type { DbContext } from "../context.ts";

export type ChoosePasswordOutcome =
  | { ok: true }
  /** The member has a password of their own, and `currentPassword` is not it (or is missing). */
  | { ok: false; reason: "wrong-current-password" }
  | { ok: false; reason: "rate-limited"; retryAfterSeconds: number };

/**
 * A signed-in member sets their own password: required after a one-time password, and then
 * allowed only with the current one (checked with argon2id, each check counted against the
 * sign-in budget of the address and the client, so a left-open session cannot be used to take
 * the account over or to guess the password). Their other sessions end; the current one stays.
 * A new password that is unacceptable throws `validation_error`; nothing changes on any refusal.
 */
export async function choosePassword(
  ctx: DbContext & { rateLimiter: RateLimiter },
  input: {
    memberId: string;
    currentSessionHash: string;
    /** The member's password; not needed while they are on a one-time password. */
    currentPassword?: string;
    password: string;
    confirmation: string;
    clientAddress: string;
  },
): Promise<ChoosePasswordOutcome> {
  const problem = passwordProblem(input.password);
  if (problem) throw new ServiceError("validation_error", problem);
  if (input.password !== input.confirmation) {
    throw new ServiceError("validation_error", "The two passwords are not the same");
  }
  const [member] = await ctx.db.sql<
    { email: string; password_hash: string; password_is_temporary: boolean }[]
  >`SELECT email, password_hash, password_is_temporary FROM members WHERE id = ${input.memberId}`;
  if (!member) throw new ServiceError("not_found", "No such member");
  if (!member.password_is_temporary) {
    const wait = await countPasswordAttempt(ctx.rateLimiter, member.email, input.clientAddress);
    if (wait !== null) return { ok: false, reason: "rate-limited", retryAfterSeconds: wait };
    if (!await verifyPassword(input.currentPassword ?? "", member.password_hash)) {
      return { ok: false, reason: "wrong-current-password" };
    }
  }
  const passwordHash = await hashPassword(input.password);
  const changed = await ctx.db.sql.begin(async (tx) => {
    // Only over the password just checked (or the one-time one): a change made meanwhile wins.
    const updated = await tx`
      UPDATE members SET password_hash = ${passwordHash}, password_is_temporary = false,
                         password_set_at = now()
       WHERE id = ${input.memberId} AND password_hash = ${member.password_hash}
      RETURNING id`;
    if (updated.length === 0) return false;
    await tx`DELETE FROM sessions
              WHERE member_id = ${input.memberId} AND token_hash <> ${input.currentSessionHash}`;
    return true;
  });
  return changed ? { ok: true } : { ok: false, reason: "wrong-current-password" };
}
