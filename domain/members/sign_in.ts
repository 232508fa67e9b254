/**
 * Sign-in to the web app: rate limited per address and per client before any password is
 * checked (`RATE_LIMIT_SIGN_IN`, default 10 attempts per 5 minutes each), the password compared
 * with argon2id (a decoy hash when no member has the address, so both take as long), and a
 * session started. Answers say only "wrong email or password", never which.
 */
import type { RateLimiter } from "../rate_limit/rate_limiter.ts";
import type { Clock } from "../shared/clock.ts";

import { decoyHash, verifyPassword } from "./password.ts";
import { hashSessionToken, newSessionToken, SESSION_DAYS } from "./session.ts";
import { hasControlCharacter } from "../shared/control_characters.ts";
import { encodeHex } from "../shared/hex.ts";
import type { DbContext } from "../context.ts";

export type SignInOutcome =
  | { ok: true; token: string; expiresAt: Date; mustChoosePassword: boolean }
  | { ok: false; reason: "wrong-credentials" }
  | { ok: false; reason: "rate-limited"; retryAfterSeconds: number };

export async function signIn(
  ctx: DbContext & { clock: Clock; rateLimiter: RateLimiter },
  input: { email: string; password: string; clientAddress: string },
): Promise<SignInOutcome> {
  const email = input.email.trim().toLowerCase();
  const wait = await countPasswordAttempt(ctx.rateLimiter, email, input.clientAddress);
  if (wait !== null) return { ok: false, reason: "rate-limited", retryAfterSeconds: wait };
  // (an address with a control character is no member's, and NUL cannot reach the database)
  const [member] = hasControlCharacter(email) ? [] : await ctx.db.sql<
    { id: string; workspace_id: string; password_hash: string; password_is_temporary: boolean }[]
  >`SELECT id, workspace_id, password_hash, password_is_temporary FROM members
     WHERE email = ${email}`;
  const matches = await verifyPassword(input.password, member?.password_hash ?? await decoyHash());
  if (!member || !matches) return { ok: false, reason: "wrong-credentials" };

  const token = newSessionToken();
  const expiresAt = new Date(ctx.clock.now() + SESSION_DAYS * 86_400_000);
  await ctx.db.sql`
    INSERT INTO sessions (token_hash, member_id, workspace_id, csrf_token, expires_at)
    VALUES (${await hashSessionToken(token)}, ${member.id}, ${member.workspace_id},
            ${newSessionToken()}, ${expiresAt})`;
  // Expired sessions of anyone are cleared as members sign in (no sweeper needed).
  await ctx.db.sql`DELETE FROM sessions WHERE expires_at < ${new Date(ctx.clock.now())}`;
  return { ok: true, token, expiresAt, mustChoosePassword: member.password_is_temporary };
}

/**
 * Counts one check of a member's password (a sign-in, or the current password when changing it)
 * against the `sign_in` budget of the address and of the client. Null when admitted, otherwise
 * the seconds until the spent window ends.
 */
export async function countPasswordAttempt(
  rateLimiter: RateLimiter,
  email: string,
  clientAddress: string,
): Promise<number | null> {
  const emailDigest = encodeHex(
    new Uint8Array(
      await crypto.subtle.digest("SHA-256", new TextEncoder().encode(email.trim().toLowerCase())),
    ),
  );
  for (const subject of [`email:${emailDigest}`, `client:${clientAddress}`]) {
    const decision = await rateLimiter("sign_in", subject);
    if (!decision.allowed) return decision.resetSeconds;
  }
  return null;
}
