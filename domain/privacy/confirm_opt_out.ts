/**
 * The opt-out link followed (and its button pressed: a GET never acts, since mail scanners
 * open links): the address is suppressed and every copy erased (`erasePerson`), with the public
 * page as the actor. A link works once (its id is recorded in `opt_out_tokens_used`) and until
 * it expires; `invalid` covers a forged, altered and expired link alike. The answer, like the
 * request's, never says whether anything was held.
 */
import type { DomainContext } from "../context.ts";
import { recordAuditEvent } from "../audit/record_audit_event.ts";
import { erasePerson } from "./erase_person.ts";

export type OptOutConfirmation = { kind: "done" } | { kind: "invalid" } | { kind: "used" };

export async function confirmOptOut(
  ctx: DomainContext,
  input: { token: string },
): Promise<OptOutConfirmation> {
  const now = new Date(ctx.clock.now());
  const claim = await ctx.optOutLinks.open({ token: input.token, now });
  if (!claim) return { kind: "invalid" };
  const claimed = await ctx.db.sql`
    INSERT INTO opt_out_tokens_used (token_id, used_at, expires_at)
    VALUES (${claim.tokenId}, ${now}, ${claim.expiresAt})
    ON CONFLICT (token_id) DO NOTHING
    RETURNING 1`;
  if (claimed.length === 0) return { kind: "used" };
  let erasureId: string;
  try {
    ({ erasureId } = await erasePerson(ctx, {
      email: claim.email,
      actor: { kind: "public-page" },
    }));
  } catch (error) {
    // Not erased: the link works again.
    await ctx.db.sql`DELETE FROM opt_out_tokens_used WHERE token_id = ${claim.tokenId}`;
    throw error;
  }
  await recordAuditEvent(ctx, {
    action: "privacy.opt-out-confirmed",
    actor: { kind: "public-page" },
    workspaceId: null,
    subjectId: erasureId,
  });
  return { kind: "done" };
}
